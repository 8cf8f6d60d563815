// Tether's miniquad plugin: hands the page's URL query to the game (src/app/web.rs) and lets the
// game say when its first frame is on screen. Load it after mq_js_bundle.js and before
// load("tether.wasm"): plugins register their functions into the loader's `env` import module.
"use strict";
(function () {
    const encoder = new TextEncoder();

    function queryBytes() {
        return encoder.encode(window.location.search.replace(/^\?/, ""));
    }

    // The fragment (a level link: `#level=<code>`), without the `#`.
    function fragmentBytes() {
        return encoder.encode(window.location.hash.replace(/^#/, ""));
    }

    miniquad_add_plugin({
        name: "tether_query",
        version: 1,
        register_plugin: function (importObject) {
            importObject.env.tether_query_length = function () {
                return queryBytes().length;
            };
            // Copies at most `capacity` bytes of the query (UTF-8) to wasm memory at `ptr`.
            importObject.env.tether_query_copy = function (ptr, capacity) {
                const bytes = queryBytes();
                const n = Math.min(bytes.length, capacity);
                new Uint8Array(wasm_memory.buffer, ptr, n).set(bytes.subarray(0, n));
                return n;
            };
            importObject.env.tether_fragment_length = function () {
                return fragmentBytes().length;
            };
            importObject.env.tether_fragment_copy = function (ptr, capacity) {
                const bytes = fragmentBytes();
                const n = Math.min(bytes.length, capacity);
                new Uint8Array(wasm_memory.buffer, ptr, n).set(bytes.subarray(0, n));
                return n;
            };
            // Shows a level link in the address bar (replaceState: no reload, no history entry).
            importObject.env.tether_set_fragment = function (ptr, len) {
                const text = new TextDecoder().decode(new Uint8Array(wasm_memory.buffer, ptr, len));
                history.replaceState(null, "", text);
            };
            importObject.env.tether_now_ms = function () {
                return performance.now();
            };
            importObject.env.tether_first_frame = function () {
                window.tetherFirstFrameMs = performance.now();
                document.documentElement.classList.add("tether-running");
            };
        },
    });
})();
