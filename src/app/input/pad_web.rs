//! Browser gamepads: `web/gamepad_plugin.js` copies `navigator.getGamepads()` into a float
//! array each frame; the difference from the last frame becomes `PadEvent`s, so the browser
//! takes the same path as gilrs on the desktop.

use super::pad::{PadEvent, PadSource, PadState, PAD_AXIS_COUNT, PAD_BUTTON_COUNT};

const STATE_LEN: usize = 1 + PAD_BUTTON_COUNT + PAD_AXIS_COUNT;

extern "C" {
    // Provided by web/gamepad_plugin.js. Without the plugin the loader stubs these to return 0.
    fn tether_pad_poll(ptr: *mut f32) -> u32;
}

/// The loader checks `<plugin name>_crate_version` against the plugin's version.
#[no_mangle]
pub extern "C" fn tether_gamepad_crate_version() -> u32 {
    1
}

#[derive(Default)]
pub struct WebPads {
    last: PadState,
}

/// The state from the plugin's flat array: [connected, buttons..., axes...].
pub fn state_from_floats(raw: &[f32; STATE_LEN]) -> PadState {
    let mut state = PadState {
        connected: raw[0].clamp(0.0, 255.0) as u8,
        ..PadState::default()
    };
    state.buttons.copy_from_slice(&raw[1..1 + PAD_BUTTON_COUNT]);
    state.axes.copy_from_slice(&raw[1 + PAD_BUTTON_COUNT..]);
    state
}

impl PadSource for WebPads {
    fn poll(&mut self) -> Vec<PadEvent> {
        let mut raw = [0f32; STATE_LEN];
        // SAFETY: the plugin writes exactly STATE_LEN floats into the buffer we own.
        let written = unsafe { tether_pad_poll(raw.as_mut_ptr()) } as usize;
        if written != STATE_LEN {
            return Vec::new();
        }
        let next = state_from_floats(&raw);
        let events = self.last.diff(&next);
        self.last = next;
        events
    }
}
