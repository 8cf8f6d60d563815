//! Reeling: rope paid in and out through the last segment, whose rest length moves, with a node
//! added or removed when it grows past or shrinks below its bounds.

use super::Rope;
use crate::math::Vec2;

/// Share of a tick's end tension that enters the reel's load (`Rope::reel_load_n`): the load
/// is the tension smoothed over about 1 / 0.15 ≈ 7 ticks (55 ms). Reeling a hanging player in
/// from rest takes them to the reel's speed in one tick, a tension of about 2.2× the rated
/// force for that tick alone, which a winch's inertia carries; a rope held by the level keeps
/// its tension tick after tick, and that stalls the reel.
const REEL_LOAD_SMOOTHING: f32 = 0.15;

/// How far past its length a rope may lie, to where a moving solid carried the player, before
/// a reel that is not reeling in slips and pays the stretch out (`Rope::slipped_payout_m`),
/// metres: the stretch past which the rope's step also takes the level's push-back in over its
/// substeps (`PUSH_BACK_STRETCH_TAKEN_OVER_STEP_M`), so a stretch the rope would not pull in at
/// once is not kept either. 10 Rope Lift's platform rises 2 cm a tick, and the smoothed load
/// (`REEL_LOAD_SMOOTHING`) shows a lift's pull only ticks after it began. docs/rope.md (stop
/// 50) has the thresholds measured.
const REEL_SLIP_STRETCH_M: f32 = 0.04;

impl Rope {
    /// The reel's load, newtons: the tension at the far end, smoothed over a few ticks.
    pub fn reel_load_n(&self) -> f32 {
        self.reel_load_n
    }

    /// Whether the reel stalled this tick: asked to take rope in, it held instead, because
    /// its load exceeded its rated force (for the HUD and the reel's sound).
    pub fn reel_stalled(&self) -> bool {
        self.reel_stalled
    }

    /// Decides this tick's reel before the step, the rope's nodes now lying `measured_m` long
    /// (`measured_length_m`, which the caller has measured for its own stall test). Reeling in
    /// (`wanted_in_m` > 0) stalls when the caller finds the rope `overstretched` already, or
    /// while the load exceeds
    /// `rated_force_n`, as a winch stalls; and a reel stalled by its load is driven back, paying
    /// out (at most `wanted_in_m`) toward the rope's measured length, so the rope holds at the
    /// tension the reel is rated for instead of keeping what it took in before it stalled.
    /// A reel holding or paying out slips under such a pull (`slipped_payout_m`, the player
    /// now at `player_pos`, at most `max_slip_m` a tick). Returns the rope to take in
    /// (negative: paid out).
    pub fn reel_in_within_rating(
        &mut self,
        wanted_in_m: f32,
        rated_force_n: f32,
        overstretched: bool,
        measured_m: f32,
        player_pos: Vec2,
        max_slip_m: f32,
    ) -> f32 {
        let over_rating = self.reel_load_n > rated_force_n;
        self.reel_stalled = wanted_in_m > 0.0 && (overstretched || over_rating);
        if wanted_in_m <= 0.0 {
            return self.slipped_payout_m(
                wanted_in_m,
                over_rating,
                measured_m,
                player_pos,
                max_slip_m,
            );
        }
        if !self.reel_stalled {
            return wanted_in_m;
        }
        if over_rating {
            let stretch_m = (measured_m - self.length_m).max(0.0);
            -stretch_m.min(wanted_in_m)
        } else {
            0.0
        }
    }

    /// The rope to take in (negative: paid out) for a reel asked to hold or pay out
    /// `wanted_in_m` (≤ 0), its nodes lying `measured_m` long. While its load is over its rating, or a moving solid has carried
    /// the player (now at `player_pos`) so that the rope lies more than `REEL_SLIP_STRETCH_M`
    /// past its length, the reel slips as a winch's brake does: it pays the stretch out, at most
    /// `max_slip_m`, or what was asked if that is more. A reel that held instead, its player
    /// carried away by a lift from a hook in the floor, had its rope pulled in against the lift
    /// every step and the lift put the player back: the lift's work went into the rope's nodes
    /// until a coiled rope's chain solve threw them (10 Rope Lift, 9,008.8 J/kg in one tick).
    fn slipped_payout_m(
        &self,
        wanted_in_m: f32,
        over_rating: bool,
        measured_m: f32,
        player_pos: Vec2,
        max_slip_m: f32,
    ) -> f32 {
        let lying_m = self.lying_length_to_m(measured_m, player_pos);
        let stretch_m = (lying_m - self.length_m).max(0.0);
        let carried_away = lying_m > measured_m;
        let slips = over_rating || (carried_away && stretch_m > REEL_SLIP_STRETCH_M);
        if !slips {
            return wanted_in_m;
        }
        wanted_in_m.min(-stretch_m.min(max_slip_m))
    }

    /// The rope's length as its nodes lie (`measured_m` long) with the far end moved to `end`.
    fn lying_length_to_m(&self, measured_m: f32, end: Vec2) -> f32 {
        let last = self.segment_count();
        let before_end = self.nodes[last - 1];
        measured_m - before_end.distance(self.nodes[last]) + before_end.distance(end)
    }

    /// After a step: the tension the last segment carried (the chain solve's impulse on the
    /// far end over the tick, divided by the tick: `tension_n`'s mean pull) enters the load.
    pub(super) fn measure_reel_load(&mut self) {
        let end_tension_n = self.tension_n.last().copied().unwrap_or(0.0);
        self.reel_load_n += (end_tension_n - self.reel_load_n) * REEL_LOAD_SMOOTHING;
    }

    /// Pays rope in or out at the far end for this step's change of length: the last segment
    /// takes it, and a node next to the end is removed when that segment would get shorter than
    /// half a nominal segment, or added when it would get longer than one and a half. Returns
    /// the last segment's rest length at the start of the step, in the new node layout (the
    /// substeps move it to `last_segment_rest_m()`).
    pub(super) fn pay_in_or_out(&mut self) -> f32 {
        let nominal_m = self.nominal_segment_m;
        let full_m = |rope: &Rope| nominal_m * (rope.segment_count() - 1) as f32;
        let mut from_m = self.length_at_step_start_m - full_m(self);
        let mut to_m = self.length_m - full_m(self);
        while to_m < 0.5 * nominal_m && self.segment_count() > 1 {
            self.remove_node(self.segment_count() - 1);
            from_m += nominal_m;
            to_m += nominal_m;
        }
        while to_m > 1.5 * nominal_m && self.segment_count() < self.max_segments {
            // The new node goes on the last segment where the nominal length ends, scaled to
            // the segment as it is now, so a slack segment's slack is shared, not created.
            let fraction = nominal_m / to_m;
            self.insert_node_before_end(fraction);
            from_m -= nominal_m;
            to_m -= nominal_m;
        }
        from_m
    }

    pub(super) fn remove_node(&mut self, i: usize) {
        self.nodes.remove(i);
        self.prev.remove(i);
        self.inv_mass.remove(i);
        self.touching.remove(i);
        self.contact_memory.remove(i);
        self.freed_from_rest.remove(i);
        self.held_back_folds.remove(i);
        self.params.segments = self.segment_count();
    }

    /// Splits the last segment at `fraction` of the way from its first node; the new node's
    /// velocity is interpolated like its position.
    pub(super) fn insert_node_before_end(&mut self, fraction: f32) {
        let last = self.segment_count();
        let at = self.nodes[last - 1].lerp(self.nodes[last], fraction);
        let was = self.prev[last - 1].lerp(self.prev[last], fraction);
        self.nodes.insert(last, at);
        self.prev.insert(last, was);
        self.inv_mass.insert(last, 1.0);
        self.touching.insert(last, false);
        self.contact_memory.insert(last, 0);
        self.freed_from_rest.insert(last, false);
        self.held_back_folds.insert(last, false);
        self.params.segments = self.segment_count();
    }
}
