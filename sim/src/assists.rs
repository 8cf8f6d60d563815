//! Assists (as in Celeste's assist mode, offered without judgement): they change how a run is
//! played, so a replay stores the ones it was played with and the time is shown with them.
//! Only `invincible` changes the simulation; game speed changes the wall-clock pace only (the
//! tick stays fixed), and the aim assist and trajectory preview are front-end help whose effect
//! is already in the recorded aim.

use serde::{Deserialize, Serialize};

/// The slowest game speed offered, and the step between speeds (percent).
pub const MIN_GAME_SPEED_PERCENT: u8 = 50;
pub const GAME_SPEED_STEP_PERCENT: u8 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Assists {
    /// Wall-clock pace, 50..=100 % (the simulation's tick is the same at any speed).
    pub game_speed_percent: u8,
    /// Hazards bounce the player up instead of killing (falling out of the level still does).
    pub invincible: bool,
    /// Aims within a wide angle of a ring are turned onto it.
    pub strong_aim_assist: bool,
    /// While on the rope, shows where a release now would fly.
    pub trajectory_preview: bool,
}

impl Default for Assists {
    fn default() -> Assists {
        Assists {
            game_speed_percent: 100,
            invincible: false,
            strong_aim_assist: false,
            trajectory_preview: false,
        }
    }
}

impl Assists {
    /// Whether any assist is on.
    pub fn any(&self) -> bool {
        *self != Assists::default()
    }

    /// For `skip_serializing_if`: replays without assists keep their old form.
    pub fn is_default(&self) -> bool {
        !self.any()
    }

    /// The speed clamped to 50..=100 and rounded to a whole step (a hand-edited file).
    pub fn sanitised(self) -> Assists {
        let step = GAME_SPEED_STEP_PERCENT as u32;
        let speed = (self.game_speed_percent as u32).clamp(MIN_GAME_SPEED_PERCENT as u32, 100);
        Assists {
            game_speed_percent: ((speed + step / 2) / step * step).min(100) as u8,
            ..self
        }
    }

    /// Moves the game speed by `steps` steps, within 50..=100 %.
    pub fn change_speed(&mut self, steps: i32) {
        let speed = self.game_speed_percent as i32 + steps * GAME_SPEED_STEP_PERCENT as i32;
        self.game_speed_percent = speed.clamp(MIN_GAME_SPEED_PERCENT as i32, 100) as u8;
    }

    /// How fast the clock runs: 1.0 at 100 %.
    pub fn speed_factor(&self) -> f32 {
        self.game_speed_percent as f32 / 100.0
    }

    /// A short list for the HUD and the results ("speed 70%, invincible"); empty without any.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.game_speed_percent != 100 {
            parts.push(format!("speed {}%", self.game_speed_percent));
        }
        if self.invincible {
            parts.push("invincible".to_owned());
        }
        if self.strong_aim_assist {
            parts.push("strong aim assist".to_owned());
        }
        if self.trajectory_preview {
            parts.push("trajectory preview".to_owned());
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_stays_within_its_range_in_whole_steps() {
        let mut a = Assists::default();
        a.change_speed(1);
        assert_eq!(a.game_speed_percent, 100);
        a.change_speed(-3);
        assert_eq!(a.game_speed_percent, 70);
        a.change_speed(-9);
        assert_eq!(a.game_speed_percent, 50);
        let odd = Assists {
            game_speed_percent: 7,
            ..a
        };
        assert_eq!(odd.sanitised().game_speed_percent, 50);
        let odd = Assists {
            game_speed_percent: 74,
            ..a
        };
        assert_eq!(odd.sanitised().game_speed_percent, 70);
        let odd = Assists {
            game_speed_percent: 255,
            ..a
        };
        assert_eq!(odd.sanitised().game_speed_percent, 100);
    }

    #[test]
    fn the_description_lists_what_is_on() {
        assert_eq!(Assists::default().describe(), "");
        assert!(!Assists::default().any());
        let a = Assists {
            game_speed_percent: 50,
            invincible: true,
            ..Assists::default()
        };
        assert_eq!(a.describe(), "speed 50%, invincible");
        assert!(a.any());
    }
}
