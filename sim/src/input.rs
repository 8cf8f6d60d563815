//! One tick of player input, as plain data. The front end fills it from devices; replays store it.

use serde::{Deserialize, Serialize};

use super::math::Vec2;

/// Input for one tick. Edge fields (`*_pressed`) are true on the tick a button went down; the front
/// end latches a press that happened between ticks so that none is lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InputFrame {
    /// -1 left, 0, +1 right.
    pub move_x: i8,
    /// Reel in (+1) or out (-1) while attached.
    pub reel: i8,
    pub jump_held: bool,
    pub jump_pressed: bool,
    pub fire_pressed: bool,
    pub release_pressed: bool,
    /// Mouse-wheel notches this tick (+ reels in).
    pub wheel_notches: i8,
    /// Aim as an offset from the player's centre in metres (need not be normalised). Quantised to
    /// 1/64 m by the front end so replays stay compact and exact.
    pub aim_x: f32,
    pub aim_y: f32,
}

impl InputFrame {
    pub fn aim(&self) -> Vec2 {
        Vec2::new(self.aim_x, self.aim_y)
    }

    /// Quantises an aim offset to the grid replays store.
    pub fn quantize_aim(offset_m: Vec2) -> (f32, f32) {
        let q = |v: f32| {
            if v.is_finite() {
                (v.clamp(-1000.0, 1000.0) * 64.0).round() / 64.0
            } else {
                0.0
            }
        };
        (q(offset_m.x), q(offset_m.y))
    }
}
