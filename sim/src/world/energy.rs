//! The player's energy account, tick by tick: where the player's mechanical energy
//! (½ v² + g y, per kilogram) came from. Each stage of `World::step` that can change the
//! player's motion is credited with the change it made, so a test can tell the energy gravity,
//! the reel, running and jumping, wind and moving solids put in from what the rope's solve (or
//! anything else) added. The player's rope is in the account too: over its step, the potential
//! energy its nodes lose is a credit the rope may hand on to the player, and the kinetic energy
//! they gain is a debit, so the solver's share of the player and rope together is
//! `rope_solver_added_j_per_kg`. Reading only: the account is written beside the state, never read by
//! the step, and left out of the state hash, so keeping it changes no bit of the simulation.

use crate::math::Vec2;
use crate::player::{BodyHandOn, Player};
use crate::rope::{NodeEnergy, Rope, StepCredits};

pub use crate::rope::REEL_RATED_ACCEL_M_PER_S2;

/// One tick's energy account of the player and their rope, in joules per kilogram of the
/// player (so a speed v is ½ v² J/kg). The credits are changes over the tick; the sum of all of
/// them is the change of `mechanical_j_per_kg` (kinetic + potential).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickEnergy {
    /// ½ |v|² of the player at the end of the tick.
    pub kinetic_j_per_kg: f32,
    /// g y of the player at the end of the tick (zero at y = 0).
    pub potential_j_per_kg: f32,
    /// The player's rope's nodes' kinetic energy at the end of the tick, per kilogram of the
    /// player (the anchor and the player's own node left out).
    pub rope_kinetic_j_per_kg: f32,
    /// What gravity's integration changed (≈ −½ g² dt² a tick falling: the step is semi-implicit
    /// Euler; zero standing).
    pub gravity_j_per_kg: f32,
    /// A moving solid carrying the player (`World::carry_player`), and its velocity handed on
    /// as the player leaves it or taken back as they land on it from a stumble
    /// (`Player::move_and_collide`, bounded by `body_hand_on_j_per_kg`).
    pub moving_solids_j_per_kg: f32,
    /// Jumps: off the ground, off the rope (the release boost), buffered on landing.
    pub jump_j_per_kg: f32,
    /// Running, air control and pumping on the rope (and the fall-speed cap, which takes away).
    pub run_and_pump_j_per_kg: f32,
    /// The wind's push on the player.
    pub wind_j_per_kg: f32,
    /// Rope reeled in this tick, metres (negative: paid out).
    pub reeled_in_m: f32,
    /// The most the reel may have put in: its rated pull (`REEL_RATED_ACCEL_M_PER_S2`,
    /// per kilogram of the player) over the rope it reeled in.
    pub reel_rated_j_per_kg: f32,
    /// The most the reel may have added to bring the player's speed toward the rope up to the
    /// reel's (a reel starting from rest; `rope::StepCredits`).
    pub reel_start_j_per_kg: f32,
    /// The most a moving anchor may have put into the player (`rope::StepCredits`).
    pub anchor_j_per_kg: f32,
    /// Potential energy the player's rope's nodes lost over the rope's step (the nodes it kept
    /// through the step: a node reeled in or paid out is the reel's), per kilogram of the
    /// player.
    pub rope_gravity_j_per_kg: f32,
    /// Kinetic energy the same nodes gained over the rope's step.
    pub rope_kinetic_gain_j_per_kg: f32,
    /// The wind's change of the rope's nodes' kinetic energy, before the step.
    pub rope_wind_j_per_kg: f32,
    /// What the rope's step and the player's collision with the level did to the player's
    /// motion beyond gravity's free flight: the solve's position corrections turned into
    /// velocity and height, the reel's pull, and the level taking speed away.
    pub rope_j_per_kg: f32,
    /// The player's move through the level with no rope (a moving solid's push, a landing's
    /// loss), beyond gravity's free flight.
    pub free_move_j_per_kg: f32,
    /// Everything else (vines, getting out of solids, hazards' bounces, respawning).
    pub other_j_per_kg: f32,
}

impl TickEnergy {
    /// Kinetic plus potential, J/kg, at the end of the tick.
    pub fn mechanical_j_per_kg(&self) -> f32 {
        self.kinetic_j_per_kg + self.potential_j_per_kg
    }

    /// What the rope's step put into the player beyond what the reel's rated pull explains,
    /// J/kg (negative when it took energy away, as a taut rope's collision with the level does).
    pub fn solver_added_j_per_kg(&self) -> f32 {
        self.rope_j_per_kg - self.reel_rated_j_per_kg
    }

    /// What the rope's step put into the player and their rope together beyond the reel (its
    /// rated pull, and its start from rest) and a moving anchor, J/kg of the player: the rope's
    /// fall may pay for the player's gain, and what the rope gains itself is counted against
    /// the step.
    pub fn rope_solver_added_j_per_kg(&self) -> f32 {
        self.rope_j_per_kg + self.rope_kinetic_gain_j_per_kg
            - self.rope_gravity_j_per_kg
            - self.reel_rated_j_per_kg
            - self.reel_start_j_per_kg
            - self.anchor_j_per_kg
    }

    /// Energy put in this tick that nothing in the game's rules explains: the rope's excess
    /// plus the unexplained rest, J/kg (only what was added counts).
    pub fn unexplained_j_per_kg(&self) -> f32 {
        self.solver_added_j_per_kg().max(0.0) + self.other_j_per_kg.max(0.0)
    }
}

/// Which credit of the account a stage's change goes to.
#[derive(Clone, Copy)]
pub(crate) enum Credit {
    MovingSolids,
    Jump,
    Other,
}

/// Keeps the account while a tick runs: the player's mechanical energy at the last mark, and
/// the credits so far.
pub(crate) struct EnergyMeter {
    gravity_m_per_s2: f32,
    mark_j_per_kg: f32,
    pub(crate) account: TickEnergy,
}

impl EnergyMeter {
    pub(crate) fn start(player: &Player, gravity_m_per_s2: f32) -> EnergyMeter {
        EnergyMeter {
            gravity_m_per_s2,
            mark_j_per_kg: mechanical_j_per_kg(player.pos, player.vel, gravity_m_per_s2),
            account: TickEnergy::default(),
        }
    }

    fn now_j_per_kg(&self, player: &Player) -> f32 {
        mechanical_j_per_kg(player.pos, player.vel, self.gravity_m_per_s2)
    }

    /// Credits the change since the last mark to `credit`, and marks.
    pub(crate) fn credit(&mut self, player: &Player, credit: Credit) {
        let now = self.now_j_per_kg(player);
        let change = now - self.mark_j_per_kg;
        self.mark_j_per_kg = now;
        let a = &mut self.account;
        match credit {
            Credit::MovingSolids => a.moving_solids_j_per_kg += change,
            Credit::Jump => a.jump_j_per_kg += change,
            Credit::Other => a.other_j_per_kg += change,
        }
    }

    /// The player's velocity stage (gravity, running or pumping, wind) took the velocity from
    /// `before` to the player's now, of which `wind_m_per_s` was the wind's doing. Gravity's
    /// share is what its free flight over `dt_s` gives back in height (its kinetic gain is
    /// `½|v|²` − `½|before|²` with only gravity acting); the rest is the inputs'. Call before
    /// `moved`, which settles the height.
    pub(crate) fn velocity_stage(&mut self, player: &Player, before: Vec2, wind_m_per_s: Vec2) {
        let g = self.gravity_m_per_s2;
        let after = player.vel;
        let without_wind = after - wind_m_per_s;
        let a = &mut self.account;
        a.wind_j_per_kg += 0.5 * (after.length_squared() - without_wind.length_squared());
        let gravity_only = before - Vec2::new(0.0, g * crate::tuning::TICK_DT_S);
        let vertical_after = if player.grounded && before.y <= 0.0 {
            // On the ground there is no gravity step (`Player::apply_run_and_gravity`).
            before
        } else {
            gravity_only
        };
        let gravity_kinetic = 0.5 * (vertical_after.length_squared() - before.length_squared());
        a.gravity_j_per_kg += gravity_kinetic;
        a.run_and_pump_j_per_kg +=
            0.5 * (without_wind.length_squared() - before.length_squared()) - gravity_kinetic;
        self.mark_j_per_kg = self.now_j_per_kg(player);
    }

    /// The player was moved with `free_velocity` (the rope's step and the move through the
    /// level): gravity is credited the height free flight would have given (g v_y dt), a moving
    /// body's `hand_on` the moving solids (`body_hand_on_j_per_kg`), the rope and the level the
    /// rest.
    pub(crate) fn moved(
        &mut self,
        player: &Player,
        free_velocity: Vec2,
        hand_on: Option<BodyHandOn>,
        dt_s: f32,
    ) {
        let rest = self.moved_beyond_free_flight(player, free_velocity, hand_on, dt_s);
        self.account.rope_j_per_kg += rest;
    }

    /// `moved` for a player with no rope: the rest is the move's.
    pub(crate) fn moved_without_rope(
        &mut self,
        player: &Player,
        free_velocity: Vec2,
        hand_on: Option<BodyHandOn>,
        dt_s: f32,
    ) {
        let rest = self.moved_beyond_free_flight(player, free_velocity, hand_on, dt_s);
        self.account.free_move_j_per_kg += rest;
    }

    /// Credits gravity's free flight and a moving body's hand-on over the player's move, marks,
    /// and returns the rest of the move's change.
    fn moved_beyond_free_flight(
        &mut self,
        player: &Player,
        free_velocity: Vec2,
        hand_on: Option<BodyHandOn>,
        dt_s: f32,
    ) -> f32 {
        let g = self.gravity_m_per_s2;
        let free_flight = g * free_velocity.y * dt_s;
        let solid = hand_on.map_or(0.0, |h| body_hand_on_j_per_kg(h, free_velocity));
        let now = self.now_j_per_kg(player);
        self.account.gravity_j_per_kg += free_flight;
        self.account.moving_solids_j_per_kg += solid;
        let rest = now - self.mark_j_per_kg - free_flight - solid;
        self.mark_j_per_kg = now;
        rest
    }

    /// The rope reeled in `reeled_in_m` this tick (negative: paid out).
    pub(crate) fn reeled(&mut self, reeled_in_m: f32) {
        self.account.reeled_in_m += reeled_in_m;
        self.account.reel_rated_j_per_kg += REEL_RATED_ACCEL_M_PER_S2 * reeled_in_m.max(0.0);
    }

    /// The wind took the rope's nodes from `calm` to `blown` (before the rope's step).
    pub(crate) fn rope_blown(&mut self, calm: &[NodeEnergy], blown: &[NodeEnergy]) {
        self.account.rope_wind_j_per_kg += kinetic_sum(blown) - kinetic_sum(calm);
    }

    /// The rope's step took its nodes from `before` to `after` (both from
    /// `Rope::node_energies`) with the budget's `credits`. Reeling adds or removes nodes next
    /// to the player only, so the nodes the step kept are the first of both lists.
    pub(crate) fn rope_stepped(
        &mut self,
        before: &[NodeEnergy],
        after: &[NodeEnergy],
        credits: StepCredits,
    ) {
        let kept = before.len().min(after.len());
        let (before, after) = (&before[..kept], &after[..kept]);
        let a = &mut self.account;
        a.rope_kinetic_gain_j_per_kg += kinetic_sum(after) - kinetic_sum(before);
        a.rope_gravity_j_per_kg += potential_sum(before) - potential_sum(after);
        a.reel_start_j_per_kg += credits.reel_start_j_per_kg;
        a.anchor_j_per_kg += credits.anchor_j_per_kg;
    }

    /// Closes the tick: the last changes go to `Other`, and the end state is written down.
    pub(crate) fn finish(mut self, player: &Player, rope: Option<&Rope>) -> TickEnergy {
        self.credit(player, Credit::Other);
        let g = self.gravity_m_per_s2;
        let a = &mut self.account;
        a.kinetic_j_per_kg = 0.5 * player.vel.length_squared();
        a.potential_j_per_kg = g * player.pos.y;
        a.rope_kinetic_j_per_kg = rope.map_or(0.0, rope_kinetic_j_per_kg);
        self.account
    }
}

/// What a moving body's `hand_on` is credited, J/kg: the change it made to ½|v|², but a gain
/// at most what handing the same velocity on to the player's velocity before the move
/// (`brought_m_per_s`: running on the body, before the rope's step) would have made. A player
/// carried by a body keeps their velocity relative to it, so leaving hands on the body's
/// velocity u and adds v·u + ½|u|²; the v the rope's step gave in the same tick must not grow
/// the body's share, so the rope keeps that part. A loss (a stumble's velocity taken back) is
/// the body's as it is.
fn body_hand_on_j_per_kg(hand_on: BodyHandOn, brought_m_per_s: Vec2) -> f32 {
    let BodyHandOn {
        before_m_per_s,
        after_m_per_s,
    } = hand_on;
    let made = 0.5 * (after_m_per_s.length_squared() - before_m_per_s.length_squared());
    if made <= 0.0 {
        return made;
    }
    let body_m_per_s = after_m_per_s - before_m_per_s;
    let brought_after = brought_m_per_s + body_m_per_s;
    let from_brought = 0.5 * (brought_after.length_squared() - brought_m_per_s.length_squared());
    made.min(from_brought.max(0.0))
}

fn kinetic_sum(nodes: &[NodeEnergy]) -> f32 {
    nodes.iter().map(|n| n.kinetic_j_per_kg).sum()
}

fn potential_sum(nodes: &[NodeEnergy]) -> f32 {
    nodes.iter().map(|n| n.potential_j_per_kg).sum()
}

/// ½ |v|² + g y.
fn mechanical_j_per_kg(pos: Vec2, vel: Vec2, gravity_m_per_s2: f32) -> f32 {
    0.5 * vel.length_squared() + gravity_m_per_s2 * pos.y
}

/// The rope's nodes' kinetic energy (anchor and player left out) per kilogram of the player.
fn rope_kinetic_j_per_kg(rope: &Rope) -> f32 {
    let last = rope.segment_count();
    let node_share = 1.0 / rope.params().end_mass_ratio.max(1e-3);
    let sum_sq: f32 = (1..last)
        .map(|i| rope.node_velocity(i).length_squared())
        .sum();
    0.5 * sum_sq * node_share
}
