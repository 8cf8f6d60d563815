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
//! is two passes over the player's velocity after the step:
//! - along the rope: the chain solve moves the end node along the last segment alone, so the
//!   player's speed toward the rope may not exceed what a rope of changing length pulled by a
//!   moving anchor gives, or their speed toward it before the step, whichever is more;
//! - an energy budget: the player's and the rope's mechanical energy together (kinetic plus
//!   potential, per kilogram of the player) may leave the step no higher than it entered, plus
//!   the player's free flight, plus the reel's rated pull over the rope it took in (and, on a
//!   reel's first tick, bringing the player up to the reel's speed) and the anchor's motion
//!   toward the player. The rope's own swing handed on to the player is paid
//!   for by the rope's energy, so it passes; a corner that turns 7 m/s of reel into 30 m/s of
//!   player (a pulley at a grazing angle) does not. The excess comes off the velocity the
//!   step added to the player.

use super::{Rope, REEL_RATED_ACCEL_M_PER_S2};
use crate::math::Vec2;

/// Slack of the relax pass: speed toward the rope (m/s) on top of what the reel and the anchor
/// explain. The rope weighs 0.8 of the player at full length and hands its own swing on: the 24
/// solution replays show up to 6 m/s of it in a tick.
const RELAX_SLACK_M_PER_S: f32 = 10.0;

/// Energy a rope step may add to the player and rope beyond its budget, J/kg of the player: the
/// integration's own error (a player held still by the rope ends each tick ½ g² dt² = 0.06 J/kg
/// above it) and the nodes reeling adds.
pub(crate) const STEP_ENERGY_SLACK_J_PER_KG: f32 = 1.0;

/// The player as they entered a rope step, and what may pull them during it.
#[derive(Clone, Copy)]
pub(super) struct EndEntry {
    pub(super) pos: Vec2,
    pub(super) vel: Vec2,
    /// Rope taken in this step, metres (negative: paid out).
    pub(super) reeled_in_m: f32,
    /// How far the anchor moved this step.
    pub(super) anchor_moved: Vec2,
    pub(super) dt_s: f32,
    pub(super) gravity: Vec2,
    /// The rope's nodes' kinetic plus potential energy, per kilogram of the player.
    pub(super) rope_energy_j_per_kg: f32,
}

/// What a rope step may have put into the player from the game's real sources, J/kg of the
/// player: the credits of its energy budget, kept for the energy account (`World::energy`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepCredits {
    /// The reel's rated pull over the rope it took in.
    pub reel_rated_j_per_kg: f32,
    /// Bringing the player's speed toward the rope up to the reel's, when it was slower (a
    /// reel starting from rest).
    pub reel_start_j_per_kg: f32,
    /// A moving anchor's pull (`anchor_work_j_per_kg`).
    pub anchor_j_per_kg: f32,
}

/// One rope node's energy at the end of a step, J/kg of the player (weighted by the node's
/// mass against the player's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NodeEnergy {
    pub kinetic_j_per_kg: f32,
    /// g times the node's height (zero at y = 0).
    pub potential_j_per_kg: f32,
}

/// Kinetic plus potential energy per kilogram of a point at `pos` moving at `vel`.
fn mechanical_j_per_kg(pos: Vec2, vel: Vec2, gravity: Vec2) -> f32 {
    0.5 * vel.length_squared() - gravity.dot(pos)
}

impl Rope {
    /// The rope's free nodes' kinetic and potential energy, per kilogram of the far end (the
    /// anchor and the end left out; each node weighted by its mass against the end's).
    pub(super) fn nodes_energy_j_per_kg(&self, gravity: Vec2) -> f32 {
        let last = self.segment_count();
        let per_s = self.last_substeps as f32 / self.step_dt_s.max(1e-6);
        let end_w = self.inv_mass[last];
        let mut sum = 0.0;
        for i in 1..last {
            let w = self.inv_mass[i];
            if w <= 0.0 {
                continue;
            }
            let vel = (self.nodes[i] - self.prev[i]) * per_s;
            sum += end_w / w * mechanical_j_per_kg(self.nodes[i], vel, gravity);
        }
        sum
    }

    /// Each free node's energy (the anchor and the end left out), in node order from the
    /// anchor, per kilogram of the far end: for the energy account, which compares the nodes
    /// the rope kept across a step.
    pub fn node_energies(&self, gravity: Vec2) -> Vec<NodeEnergy> {
        let last = self.segment_count();
        let end_w = self.inv_mass[last];
        (1..last)
            .map(|i| {
                let w = self.inv_mass[i];
                let share = if w > 0.0 { end_w / w } else { 0.0 };
                let vel = self.node_velocity(i);
                NodeEnergy {
                    kinetic_j_per_kg: share * 0.5 * vel.length_squared(),
                    potential_j_per_kg: -share * gravity.dot(self.nodes[i]),
                }
            })
            .collect()
    }

    /// The player's velocity after a step that left them at `at` with velocity `solved`
    /// (their last substep's displacement over its length), relaxed as the module says; and
    /// the budget's credits.
    pub(super) fn relaxed_end_velocity(
        &self,
        entry: EndEntry,
        at: Vec2,
        solved: Vec2,
    ) -> (Vec2, StepCredits) {
        let last = self.segment_count();
        let along = self.nodes[last - 1] - at;
        let length_m = along.length();
        if length_m < 1e-6 {
            return (solved, StepCredits::default());
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
        // The rope's energy may pay for the player's gain, but what the rope gains itself (the
        // player dragging it, a moving solid pushing it) is no debt of the player's.
        let rope_gave_j_per_kg =
            (entry.rope_energy_j_per_kg - self.nodes_energy_j_per_kg(entry.gravity)).max(0.0);
        let credits = StepCredits {
            reel_rated_j_per_kg: REEL_RATED_ACCEL_M_PER_S2 * entry.reeled_in_m.max(0.0),
            reel_start_j_per_kg: reel_start_j_per_kg(entry, toward_rope),
            anchor_j_per_kg: anchor_work_j_per_kg(entry),
        };
        let budget_j_per_kg = mechanical_j_per_kg(entry.pos, entry.vel, entry.gravity)
            - entry.gravity.dot(entry.vel) * entry.dt_s
            + rope_gave_j_per_kg
            + credits.reel_rated_j_per_kg
            + credits.reel_start_j_per_kg
            + credits.anchor_j_per_kg
            + STEP_ENERGY_SLACK_J_PER_KG;
        let excess_j_per_kg = mechanical_j_per_kg(at, vel, entry.gravity) - budget_j_per_kg;
        if excess_j_per_kg > 0.0 {
            vel = take_energy_off(vel, entry.vel, excess_j_per_kg);
        }
        (vel, credits)
    }
}

/// What the reel may give on top of its rated pull, J/kg: the game's reel is a winch that
/// reaches its speed within a tick (a player at rest leaves at 7 m/s on the first tick, which
/// takes 840 m/s², twice the rating), so a player slower toward the rope than this step's reel
/// may be brought up to it: ½ (v_reel² − v_toward²). A player already coming in at the reel's
/// speed gets nothing more; this was once credited in full on every reeling tick, 24.5 J/kg a
/// tick that a fast swing turned into speed.
fn reel_start_j_per_kg(entry: EndEntry, toward_rope: Vec2) -> f32 {
    let reel_m_per_s = entry.reeled_in_m.max(0.0) / entry.dt_s;
    let toward_m_per_s = entry.vel.dot(toward_rope).clamp(0.0, reel_m_per_s);
    0.5 * (reel_m_per_s * reel_m_per_s - toward_m_per_s * toward_m_per_s)
}

/// The most a moving anchor may have put into the player this step, J/kg: a moving solid
/// is a real source of energy, and at most it adds its own speed to the player's (as a hand
/// yanking the rope would).
fn anchor_work_j_per_kg(entry: EndEntry) -> f32 {
    let anchor_m_per_s = entry.anchor_moved.length() / entry.dt_s;
    let entry_m_per_s = entry.vel.length();
    let most_m_per_s = entry_m_per_s + anchor_m_per_s;
    0.5 * (most_m_per_s * most_m_per_s - entry_m_per_s * entry_m_per_s)
}

/// `vel` with `excess_j_per_kg` of kinetic energy (per kilogram) taken off: first from what
/// the step added to `entry_vel` (the rope's kick), so the swing and fall the player brought in
/// are kept; then, if that was not enough, from the whole velocity.
fn take_energy_off(vel: Vec2, entry_vel: Vec2, excess_j_per_kg: f32) -> Vec2 {
    let added = vel - entry_vel;
    let added_sq = added.length_squared();
    let mut out = vel;
    let mut left_j_per_kg = excess_j_per_kg;
    let along = vel.dot(added);
    if added_sq > 1e-12 && along > 0.0 {
        // Kinetic energy taken off by going back a fraction `a` of the way to `entry_vel`:
        // a (v·d) − ½ a² |d|², most at a = (v·d)/|d|² (at most 1).
        let a_most = (along / added_sq).min(1.0);
        let most_j_per_kg = a_most * along - 0.5 * a_most * a_most * added_sq;
        let a = if most_j_per_kg <= left_j_per_kg {
            a_most
        } else {
            // The smaller root of ½|d|² a² − (v·d) a + excess = 0.
            let disc = (along * along - 2.0 * added_sq * left_j_per_kg).max(0.0);
            (along - disc.sqrt()) / added_sq
        };
        out = vel - added * a;
        left_j_per_kg -= a * along - 0.5 * a * a * added_sq;
    }
    if left_j_per_kg > 0.0 {
        let kinetic = 0.5 * out.length_squared();
        let scale = if kinetic > left_j_per_kg {
            ((kinetic - left_j_per_kg) / kinetic).sqrt()
        } else {
            0.0
        };
        out *= scale;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reeling tick of the game: 7 m/s of rope taken in over a tick of 1/60 s.
    fn reeling_entry(vel: Vec2) -> EndEntry {
        let dt_s = 1.0 / 60.0;
        EndEntry {
            pos: Vec2::ZERO,
            vel,
            reeled_in_m: 7.0 * dt_s,
            anchor_moved: Vec2::ZERO,
            dt_s,
            gravity: Vec2::new(0.0, -9.81),
            rope_energy_j_per_kg: 0.0,
        }
    }

    /// The budget once credited the reel speed's kinetic energy, ½ (7 m/s)² = 24.5 J/kg, on
    /// every reeling tick, and a fast swing turned it into speed: only a player slower toward
    /// the rope than the reel may be brought up to it.
    #[test]
    fn the_reel_start_credit_is_only_what_brings_the_player_up_to_the_reels_speed() {
        let toward_rope = Vec2::new(0.0, 1.0);
        let from_rest = reel_start_j_per_kg(reeling_entry(Vec2::ZERO), toward_rope);
        assert!(
            (from_rest - 24.5).abs() < 1e-3,
            "from rest: {from_rest} J/kg"
        );
        let halfway = reel_start_j_per_kg(reeling_entry(toward_rope * 3.5), toward_rope);
        assert!(
            (halfway - 18.375).abs() < 1e-3,
            "at 3.5 m/s: {halfway} J/kg"
        );
        for vel in [toward_rope * 7.0, toward_rope * 20.0, Vec2::new(15.0, 7.0)] {
            let credit = reel_start_j_per_kg(reeling_entry(vel), toward_rope);
            assert!(credit.abs() < 1e-3, "at {vel:?}: {credit} J/kg");
        }
    }
}
