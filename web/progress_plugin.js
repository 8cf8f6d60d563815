// What the game keeps in the browser's localStorage under keys it names: progress
// (`tether.progress`), audio and input settings (`tether.settings`, `tether.input`), ghost runs
// (`tether.ghost.<level file>`) and the author's own levels (`tether.level.<name>`); the Rust
// half is src/platform/store.rs. Uses window.tether_storage (storage_plugin.js).
(function () {
    "use strict";

    function keyAt(ptr, len) {
        return new TextDecoder().decode(new Uint8Array(wasm_memory.buffer, ptr, len));
    }

    miniquad_add_plugin({
        name: "tether_progress",
        version: 1,
        register_plugin: function (importObject) {
            // Copies the text under the key into wasm memory: its length, or -1 (none) / -2 (too large).
            importObject.env.tether_store_load = function (keyPtr, keyLen, ptr, cap) {
                return window.tether_storage.load(keyAt(keyPtr, keyLen), ptr, cap);
            };
            // Stores the text under the key: 1 when stored, 0 when the browser refused.
            importObject.env.tether_store_save = function (keyPtr, keyLen, ptr, len) {
                const key = keyAt(keyPtr, keyLen);
                return window.tether_storage.save(key, ptr, len, key) ? 1 : 0;
            };
            // Removes the key: 1 when it is gone, 0 when the browser refused.
            importObject.env.tether_store_remove = function (keyPtr, keyLen) {
                return window.tether_storage.remove(keyAt(keyPtr, keyLen)) ? 1 : 0;
            };
            // The keys starting with the prefix, one per line, copied into wasm memory (whole
            // keys only, at most `cap` bytes): the number of bytes written.
            importObject.env.tether_store_keys = function (prefixPtr, prefixLen, ptr, cap) {
                return window.tether_storage.keys(keyAt(prefixPtr, prefixLen), ptr, cap);
            };
        },
    });
})();
