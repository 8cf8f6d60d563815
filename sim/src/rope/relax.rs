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
//! is one projection of the player's velocity after the step, along the rope: the chain solve
//! moves the end node along the last segment alone, so the player's speed toward the rope may
//! not exceed what a rope of changing length pulled by a moving anchor gives, or their speed
//! toward it before the step, whichever is more. (A second bound, on the player's energy beyond
//! free flight plus the reel's rated work, cut the speed a keyboard player carries from ring to
//! ring on level 3 and was dropped; see docs/rope.md.)

use super::Rope;
use crate::math::Vec2;

/// Slack of the relax pass: speed toward the rope (m/s) on top of what the reel and the anchor
/// explain. The rope weighs 0.8 of the player at full length and hands its own swing on: the 24
/// solution replays show up to 6 m/s of it in a tick. This slack leaves every solution's bits as
/// they were and still stops the flings; a tighter bound needs the rope's own energy in the
/// account (docs/rope.md).
const RELAX_SLACK_M_PER_S: f32 = 10.0;

/// The player as they entered a rope step, and what may pull them during it.
#[derive(Clone, Copy)]
pub(super) struct EndEntry {
    pub(super) vel: Vec2,
    /// Rope taken in this step, metres (negative: paid out).
    pub(super) reeled_in_m: f32,
    /// How far the anchor moved this step.
    pub(super) anchor_moved: Vec2,
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
        vel
    }
}
