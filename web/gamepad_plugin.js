// Tether's browser gamepads: a miniquad JS plugin (no wasm-bindgen). The Rust half is src/app/input/pad_web.rs.
//
// - Gamepads: navigator.getGamepads() read once per frame into a flat array of floats in the
//   W3C "standard" order (the game's PadState): [connected, 17 buttons, 4 axes]. Pads without
//   the standard mapping are read by position too (most pads still follow it). All connected
//   pads act as one. Y axes are flipped so up is positive, as on the desktop.
// - Hot-plugging needs nothing special: a pad shows up in getGamepads() after its first button
//   press (the browser's rule) and the state's `connected` count changes.
// The input settings are kept like everything else the game keeps (progress_plugin.js).
"use strict";
(function () {
    const BUTTONS = 17;
    const AXES = 4;
    const STATE_LEN = 1 + BUTTONS + AXES;
    let loggedPads = 0;

    function readPads() {
        const state = new Float32Array(STATE_LEN);
        let pads = [];
        try {
            pads = navigator.getGamepads ? Array.from(navigator.getGamepads() || []) : [];
        } catch (e) {
            pads = [];
        }
        let connected = 0;
        for (const pad of pads) {
            if (!pad || pad.connected === false) {
                continue;
            }
            connected += 1;
            const buttons = pad.buttons || [];
            for (let i = 0; i < BUTTONS && i < buttons.length; i++) {
                const b = buttons[i];
                const value = typeof b === "number" ? b : (b && (b.pressed ? Math.max(b.value || 0, 1) : b.value || 0));
                state[1 + i] = Math.max(state[1 + i], Number(value) || 0);
            }
            const axes = pad.axes || [];
            for (let i = 0; i < AXES && i < axes.length; i++) {
                const v = Number(axes[i]) || 0;
                const value = i % 2 === 1 ? -v : v;
                // The pad pushed furthest wins.
                if (Math.abs(value) > Math.abs(state[1 + BUTTONS + i])) {
                    state[1 + BUTTONS + i] = value;
                }
            }
        }
        state[0] = connected;
        if (connected !== loggedPads) {
            console.log("gamepad: " + connected + " connected");
            loggedPads = connected;
        }
        return state;
    }

    miniquad_add_plugin({
        name: "tether_gamepad",
        version: 1,
        register_plugin: function (importObject) {
            // Writes STATE_LEN floats at `ptr`; returns how many.
            importObject.env.tether_pad_poll = function (ptr) {
                const state = readPads();
                new Float32Array(wasm_memory.buffer, ptr, STATE_LEN).set(state);
                return STATE_LEN;
            };
        },
    });
})();
