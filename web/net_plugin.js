// Tether Online's HTTP in the browser; the Rust half is src/online/http.rs. A request is
// started with fetch and polled by id each frame until it is done (status and body) or failed.
// Every request ends: an AbortController stops it at its timeout (head and body alike), and the
// body is read as a stream and cut off past its byte limit. Also the randomness of a new
// player key (crypto.getRandomValues), so the game needs no wasm-bindgen crate for it, and the
// clipboard for the recovery code (navigator.clipboard.writeText).
(function () {
    "use strict";

    const PENDING = 0, DONE = 1, UNREACHABLE = 2, TIMED_OUT = 3, TOO_LARGE = 4, UNKNOWN = 5;
    const requests = new Map();
    let nextId = 1;

    function text(ptr, len) {
        return new TextDecoder().decode(new Uint8Array(wasm_memory.buffer, ptr, len));
    }

    async function readCapped(response, request, maxBytes) {
        const chunks = [];
        let total = 0;
        if (!response.body) {
            const bytes = new Uint8Array(await response.arrayBuffer());
            return bytes.length > maxBytes ? null : bytes;
        }
        const reader = response.body.getReader();
        for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            total += value.length;
            if (total > maxBytes) {
                reader.cancel().catch(function () {});
                return null;
            }
            chunks.push(value);
        }
        const body = new Uint8Array(total);
        let at = 0;
        for (const chunk of chunks) {
            body.set(chunk, at);
            at += chunk.length;
        }
        return body;
    }

    function start(method, url, body, timeoutMs, maxBytes) {
        const id = nextId++;
        const controller = new AbortController();
        const request = { state: PENDING, status: 0, body: new Uint8Array(0) };
        requests.set(id, request);
        const finish = function (state) {
            if (request.state === PENDING) request.state = state;
        };
        const timer = setTimeout(function () {
            finish(TIMED_OUT);
            controller.abort();
        }, timeoutMs);
        const init = { method: method, signal: controller.signal, cache: "no-store" };
        if (body !== null) {
            // text/plain and no custom headers: no CORS preflight (docs/online.md).
            init.body = body;
            init.headers = { "Content-Type": "text/plain;charset=UTF-8" };
        }
        fetch(url, init)
            .then(async function (response) {
                const bytes = await readCapped(response, request, maxBytes);
                if (bytes === null) {
                    finish(TOO_LARGE);
                    controller.abort();
                    return;
                }
                if (request.state === PENDING) {
                    request.status = response.status;
                    request.body = bytes;
                    request.state = DONE;
                }
            })
            .catch(function (e) {
                // An abort after the timeout has already set TIMED_OUT; anything else (no
                // server, a refused CORS answer, a broken connection) is unreachable.
                finish(UNREACHABLE);
            })
            .finally(function () {
                clearTimeout(timer);
            });
        return id;
    }

    // The last clipboard write: 0 on its way, 1 copied, 2 refused. writeText needs a secure
    // context (https or loopback) and a recent user gesture or the page's permission; a refusal
    // or no answer within CLIPBOARD_TIMEOUT_MS is "refused", so the game never waits on it.
    const CLIPBOARD_TIMEOUT_MS = 5000;
    let clipboardState = 0, clipboardWrite = 0;

    function writeClipboard(value) {
        const write = ++clipboardWrite;
        const settle = function (state) {
            if (write === clipboardWrite && clipboardState === 0) clipboardState = state;
        };
        clipboardState = 0;
        setTimeout(function () { settle(2); }, CLIPBOARD_TIMEOUT_MS);
        try {
            navigator.clipboard.writeText(value).then(
                function () { settle(1); }, function () { settle(2); });
        } catch (e) {
            settle(2);
        }
    }

    miniquad_add_plugin({
        name: "tether_net",
        version: 1,
        register_plugin: function (importObject) {
            importObject.env.tether_http_start = function (
                methodPtr, methodLen, urlPtr, urlLen, bodyPtr, bodyLen, timeoutMs, maxBytes
            ) {
                const body = bodyLen < 0 ? null : text(bodyPtr, bodyLen);
                try {
                    return start(text(methodPtr, methodLen), text(urlPtr, urlLen), body,
                        timeoutMs, maxBytes);
                } catch (e) {
                    const id = nextId++;
                    requests.set(id, { state: UNREACHABLE, status: 0, body: new Uint8Array(0) });
                    return id;
                }
            };
            importObject.env.tether_http_poll = function (id) {
                const request = requests.get(id);
                return request === undefined ? UNKNOWN : request.state;
            };
            importObject.env.tether_http_status = function (id) {
                const request = requests.get(id);
                return request === undefined ? 0 : request.status;
            };
            importObject.env.tether_http_body_len = function (id) {
                const request = requests.get(id);
                return request === undefined ? 0 : request.body.length;
            };
            // Copies the body (at most `cap` bytes) into wasm memory and forgets the request.
            importObject.env.tether_http_take = function (id, ptr, cap) {
                const request = requests.get(id);
                requests.delete(id);
                if (request === undefined) return 0;
                const length = Math.min(cap, request.body.length);
                new Uint8Array(wasm_memory.buffer, ptr, length).set(request.body.subarray(0, length));
                return length;
            };
            importObject.env.tether_clipboard_write = function (ptr, len) {
                writeClipboard(text(ptr, len));
            };
            importObject.env.tether_clipboard_state = function () {
                return clipboardState;
            };
            // Fills `len` bytes at `ptr` from crypto.getRandomValues: 1 when done, 0 when the
            // page has no secure randomness (the game then makes no key).
            importObject.env.tether_random_fill = function (ptr, len) {
                try {
                    window.crypto.getRandomValues(new Uint8Array(wasm_memory.buffer, ptr, len));
                    return 1;
                } catch (e) {
                    return 0;
                }
            };
        },
    });
})();
