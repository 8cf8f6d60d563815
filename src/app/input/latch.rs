//! The last step to the simulation's `InputFrame`: presses that happen between two ticks are
//! latched until a tick consumes them, so a quick click is never lost at high frame rates, and
//! one press never fires twice at low ones. Device-free: `play::PlayInput` feeds it actions.

use crate::sim::math::Vec2;
use crate::sim::InputFrame;

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
    /// How the latched fire press aims (the device it came from decides).
    fire_aim: Option<AimKind>,
}

/// Where a shot aims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AimKind {
    /// At the mouse pointer (or a touch).
    Pointer,
    /// Along the held movement keys (8 directions).
    Keys,
    /// Along the right stick.
    Stick,
    /// At the best ring or hookable surface ahead.
    Target,
}

impl InputLatch {
    /// Adds one frame's presses to those waiting for the next tick.
    pub fn latch(&mut self, presses: FramePresses) {
        self.jump_pressed |= presses.jump;
        self.fire_pressed |= presses.fire;
        self.release_pressed |= presses.release;
        if presses.wheel_y != 0.0 && presses.wheel_y.is_finite() {
            // Browsers report pixels, desktops notches: only the sign is portable.
            self.wheel_notches += presses.wheel_y.signum() as i32;
        }
    }

    /// Remembers how the latched fire press aims (the last press of the frame decides).
    pub fn latch_fire_aim(&mut self, aim: AimKind) {
        self.fire_aim = Some(aim);
    }

    /// How the fire press waiting for the next tick aims, if one is waiting.
    pub fn fire_aim(&self) -> Option<AimKind> {
        self.fire_aim.filter(|_| self.fire_pressed)
    }

    /// Forgets latched presses (e.g. after unpausing, so a menu click does not fire the hook).
    pub fn clear(&mut self) {
        *self = InputLatch::default();
    }

    /// The input for the next tick from what is held now and the latched presses, which it
    /// consumes; `aim_offset_m` is the aim relative to the player.
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
        self.fire_aim = None;
        frame
    }
}
