// Tether's miniquad plugin: hands the page's URL query to the game (src/app/web.rs), lets the
// game say when its first frame is on screen, and moves level files in and out for the editor's
// page ("My levels": export as a download, import through the file picker). Load it after mq_js_bundle.js and before
// load("tether.wasm"): plugins register their functions into the loader's `env` import module.
"use strict";
(function () {
    const encoder = new TextEncoder();

    function queryBytes() {
        return encoder.encode(window.location.search.replace(/^\?/, ""));
    }

    // Copies at most `capacity` bytes of `text` (UTF-8) to wasm memory at `ptr`: how many.
    function copyInto(text, ptr, capacity) {
        const bytes = typeof text === "string" ? encoder.encode(text) : text;
        const n = Math.min(bytes.length, capacity);
        new Uint8Array(wasm_memory.buffer, ptr, n).set(bytes.subarray(0, n));
        return n;
    }

    // A level link in the fragment (`#level=<code>`, src/editor/link.rs: the level's text,
    // zlib-compressed, in URL-safe base64 without padding), decoded by the browser's own
    // inflater (DecompressionStream) so the .wasm carries none. Someone else's text: the code's
    // length is checked first, inflating stops past the level-file limit, the text must be UTF-8.
    let link = { state: 0, text: "" }; // 0 none, 1 decoding, 2 ready, 3 error (text: why)

    // A level file being imported: 0 none, 1 the person is choosing / it is being read, 2 read
    // (text: "NAME\nTEXT"), 3 refused (text: why). Taken (back to 0) when the game copies it.
    let imported = { state: 0, text: "" };

    // Reads a picked file within the game's limits: someone else's file, so its size is checked
    // before reading and its bytes must be UTF-8.
    function readLevelFile(file, maxBytes) {
        const name = file.name.replace(/[\r\n]/g, " ");
        if (file.size > maxBytes) {
            imported = { state: 3, text: `${name} is ${file.size} bytes, over the ${maxBytes}-byte limit of a level file` };
            return;
        }
        file.arrayBuffer().then((buffer) => {
            try {
                const text = new TextDecoder("utf-8", { fatal: true }).decode(buffer);
                imported = { state: 2, text: name + "\n" + text };
            } catch (_) {
                imported = { state: 3, text: `${name} is not UTF-8 text` };
            }
        }, (err) => {
            imported = { state: 3, text: `${name} cannot be read: ${err && err.message || err}` };
        });
    }

    // The picker: one hidden <input type=file> (the browser test sets its files directly).
    function levelFilePicker(maxBytes) {
        let input = document.getElementById("tether-import");
        if (!input) {
            input = document.createElement("input");
            input.type = "file";
            input.id = "tether-import";
            input.accept = ".ron,text/plain";
            input.hidden = true;
            document.body.appendChild(input);
        }
        input.value = "";
        input.onchange = () => {
            if (input.files && input.files.length > 0) {
                readLevelFile(input.files[0], maxBytes);
            } else {
                imported = { state: 0, text: "" };
            }
        };
        input.oncancel = () => { imported = { state: 0, text: "" }; };
        return input;
    }

    async function decodeLevelLink(code, maxCodeBytes, maxTextBytes) {
        if (code.length > maxCodeBytes) {
            throw new Error(`the level link is ${code.length} bytes long, at most ${maxCodeBytes} allowed`);
        }
        if (code.length === 0) throw new Error("the level link is empty");
        const badBase64 = new Error("the level link is not valid (bad base64)");
        if (!/^[A-Za-z0-9_-]*$/.test(code)) throw badBase64;
        let base64 = code.replace(/-/g, "+").replace(/_/g, "/");
        while (base64.length % 4) base64 += "=";
        let binary;
        try {
            binary = atob(base64);
        } catch (_) {
            throw badBase64;
        }
        const packed = Uint8Array.from(binary, (c) => c.charCodeAt(0));
        const reader = new Blob([packed]).stream()
            .pipeThrough(new DecompressionStream("deflate")).getReader();
        const tooLarge = new Error(`the level in the link is larger than the ${maxTextBytes}-byte limit of a level`);
        const chunks = [];
        let total = 0;
        try {
            for (;;) {
                const { done, value } = await reader.read();
                if (done) break;
                total += value.length;
                if (total > maxTextBytes) {
                    reader.cancel().catch(() => {});
                    throw tooLarge;
                }
                chunks.push(value);
            }
        } catch (err) {
            throw err === tooLarge ? err : new Error("the level link is damaged (its data does not inflate)");
        }
        const bytes = new Uint8Array(total);
        let at = 0;
        for (const chunk of chunks) {
            bytes.set(chunk, at);
            at += chunk.length;
        }
        try {
            return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch (_) {
            throw new Error("the level in the link is not UTF-8 text");
        }
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
                return copyInto(queryBytes(), ptr, capacity);
            };
            // The fragment without its `#` (an online level link, `#online=<hash>`, is read by
            // the game: src/editor/online_link.rs).
            importObject.env.tether_fragment_length = function () {
                return encoder.encode(window.location.hash.replace(/^#/, "")).length;
            };
            importObject.env.tether_fragment_copy = function (ptr, capacity) {
                return copyInto(window.location.hash.replace(/^#/, ""), ptr, capacity);
            };
            // Starts decoding the fragment's level link with the game's limits: 1 when there is
            // one (then poll tether_link_state), 0 when the fragment holds no link.
            importObject.env.tether_link_start = function (maxCodeBytes, maxTextBytes) {
                const fragment = window.location.hash.replace(/^#/, "");
                if (!fragment.startsWith("level=")) return 0;
                link = { state: 1, text: "" };
                decodeLevelLink(fragment.slice("level=".length), maxCodeBytes, maxTextBytes).then(
                    (text) => { link = { state: 2, text: text }; },
                    (err) => { link = { state: 3, text: String(err && err.message || err) }; });
                return 1;
            };
            importObject.env.tether_link_state = function () {
                return link.state;
            };
            // The decoded level (state 2) or why not (state 3): its UTF-8 length, and a copy of at
            // most `capacity` bytes.
            importObject.env.tether_link_length = function () {
                return encoder.encode(link.text).length;
            };
            importObject.env.tether_link_copy = function (ptr, capacity) {
                return copyInto(link.text, ptr, capacity);
            };
            // Shows a level link in the address bar (replaceState: no reload, no history entry):
            // the game's address (no `edit` query), so the link opens in play.
            importObject.env.tether_set_fragment = function (ptr, len) {
                const text = new TextDecoder().decode(new Uint8Array(wasm_memory.buffer, ptr, len));
                history.replaceState(null, "", window.location.pathname + text);
                console.log("level link: " + window.location.href);
            };
            // Opens the file picker (the key press that asked for it is the user gesture the
            // browser wants, still recent when the game's frame runs).
            importObject.env.tether_import_start = function (maxBytes) {
                imported = { state: 1, text: "" };
                levelFilePicker(maxBytes).click();
            };
            importObject.env.tether_import_state = function () {
                return imported.state;
            };
            importObject.env.tether_import_length = function () {
                return encoder.encode(imported.text).length;
            };
            // Copies the read file (or why not) and forgets it.
            importObject.env.tether_import_copy = function (ptr, capacity) {
                const n = copyInto(imported.text, ptr, capacity);
                imported = { state: 0, text: "" };
                return n;
            };
            // Hands a level's text out as a download called NAME.
            importObject.env.tether_export = function (namePtr, nameLen, textPtr, textLen) {
                const decode = (p, n) => new TextDecoder().decode(new Uint8Array(wasm_memory.buffer, p, n));
                const name = decode(namePtr, nameLen);
                const blob = new Blob([decode(textPtr, textLen)], { type: "text/plain" });
                const url = URL.createObjectURL(blob);
                const a = document.createElement("a");
                a.href = url;
                a.download = name;
                document.body.appendChild(a);
                a.click();
                a.remove();
                setTimeout(() => URL.revokeObjectURL(url), 10000);
                console.log("export: " + name + " (" + textLen + " bytes)");
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
