// Progress and ghost runs kept in the browser's localStorage under keys the game names
// (`tether.progress`, `tether.ghost.<level file>`). Uses window.tether_storage (storage_plugin.js).
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
        },
    });
})();
