//! The player's velocity out of a rope step: the solve's position corrections move the player,
//! but only the rope's pull at the velocity level (its reel, its anchor's motion) may speed them
//! up.
//!
//! A position-based solve takes a node's velocity from its displacement, so every correction of
//! a constraint error the step started with (stretch built while the level held the player,
//! rope pushed out of a corner and lengthened) became velocity: a 2 cm correction in one substep
//! of 1/960 s is 19 m/s. Box2D v3 solves its contacts with a bias, then "relaxes" (solves the
//! velocities again without the bias), so position fixes never leave speed behind; split
//! impulses do the same by keeping a separate pseudo-velocity for the position error. Here it
//! is two projections of the player's velocity after the step:
//! - along the rope: the chain solve moves the end node along the last segment alone, so the
//!   player's speed toward the rope may not exceed what a rope of changing length pulled by a
//!   moving anchor gives, or their speed toward it before the step, whichever is more;
//! - in energy: the player leaves the step with no more kinetic plus potential energy than free
//!   flight would have given them, plus what the reel's rated pull does over the rope it took
//!   in (and the anchor's over its motion), plus a small slack.

use super::Rope;
use crate::math::Vec2;

/// The reel's rated pull per kilogram of the player, m/s²: the most work per metre reeled in
/// (or per metre the anchor moves away) the rope may do on the player. It bounds a swing's real
/// tension (weight plus centripetal pull, m (g + v²/R)): 20 m/s on a 2 m rope with
/// g = 40 m/s² needs 240 m/s².
pub const REEL_RATED_ACCEL_M_PER_S2: f32 = 400.0;

/// Slack of the relax pass, speed toward the rope (m/s) and energy (J/kg) on top of what the
/// reel and the anchor explain. The rope weighs 0.8 of the player at full length and hands its
/// own swing on: the 24 solution replays show up to 6 m/s and 60 J/kg of it in a tick (one
/// 1 100 J/kg spike on level 23, gone with `MAX_CONTACT_LEVER`). These slacks leave every
/// solution's bits as they were and still stop the flings (thousands of J/kg); a tighter bound
/// needs the rope's own energy in the account (docs/rope.md).
const RELAX_SLACK_M_PER_S: f32 = 10.0;
const RELAX_SLACK_J_PER_KG: f32 = 100.0;

/// The player as they entered a rope step, and what may pull them during it.
#[derive(Clone, Copy)]
pub(super) struct EndEntry {
    pub(super) pos: Vec2,
    pub(super) vel: Vec2,
    /// Rope taken in this step, metres (negative: paid out).
    pub(super) reeled_in_m: f32,
    /// How far the anchor moved this step.
    pub(super) anchor_moved: Vec2,
    pub(super) gravity: Vec2,
    pub(super) dt_s: f32,
}

impl Rope {
    /// The player's velocity after a step that left them at `at` with velocity `solved`
    /// (their last substep's displacement over its length), relaxed as the module says.
    pub(super) fn relaxed_end_velocity(&self, entry: EndEntry, at: Vec2, solved: Vec2) -> Vec2 {
        let last = self.segment_count();
        let along = self.nodes[last - 1] - at;
        let length_m = along.length();
        if length_m < 1e-6 {
            return solved;
        }
        let toward_rope = along / length_m;
        let anchor_pull_m = entry.anchor_moved.dot(toward_rope).max(0.0);
        let pull_m = entry.reeled_in_m.max(0.0) + anchor_pull_m;
        let pulled_m_per_s = pull_m / entry.dt_s;
        let allowed_m_per_s = entry.vel.dot(toward_rope).max(pulled_m_per_s) + RELAX_SLACK_M_PER_S;
        let inward_m_per_s = solved.dot(toward_rope);
        let mut vel = solved;
        if inward_m_per_s > allowed_m_per_s {
            vel -= toward_rope * (inward_m_per_s - allowed_m_per_s);
        }
        // Energy per kilogram: ½ |v|² − g · x.
        let free_flight_at = entry.pos + entry.vel * entry.dt_s;
        let budget_j_per_kg = 0.5 * entry.vel.length_squared() - entry.gravity.dot(free_flight_at)
            + REEL_RATED_ACCEL_M_PER_S2 * pull_m
            + RELAX_SLACK_J_PER_KG;
        let kinetic_allowed_j_per_kg = budget_j_per_kg + entry.gravity.dot(at);
        let kinetic_j_per_kg = 0.5 * vel.length_squared();
        if kinetic_j_per_kg > kinetic_allowed_j_per_kg {
            let keep = (kinetic_allowed_j_per_kg.max(0.0) / kinetic_j_per_kg).sqrt();
            vel *= keep;
        }
        vel
    }
}
