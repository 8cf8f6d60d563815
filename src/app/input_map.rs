//! Maps keyboard and mouse to the simulation's `InputFrame`. Presses that happen between two
//! ticks are latched until a tick consumes them, so a quick click is never lost at high frame
//! rates, and one press never fires twice at low ones.

use macroquad::input::{
    is_key_down, is_key_pressed, is_mouse_button_pressed, mouse_wheel, KeyCode, MouseButton,
};

use crate::sim::math::Vec2;
use crate::sim::InputFrame;

/// Keys, in one place, for the help text and the handlers.
pub mod keys {
    use macroquad::input::KeyCode;
    pub const LEFT: [KeyCode; 2] = [KeyCode::A, KeyCode::Left];
    pub const RIGHT: [KeyCode; 2] = [KeyCode::D, KeyCode::Right];
    pub const REEL_IN: [KeyCode; 2] = [KeyCode::W, KeyCode::Up];
    pub const REEL_OUT: [KeyCode; 2] = [KeyCode::S, KeyCode::Down];
    pub const JUMP: [KeyCode; 2] = [KeyCode::Space, KeyCode::Z];
    pub const FIRE: [KeyCode; 2] = [KeyCode::K, KeyCode::LeftShift];
    pub const RELEASE: [KeyCode; 2] = [KeyCode::L, KeyCode::X];
    pub const RESTART: KeyCode = KeyCode::R;
    pub const PAUSE: KeyCode = KeyCode::Escape;
    pub const NEXT_LEVEL: KeyCode = KeyCode::N;
    pub const PREV_LEVEL: KeyCode = KeyCode::P;
    pub const MUTE: KeyCode = KeyCode::M;
}

fn any_down(keys: &[KeyCode]) -> bool {
    keys.iter().any(|&k| is_key_down(k))
}
/// Whether any of `keys` went down this frame.
pub fn any_pressed(keys: &[KeyCode]) -> bool {
    keys.iter().any(|&k| is_key_pressed(k))
}

/// The button presses (edges) and wheel movement of one render frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FramePresses {
    pub jump: bool,
    pub fire: bool,
    pub release: bool,
    /// Wheel movement this frame, in the device's units (only its sign is used).
    pub wheel_y: f32,
}

/// What is held down at the moment a tick takes its input.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeldInput {
    pub move_x: i8,
    pub reel: i8,
    pub jump: bool,
}

/// Collects device input over render frames and hands out one `InputFrame` per tick.
#[derive(Default)]
pub struct InputLatch {
    jump_pressed: bool,
    fire_pressed: bool,
    release_pressed: bool,
    wheel_notches: i32,
}

impl InputLatch {
    /// Call once per render frame: remembers edges until the next tick.
    pub fn poll(&mut self) {
        let (_, wheel_y) = mouse_wheel();
        self.latch(FramePresses {
            jump: any_pressed(&keys::JUMP),
            fire: any_pressed(&keys::FIRE) || is_mouse_button_pressed(MouseButton::Left),
            release: any_pressed(&keys::RELEASE) || is_mouse_button_pressed(MouseButton::Right),
            wheel_y,
        });
    }

    /// Adds one frame's presses to those waiting for the next tick (the device-free half of
    /// `poll`).
    pub fn latch(&mut self, presses: FramePresses) {
        self.jump_pressed |= presses.jump;
        self.fire_pressed |= presses.fire;
        self.release_pressed |= presses.release;
        if presses.wheel_y != 0.0 && presses.wheel_y.is_finite() {
            // Browsers report pixels, desktops notches: only the sign is portable.
            self.wheel_notches += presses.wheel_y.signum() as i32;
        }
    }

    /// Forgets latched presses (e.g. after unpausing, so a menu click does not fire the hook).
    pub fn clear(&mut self) {
        *self = InputLatch::default();
    }

    /// The input for the next tick; `aim_offset_m` is the mouse position relative to the player.
    pub fn take(&mut self, aim_offset_m: Vec2) -> InputFrame {
        let axis = |neg: &[KeyCode], pos: &[KeyCode]| any_down(pos) as i8 - any_down(neg) as i8;
        let held = HeldInput {
            move_x: axis(&keys::LEFT, &keys::RIGHT),
            reel: axis(&keys::REEL_OUT, &keys::REEL_IN),
            jump: any_down(&keys::JUMP),
        };
        self.take_with(held, aim_offset_m)
    }

    /// The input for the next tick from what is held now and the latched presses, which it
    /// consumes (the device-free half of `take`).
    pub fn take_with(&mut self, held: HeldInput, aim_offset_m: Vec2) -> InputFrame {
        let (aim_x, aim_y) = InputFrame::quantize_aim(aim_offset_m);
        let frame = InputFrame {
            move_x: held.move_x,
            reel: held.reel,
            jump_held: held.jump,
            jump_pressed: self.jump_pressed,
            fire_pressed: self.fire_pressed,
            release_pressed: self.release_pressed,
            wheel_notches: self.wheel_notches.clamp(-8, 8) as i8,
            aim_x,
            aim_y,
        };
        self.jump_pressed = false;
        self.fire_pressed = false;
        self.release_pressed = false;
        self.wheel_notches = 0;
        frame
    }
}
