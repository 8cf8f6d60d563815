//! The fixed-tick clock's arithmetic, kept free of the window so tests can drive it: how many
//! ticks a rendered frame runs, and how far between the last two ticks the frame is drawn.

use crate::sim::TICK_DT_S;

/// At most this many ticks run per frame; a slower frame drops time instead of spiralling.
pub const MAX_TICKS_PER_FRAME: u32 = 8;
/// The longest frame time taken into account (a frame after a stall, a tab switch).
pub const MAX_FRAME_TIME_S: f32 = 0.25;

/// Real time not yet simulated.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameClock {
    accumulator_s: f32,
}

impl FrameClock {
    /// Forgets time owed (on a level load: the new level starts from its first tick).
    pub fn reset(&mut self) {
        self.accumulator_s = 0.0;
    }

    /// Adds one frame's duration and returns the ticks to run now. More than
    /// `MAX_TICKS_PER_FRAME` due: runs that many and drops the rest rather than spiral.
    pub fn advance(&mut self, frame_s: f32) -> u32 {
        let frame_s = if frame_s.is_finite() {
            frame_s.clamp(0.0, MAX_FRAME_TIME_S)
        } else {
            0.0
        };
        self.accumulator_s += frame_s;
        let due = (self.accumulator_s / TICK_DT_S) as u32;
        if due > MAX_TICKS_PER_FRAME {
            self.accumulator_s = 0.0;
            MAX_TICKS_PER_FRAME
        } else {
            self.accumulator_s -= due as f32 * TICK_DT_S;
            due
        }
    }

    /// How far from the previous tick to the latest the frame is drawn (0..=1).
    pub fn alpha(&self) -> f32 {
        (self.accumulator_s / TICK_DT_S).clamp(0.0, 1.0)
    }
}
