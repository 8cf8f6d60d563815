// The browser's localStorage for the plugin that hands the game what it keeps (progress_plugin.js:
// settings, progress, ghosts and the author's levels). Not a miniquad plugin itself: the
// plugins call these at run time, after every script has loaded, so the load order of the
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
        // Removes `key`. True when it is gone.
        remove: function (key) {
            try {
                window.localStorage.removeItem(key);
                return true;
            } catch (e) {
                console.warn("tether: cannot remove " + key + ":", e);
                return false;
            }
        },
        // Writes the stored keys that start with `prefix`, sorted, one per line, into wasm
        // memory at `ptr`: whole keys only, at most `cap` bytes. Returns the bytes written.
        keys: function (prefix, ptr, cap) {
            let found = [];
            try {
                for (let i = 0; i < window.localStorage.length; i++) {
                    const key = window.localStorage.key(i);
                    if (key !== null && key.startsWith(prefix) && !key.includes("\n")) {
                        found.push(key);
                    }
                }
            } catch (e) {
                return 0;
            }
            found.sort();
            const out = new Uint8Array(wasm_memory.buffer, ptr, cap);
            const encoder = new TextEncoder();
            let at = 0;
            for (const key of found) {
                const bytes = encoder.encode(key + "\n");
                if (at + bytes.length > cap) break;
                out.set(bytes, at);
                at += bytes.length;
            }
            return at;
        },
    };
})();
