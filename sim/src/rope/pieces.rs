//! Cutting a rope at a node and joining two (a vine held partway, a vine let go), turning one
//! end for end, and laying a new rope along a bent path.

use super::{Rope, RopeParams};
use crate::math::Vec2;
use crate::tuning::RopeTuning;

/// Slack above the hand at a vine's catch, metres, beyond which the piece keeps it where it
/// hangs (`Rope::fit_length_to_hand`); under it the hand's segment takes it as a stretch that
/// the first chain solve pulls in, as the rope was tuned: the stretch the rope's step takes as
/// its own (`PUSH_BACK_STRETCH_TAKEN_OVER_STEP_M`), so 12 Vines' solution keeps its catches.
const MIN_SLACK_KEPT_ABOVE_HAND_M: f32 = 0.04;

impl Rope {
    /// Splits the rope at node `index` (neither end): the part from the anchor to that node and
    /// the part from it to the far end, each keeping its nodes' motion, so a vine grabbed there
    /// swings on as two ropes (above and below the hand) and `joined` makes it one again.
    pub fn split_at_node(&self, index: usize) -> (Rope, Rope) {
        let index = index.clamp(1, self.segment_count().saturating_sub(1).max(1));
        let upper_m = self.nominal_segment_m * index as f32;
        let upper = self.piece(&self.nodes[..=index], &self.prev[..=index], 1.0, upper_m);
        let lower = self.piece(
            &self.nodes[index..],
            &self.prev[index..],
            self.params.end_mass_ratio,
            (self.length_m - upper_m).max(self.nominal_segment_m * 0.5),
        );
        (upper, lower)
    }

    /// Sets a vine's piece just caught, its end moved to the hand, to the length of the vine up
    /// to the hand when it lies more than `MIN_SLACK_KEPT_ABOVE_HAND_M` slack above the hand:
    /// the inner segments at their rest and the hand's segment as it lies. Otherwise (and never
    /// shorter) as long as its nodes lie, so the piece does not yank the player in. A vine
    /// bunched in a kink above the hand lies slack there (segments shorter than their rest,
    /// which the chain solve leaves alone); fitted to the length its nodes lay, the piece took
    /// that slack out of the hand's segment, whose rest then started 0.86 m shorter than it lay
    /// (12 Vines: pulled in within the first step, the nodes next to the hand at 125 m/s, 984
    /// J/kg). A real vine's slack stays where it hangs.
    pub fn fit_length_to_hand(&mut self) {
        let last = self.segment_count();
        let lying_m = self.measured_length_m();
        let hand_segment_m = self.nodes[last - 1].distance(self.nodes[last]);
        let up_to_hand_m = self.nominal_segment_m * (last - 1) as f32 + hand_segment_m;
        if up_to_hand_m - lying_m > MIN_SLACK_KEPT_ABOVE_HAND_M {
            self.set_length_m(up_to_hand_m);
        } else {
            self.set_length_m(lying_m);
        }
    }

    /// One rope from the two pieces of `split_at_node` (the upper's end is the lower's anchor).
    pub fn joined(upper: &Rope, lower: &Rope) -> Rope {
        let nodes: Vec<Vec2> = upper
            .nodes
            .iter()
            .chain(&lower.nodes[1..])
            .copied()
            .collect();
        let prev: Vec<Vec2> = upper.prev.iter().chain(&lower.prev[1..]).copied().collect();
        upper.piece(
            &nodes,
            &prev,
            lower.params.end_mass_ratio,
            upper.length_m + lower.length_m,
        )
    }

    /// The same rope the other way round: its far end becomes its anchor and its anchor a free
    /// end of one node's mass (a piece of a broken rope, held by the player's hand). Its segments
    /// share its length evenly.
    pub fn reversed(&self) -> Rope {
        let nodes: Vec<Vec2> = self.nodes.iter().rev().copied().collect();
        let prev: Vec<Vec2> = self.prev.iter().rev().copied().collect();
        let mut rope = Rope::from_nodes(
            &nodes,
            RopeParams {
                end_mass_ratio: 1.0,
                ..self.params
            },
        );
        rope.prev.copy_from_slice(&prev);
        rope.length_m = self.length_m;
        rope.length_at_step_start_m = self.length_m;
        rope.nominal_segment_m = self.length_m / rope.segment_count() as f32;
        rope.last_substeps = self.last_substeps;
        rope.step_dt_s = self.step_dt_s;
        rope
    }

    /// A rope along `nodes` moving as `prev` says, with this rope's spacing and limits.
    pub(super) fn piece(
        &self,
        nodes: &[Vec2],
        prev: &[Vec2],
        end_mass_ratio: f32,
        length_m: f32,
    ) -> Rope {
        let mut rope = Rope::from_nodes(
            nodes,
            RopeParams {
                end_mass_ratio,
                ..self.params
            },
        );
        rope.prev.copy_from_slice(prev);
        rope.length_m = length_m;
        rope.length_at_step_start_m = length_m;
        rope.nominal_segment_m = self.nominal_segment_m;
        rope.max_segments = self.max_segments.max(rope.segment_count());
        rope.last_substeps = self.last_substeps;
        rope.step_dt_s = self.step_dt_s;
        rope.carried_body = self.carried_body;
        rope.substeps_by_need = self.substeps_by_need;
        rope.sleeps_when_still = self.sleeps_when_still;
        rope
    }

    /// The game's rope laid along `path` (anchor first, player last), its length the path's,
    /// clamped: for a rope whose straight chord would pass through a solid (the hook flew
    /// around it, or the player moved since firing). Nodes sit along the path by their share of
    /// the rest length, as `Rope::new` puts them along the chord.
    pub fn laid_along(path: &[Vec2], max_length_m: f32, tuning: &RopeTuning) -> Rope {
        let (anchor, player_pos) = (path[0], path[path.len() - 1]);
        let path_m: f32 = path.windows(2).map(|leg| leg[0].distance(leg[1])).sum();
        let length_m = path_m.clamp(tuning.min_length_m, max_length_m);
        let mut rope = Rope::straight_of_length(anchor, player_pos, length_m, max_length_m, tuning);
        let segments = rope.segment_count();
        for i in 1..segments {
            let along_m = (rope.nominal_segment_m * i as f32).min(length_m) * (path_m / length_m);
            let at = point_along(path, along_m);
            rope.nodes[i] = at;
            rope.prev[i] = at;
        }
        rope
    }
}

/// The point `along_m` along the polyline `path` (its last point past the end).
fn point_along(path: &[Vec2], along_m: f32) -> Vec2 {
    let mut left_m = along_m;
    for leg in path.windows(2) {
        let leg_m = leg[0].distance(leg[1]);
        if left_m <= leg_m && leg_m > 0.0 {
            return leg[0].lerp(leg[1], left_m / leg_m);
        }
        left_m -= leg_m;
    }
    path[path.len() - 1]
}
