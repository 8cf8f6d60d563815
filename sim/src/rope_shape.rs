//! Measures of how a rope *looks*, taken on the simulated nodes (not on the drawing): the
//! polyline crossing itself (a knot or a loop) and sharp folds at joints that nothing presses
//! on. A real rope drapes in smooth curves; a chain of point masses that can push folds into
//! node-sized zigzags instead. Tests, `rope_stats` and the benches use these to keep it honest.

use super::math::Vec2;
use super::replay::Replay;
use super::world::World;

/// A joint bent by more than this, away from any contact, is a fold no real rope makes.
pub const MAX_FREE_BEND_DEG: f32 = 90.0;
/// Segments shorter than this fraction of the rope's nominal segment are skipped when measuring
/// a joint's bend: their direction is noise. The bend is taken between the nearest longer
/// segments on each side instead, so a fold hidden behind a collapsed segment still counts.
const DEGENERATE_SEGMENT_FRACTION: f32 = 0.05;

/// The shape of a rope at one instant.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RopeShape {
    /// Pairs of non-adjacent segments of the polyline that intersect.
    pub self_crossings: usize,
    /// The sharpest bend, in degrees (0 = straight, 180 = folded back), at a joint whose node
    /// and both neighbours touch nothing.
    pub sharpest_free_bend_deg: f32,
}

/// Measures `nodes` (anchor first); `touching[i]` says whether node `i` is in contact with the
/// level, and `nominal_segment_m` is the rope's usual segment length.
pub fn measure(nodes: &[Vec2], touching: &[bool], nominal_segment_m: f32) -> RopeShape {
    RopeShape {
        self_crossings: self_crossings(nodes),
        sharpest_free_bend_deg: sharpest_free_bend_deg(nodes, touching, nominal_segment_m),
    }
}

/// Number of pairs of non-adjacent segments that intersect (touching counts). O(N²): fine for
/// measurement, never called by the simulation itself.
pub fn self_crossings(nodes: &[Vec2]) -> usize {
    let segments = nodes.len().saturating_sub(1);
    let mut count = 0;
    for i in 0..segments {
        let (a, b) = (nodes[i], nodes[i + 1]);
        for j in i + 2..segments {
            if segments_intersect(a, b, nodes[j], nodes[j + 1]) {
                count += 1;
            }
        }
    }
    count
}

/// The sharpest bend at a free joint, in degrees; 0 for a rope with no free joint.
pub fn sharpest_free_bend_deg(nodes: &[Vec2], touching: &[bool], nominal_segment_m: f32) -> f32 {
    let min_len = nominal_segment_m * DEGENERATE_SEGMENT_FRACTION;
    let n = nodes.len();
    let mut sharpest = 0.0f32;
    for i in 1..n.saturating_sub(1) {
        if touching[i - 1] || touching[i] || touching[i + 1] {
            continue;
        }
        let after = nodes[i + 1] - nodes[i];
        if after.length() < min_len {
            continue;
        }
        // The direction into the joint: the nearest segment before it that is not collapsed.
        let Some(before) = (1..=i)
            .rev()
            .map(|k| nodes[k] - nodes[k - 1])
            .find(|d| d.length() >= min_len)
        else {
            continue;
        };
        let cos = (before.dot(after) / (before.length() * after.length())).clamp(-1.0, 1.0);
        sharpest = sharpest.max(libm::acosf(cos).to_degrees());
    }
    sharpest
}

/// Whether segments `ab` and `cd` share a point (orientation tests, with the collinear cases).
fn segments_intersect(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        return true;
    }
    (o1 == 0.0 && on_segment(a, b, c))
        || (o2 == 0.0 && on_segment(a, b, d))
        || (o3 == 0.0 && on_segment(c, d, a))
        || (o4 == 0.0 && on_segment(c, d, b))
}

fn orient(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (b - a).perp_dot(c - a)
}

/// For `p` collinear with `ab`: whether it lies within the segment's bounding box.
fn on_segment(a: Vec2, b: Vec2, p: Vec2) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// Per-tick shape measurements gathered over a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShapeTally {
    /// Ticks on which a rope existed.
    pub rope_ticks: usize,
    /// Rope ticks with at least one self-crossing.
    pub ticks_crossing: usize,
    /// Most crossings at once.
    pub max_crossings: usize,
    /// Rope ticks with a free bend over `MAX_FREE_BEND_DEG`.
    pub ticks_sharp_bend: usize,
    /// Sharpest free bend seen, in degrees.
    pub sharpest_bend_deg: f32,
}

impl ShapeTally {
    pub fn add(&mut self, shape: RopeShape) {
        self.rope_ticks += 1;
        self.ticks_crossing += (shape.self_crossings > 0) as usize;
        self.max_crossings = self.max_crossings.max(shape.self_crossings);
        self.ticks_sharp_bend += (shape.sharpest_free_bend_deg > MAX_FREE_BEND_DEG) as usize;
        self.sharpest_bend_deg = self.sharpest_bend_deg.max(shape.sharpest_free_bend_deg);
    }

    pub fn merge(&mut self, other: &ShapeTally) {
        self.rope_ticks += other.rope_ticks;
        self.ticks_crossing += other.ticks_crossing;
        self.max_crossings = self.max_crossings.max(other.max_crossings);
        self.ticks_sharp_bend += other.ticks_sharp_bend;
        self.sharpest_bend_deg = self.sharpest_bend_deg.max(other.sharpest_bend_deg);
    }

    /// Percentage of rope ticks with a self-crossing.
    pub fn crossing_pct(&self) -> f32 {
        pct(self.ticks_crossing, self.rope_ticks)
    }

    /// Percentage of rope ticks with a free bend over `MAX_FREE_BEND_DEG`.
    pub fn sharp_bend_pct(&self) -> f32 {
        pct(self.ticks_sharp_bend, self.rope_ticks)
    }
}

fn pct(count: usize, total: usize) -> f32 {
    if total == 0 {
        0.0
    } else {
        100.0 * count as f32 / total as f32
    }
}

/// Runs `replay` on `world` and measures the player's rope after every tick that has one:
/// `(tick, shape)` in tick order.
pub fn measure_replay(replay: &Replay, world: &mut World) -> Vec<(u64, RopeShape)> {
    let mut shapes = Vec::new();
    for input in replay.frames() {
        if world.is_completed() {
            break;
        }
        world.step(input);
        if let Some(rope) = world.rope() {
            shapes.push((
                world.tick,
                measure(&rope.nodes, rope.touching(), rope.nominal_segment_m()),
            ));
        }
    }
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn a_straight_rope_has_no_crossing_and_no_bend() {
        let nodes: Vec<Vec2> = (0..10).map(|i| v(i as f32 * 0.3, 0.0)).collect();
        let shape = measure(&nodes, &[false; 10], 0.3);
        assert_eq!(shape, RopeShape::default());
    }

    #[test]
    fn a_loop_crosses_once_and_a_fold_bends_180() {
        // Right, up, left, down past the start: the last segment crosses the first.
        let looped = [
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(0.5, 1.0),
            v(0.5, -1.0),
        ];
        assert_eq!(self_crossings(&looped), 1);
        let folded = [v(0.0, 0.0), v(1.0, 0.0), v(0.2, 0.0)];
        let bend = sharpest_free_bend_deg(&folded, &[false; 3], 1.0);
        assert!((bend - 180.0).abs() < 1e-3, "{bend}");
    }

    #[test]
    fn a_bend_against_a_contact_is_not_free() {
        let nodes = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)];
        assert!((sharpest_free_bend_deg(&nodes, &[false; 3], 1.0) - 90.0).abs() < 1e-3);
        assert_eq!(
            sharpest_free_bend_deg(&nodes, &[false, true, false], 1.0),
            0.0
        );
    }

    #[test]
    fn a_fold_behind_a_collapsed_segment_still_counts() {
        let nodes = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1e-4), v(0.0, 1e-4)];
        assert!(sharpest_free_bend_deg(&nodes, &[false; 4], 1.0) > 170.0);
    }
}
