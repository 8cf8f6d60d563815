// Tether's browser audio: a miniquad JS plugin over Web Audio.
//
// Load it after mq_js_bundle.js and before load("tether.wasm"). It adds plain functions to the
// wasm "env" imports (as macroquad's own JS does), so the Rust side needs no wasm-bindgen; the
// Rust half is src/app/audio/web_backend.rs.
//
// Why a plugin and not macroquad's "audio" feature: cargo's `links` check ignores target cfgs,
// so macroquad's quad-snd (quad-alsa-sys, links = "alsa") cannot sit in the same dependency
// graph as rodio's cpal (alsa-sys, links = "alsa"), even when one is wasm-only.
//
// - Sounds arrive as MP3 bytes (every major browser's decodeAudioData takes MP3) and are
//   decoded while the loading screen shows; the Rust side polls each sound's state (and gives
//   up after a timeout, so a decode that never answers cannot hang the game). The music's
//   layers arrive after the title shows and start together once all are decoded.
// - One-shots play through their own gain node; loops (music, rope creak, wind) start once and
//   follow the volume the game sets every frame, smoothed to avoid zipper noise.
// - Browsers keep audio suspended until a user gesture, and warn in the console about an
//   AudioContext made before one. So sounds are decoded by an OfflineAudioContext (it needs no
//   gesture; an AudioBuffer plays in any context) and the playing context is made inside the
//   first click, key or touch. One-shots asked for before that are dropped rather than queued
//   (they would all burst out at once); loops asked for start then, at their last volume.
// The audio settings are kept like everything else the game keeps (progress_plugin.js).
"use strict";
(function () {
    const AudioContextClass = window.AudioContext || window.webkitAudioContext;
    const OfflineContextClass = window.OfflineAudioContext || window.webkitOfflineAudioContext;
    const LOOP_SMOOTHING_S = 0.05;
    // The decoding context's rate: sounds decode (and are resampled) to it, and are resampled
    // again to the playing context's rate as they play.
    const DECODE_RATE_HZ = 44100;

    let ctx = null; // the playing context, made in the first user gesture
    let decoder = null; // the decoding context
    const buffers = new Map(); // id -> AudioBuffer
    const states = new Map(); // id -> 0 decoding, 1 ready, -1 failed
    const loops = new Map(); // id -> { source, gain }

    const pendingLoops = new Map(); // id -> volume, asked for before the playing context

    function context() {
        return ctx || null;
    }

    function decodingContext() {
        if (decoder === null && OfflineContextClass) {
            try {
                decoder = new OfflineContextClass(1, 1, DECODE_RATE_HZ);
            } catch (e) {
                decoder = undefined;
            }
        }
        return decoder || null;
    }

    function unlock() {
        // Only inside an input that lets a page start sound (not touchstart, for one): a
        // context made outside one starts suspended, with a warning in the console.
        const activation = navigator.userActivation;
        if (activation && !activation.isActive) {
            return;
        }
        if (ctx === null && AudioContextClass) {
            try {
                ctx = new AudioContextClass();
            } catch (e) {
                ctx = undefined;
            }
            pendingLoops.forEach(function (volume, id) {
                set_loop(id, volume);
            });
            pendingLoops.clear();
        }
        const c = context();
        if (c && c.state !== "running") {
            c.resume().catch(function () {});
        }
    }
    // Capture phase on window: runs inside the gesture, before the canvas handlers.
    ["pointerdown", "pointerup", "mousedown", "keydown", "touchend"].forEach(function (type) {
        window.addEventListener(type, unlock, true);
    });

    function available() {
        return AudioContextClass && OfflineContextClass ? 1 : 0;
    }

    function decode(id, ptr, len) {
        const c = decodingContext();
        if (!c) {
            states.set(id, -1);
            return;
        }
        states.set(id, 0);
        // slice() copies: the wasm memory may move or be reused after this call.
        const bytes = wasm_memory.buffer.slice(ptr, ptr + len);
        const ok = function (buffer) {
            buffers.set(id, buffer);
            states.set(id, 1);
        };
        const fail = function (err) {
            console.warn("tether audio: cannot decode sound " + id + ":", err);
            states.set(id, -1);
        };
        try {
            const promise = c.decodeAudioData(bytes, ok, fail);
            if (promise && promise.catch) {
                promise.catch(function () {});
            }
        } catch (e) {
            fail(e);
        }
    }

    function decode_state(id) {
        return states.has(id) ? states.get(id) : -1;
    }

    function play(id, volume) {
        const c = context();
        const buffer = buffers.get(id);
        if (!c || !buffer || c.state !== "running" || !(volume > 0)) {
            return;
        }
        const source = c.createBufferSource();
        const gain = c.createGain();
        source.buffer = buffer;
        gain.gain.value = volume;
        source.connect(gain);
        gain.connect(c.destination);
        source.onended = function () {
            source.disconnect();
            gain.disconnect();
        };
        source.start();
    }

    function set_loop(id, volume) {
        const c = context();
        const buffer = buffers.get(id);
        if (!buffer) {
            return;
        }
        if (!c) {
            pendingLoops.set(id, volume);
            return;
        }
        let entry = loops.get(id);
        if (!entry) {
            const source = c.createBufferSource();
            const gain = c.createGain();
            source.buffer = buffer;
            source.loop = true;
            gain.gain.value = 0;
            source.connect(gain);
            gain.connect(c.destination);
            source.start();
            entry = { source: source, gain: gain };
            loops.set(id, entry);
        }
        const target = volume > 0 ? volume : 0;
        entry.gain.gain.setTargetAtTime(target, c.currentTime, LOOP_SMOOTHING_S);
    }

    function unlocked() {
        return ctx && ctx.state === "running" ? 1 : 0;
    }

    // For the browser console and tests: what the plugin holds right now.
    window.tether_audio_status = function () {
        const decoded = [];
        states.forEach(function (state, id) {
            decoded.push(id + ":" + state);
        });
        return {
            context: ctx ? ctx.state : "none",
            decoded: decoded.join(" "),
            loops: loops.size,
        };
    };

    miniquad_add_plugin({
        register_plugin: function (importObject) {
            importObject.env.tether_audio_available = available;
            importObject.env.tether_audio_decode = decode;
            importObject.env.tether_audio_decode_state = decode_state;
            importObject.env.tether_audio_play = play;
            importObject.env.tether_audio_set_loop = set_loop;
            importObject.env.tether_audio_unlocked = unlocked;
        },
        name: "tether_audio",
        version: 1,
    });
})();
