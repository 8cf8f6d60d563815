// Settings kept in the browser's localStorage, for the plugins that hand settings files to the
// game (audio: `tether.settings`, input: `tether.input`). Not a miniquad plugin itself: the
// other plugins call these at run time, after every script has loaded, so the load order of the
// script tags does not matter.
(function () {
    "use strict";

    window.tether_storage = {
        // Copies the text stored under `key` into wasm memory at `ptr` (at most `cap` bytes).
        // Returns its length, -1 when there is none (or storage is disabled: settings then live
        // in memory only), -2 when it does not fit.
        load: function (key, ptr, cap) {
            try {
                const text = window.localStorage.getItem(key);
                if (text === null) {
                    return -1;
                }
                const bytes = new TextEncoder().encode(text);
                if (bytes.length > cap) {
                    return -2;
                }
                new Uint8Array(wasm_memory.buffer, ptr, bytes.length).set(bytes);
                return bytes.length;
            } catch (e) {
                return -1;
            }
        },
        // Stores the `len` bytes of text at `ptr` under `key`; `what` names them in a warning.
        // True when stored.
        save: function (key, ptr, len, what) {
            try {
                const text = new TextDecoder().decode(new Uint8Array(wasm_memory.buffer, ptr, len));
                window.localStorage.setItem(key, text);
                return true;
            } catch (e) {
                console.warn("tether: cannot save " + what + ":", e);
                return false;
            }
        },
    };
})();
