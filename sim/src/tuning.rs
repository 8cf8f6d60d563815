//! Every feel constant of the player, hook and rope, with its unit in its name.
//!
//! The values live in `assets/tuning.ron`; this struct only gives them names and types. There is
//! deliberately no `Default`: a missing or malformed tuning file is an error the front end shows,
//! never silently replaced by built-in numbers.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::level::RonError;

/// The simulation's fixed tick rate. Part of the simulation's identity: replays are recorded in
/// ticks, so this is a constant of the code, not a tuning value.
pub const TICKS_PER_SECOND: u32 = 120;
/// Length of one fixed tick.
pub const TICK_DT_S: f32 = 1.0 / TICKS_PER_SECOND as f32;
/// The longest the player may be off the ground, ticks, for landing again to count as a
/// stumble rather than a landing: a swinging, dipping load drops away from under a runner's
/// ground probe for a tick now and then (14 Drawbridge's bridge did every 3 to 6 ticks).
pub const STUMBLE_MAX_AIR_TICKS: u32 = 1;
/// The most a stumble on a moving body may leave the player above the run speed, relative to
/// the body (`Player::take_back_a_stumbles_velocity`). Not zero: the shipped solutions of
/// 14 Drawbridge and 16 Mill Run run across the swinging bridge through stumbles and jump off
/// with up to 5.1 m/s of them (13.1 m/s relative), and their goals depend on it.
pub const STUMBLE_MAX_GAIN_M_PER_S: f32 = 6.0;
/// A landing from a stumble pushes a winch's load along only while the load moves slower than
/// this (`World::land_on_loads`). Not zero for the same solutions: their stumbles pushed the
/// bridge from 2.3 to 7.1 m/s.
pub const STUMBLE_PUSH_MAX_LOAD_M_PER_S: f32 = 6.0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tuning {
    pub player: PlayerTuning,
    pub hook: HookTuning,
    pub rope: RopeTuning,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerTuning {
    /// Half width and half height of the player's box.
    pub half_width_m: f32,
    pub half_height_m: f32,
    pub gravity_m_per_s2: f32,
    /// Gravity is scaled by this near the apex of a held jump (Celeste's half-gravity peak).
    pub apex_gravity_scale: f32,
    /// |vy| below which the apex gravity applies.
    pub apex_threshold_m_per_s: f32,
    pub max_fall_speed_m_per_s: f32,
    pub run_speed_m_per_s: f32,
    pub ground_accel_m_per_s2: f32,
    pub ground_decel_m_per_s2: f32,
    pub air_accel_m_per_s2: f32,
    pub air_decel_m_per_s2: f32,
    pub jump_speed_m_per_s: f32,
    /// While jump is held, gravity is ignored for up to this long after take-off (variable height).
    pub variable_jump_time_s: f32,
    /// Releasing jump early multiplies upward speed by this.
    pub jump_cut_factor: f32,
    pub coyote_time_s: f32,
    pub jump_buffer_time_s: f32,
    /// Minimum |impact speed| for a `Landed` event to be considered a hard landing.
    pub hard_landing_speed_m_per_s: f32,
    /// Surfaces whose normal has an up-component above this count as ground.
    pub ground_normal_min_y: f32,
    /// Share of a wind zone's air velocity the player's running and air-control speed follows
    /// (a 10 m/s wind at 0.4 moves a standing player at 4 m/s).
    pub wind_carry: f32,
    /// How fast the wind brings a swinging or rising player's speed downwind up to the air's,
    /// per second (the player is pushed, never held back, by it).
    pub wind_pull_per_s: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookTuning {
    pub flight_speed_m_per_s: f32,
    /// Speed at which a bounced or missed hook flies back to the player.
    pub retract_speed_m_per_s: f32,
    /// Grapple points within this angle of the aim line are snapped to (aim assist).
    pub aim_assist_angle_deg: f32,
    /// Radius of a grapple point, for the hook's swept test and drawing.
    pub grapple_point_radius_m: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RopeTuning {
    /// Longest rope, unless a level sets its own.
    pub max_length_m: f32,
    pub min_length_m: f32,
    pub reel_speed_m_per_s: f32,
    /// Length change per mouse-wheel notch.
    pub wheel_reel_step_m: f32,
    /// Target distance between rope nodes; the node count follows from the max length.
    pub segment_length_m: f32,
    /// Collision radius and drawn half-width of the rope.
    pub radius_m: f32,
    /// Rope substeps per tick (small steps, one constraint pass each).
    pub substeps: u32,
    /// Mass of the player relative to one rope node.
    pub player_mass_ratio: f32,
    /// The player's mass: with the ratio, it gives the rope's tension in newtons.
    pub player_mass_kg: f32,
    /// Horizontal acceleration from left/right while swinging.
    pub pump_accel_m_per_s2: f32,
    /// Upward speed added when jumping off the rope.
    pub jump_release_boost_m_per_s: f32,
    /// Fraction of node velocity kept per second (air drag on the rope nodes only).
    pub node_damping_per_s: f32,
    /// Wind drag on rope and vine segments: force = this × length × (air speed across it)², in
    /// N·s²/m³ (½ ρ C_d × an effective width, made large enough for wind to read on screen).
    pub wind_drag_n_s2_per_m3: f32,
}

/// A tuning value that would break the simulation; `name` is its path in the file
/// (`player.gravity_m_per_s2`).
#[derive(Clone, Debug, PartialEq)]
pub enum TuningProblem {
    NotPositive {
        name: &'static str,
        value: f32,
    },
    Negative {
        name: &'static str,
        value: f32,
    },
    MinOverMax {
        min_length_m: f32,
        max_length_m: f32,
    },
    Substeps(u32),
    TooManyNodes,
}

impl fmt::Display for TuningProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TuningProblem::NotPositive { name, value } => {
                write!(f, "{name} must be a positive number, got {value}")
            }
            TuningProblem::Negative { name, value } => {
                write!(f, "{name} must be a finite number ≥ 0, got {value}")
            }
            TuningProblem::MinOverMax {
                min_length_m,
                max_length_m,
            } => write!(
                f,
                "rope.min_length_m ({min_length_m}) is longer than rope.max_length_m \
                 ({max_length_m})"
            ),
            TuningProblem::Substeps(substeps) => {
                write!(f, "rope.substeps must be 1..=64, got {substeps}")
            }
            TuningProblem::TooManyNodes => write!(
                f,
                "rope.max_length_m / rope.segment_length_m gives more than 512 nodes"
            ),
        }
    }
}

impl std::error::Error for TuningProblem {}

impl Tuning {
    /// Parses tuning RON. `file` names the source in error messages.
    pub fn from_ron(text: &str, file: &str) -> Result<Tuning, RonError> {
        let tuning: Tuning = RonError::parse(text, file)?;
        tuning.validate().map_err(|problem| RonError {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: problem.to_string(),
        })?;
        Ok(tuning)
    }

    /// Rejects values that would break the simulation (non-finite, non-positive where a size or
    /// speed is meant).
    fn validate(&self) -> Result<(), TuningProblem> {
        let p = &self.player;
        let h = &self.hook;
        let r = &self.rope;
        let positive = [
            ("player.half_width_m", p.half_width_m),
            ("player.half_height_m", p.half_height_m),
            ("player.gravity_m_per_s2", p.gravity_m_per_s2),
            ("player.max_fall_speed_m_per_s", p.max_fall_speed_m_per_s),
            ("player.run_speed_m_per_s", p.run_speed_m_per_s),
            ("player.jump_speed_m_per_s", p.jump_speed_m_per_s),
            ("hook.flight_speed_m_per_s", h.flight_speed_m_per_s),
            ("hook.retract_speed_m_per_s", h.retract_speed_m_per_s),
            ("hook.grapple_point_radius_m", h.grapple_point_radius_m),
            ("rope.max_length_m", r.max_length_m),
            ("rope.min_length_m", r.min_length_m),
            ("rope.segment_length_m", r.segment_length_m),
            ("rope.radius_m", r.radius_m),
            ("rope.player_mass_ratio", r.player_mass_ratio),
            ("rope.player_mass_kg", r.player_mass_kg),
        ];
        for (name, value) in positive {
            if !value.is_finite() || value <= 0.0 {
                return Err(TuningProblem::NotPositive { name, value });
            }
        }
        let non_negative = [
            ("player.apex_gravity_scale", p.apex_gravity_scale),
            ("player.apex_threshold_m_per_s", p.apex_threshold_m_per_s),
            ("player.ground_accel_m_per_s2", p.ground_accel_m_per_s2),
            ("player.ground_decel_m_per_s2", p.ground_decel_m_per_s2),
            ("player.air_accel_m_per_s2", p.air_accel_m_per_s2),
            ("player.air_decel_m_per_s2", p.air_decel_m_per_s2),
            ("player.variable_jump_time_s", p.variable_jump_time_s),
            ("player.jump_cut_factor", p.jump_cut_factor),
            ("player.coyote_time_s", p.coyote_time_s),
            ("player.jump_buffer_time_s", p.jump_buffer_time_s),
            (
                "player.hard_landing_speed_m_per_s",
                p.hard_landing_speed_m_per_s,
            ),
            ("player.ground_normal_min_y", p.ground_normal_min_y),
            ("hook.aim_assist_angle_deg", h.aim_assist_angle_deg),
            ("rope.reel_speed_m_per_s", r.reel_speed_m_per_s),
            ("rope.wheel_reel_step_m", r.wheel_reel_step_m),
            ("rope.pump_accel_m_per_s2", r.pump_accel_m_per_s2),
            (
                "rope.jump_release_boost_m_per_s",
                r.jump_release_boost_m_per_s,
            ),
            ("rope.node_damping_per_s", r.node_damping_per_s),
            ("rope.wind_drag_n_s2_per_m3", r.wind_drag_n_s2_per_m3),
            ("player.wind_carry", p.wind_carry),
            ("player.wind_pull_per_s", p.wind_pull_per_s),
        ];
        for (name, value) in non_negative {
            if !value.is_finite() || value < 0.0 {
                return Err(TuningProblem::Negative { name, value });
            }
        }
        if r.min_length_m > r.max_length_m {
            return Err(TuningProblem::MinOverMax {
                min_length_m: r.min_length_m,
                max_length_m: r.max_length_m,
            });
        }
        if r.substeps == 0 || r.substeps > 64 {
            return Err(TuningProblem::Substeps(r.substeps));
        }
        if r.max_length_m / r.segment_length_m > 512.0 {
            return Err(TuningProblem::TooManyNodes);
        }
        Ok(())
    }

    /// Ticks (rounded down) in a window given in seconds.
    pub fn ticks(seconds: f32) -> u32 {
        (seconds * TICKS_PER_SECOND as f32 + 1e-3) as u32
    }
}
