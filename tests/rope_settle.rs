//! The rope settles to its rest length within a stated tolerance, comes to rest, and never
//! crosses a box while it falls onto and drapes over rotated boxes.

use rapier2d::parry::shape::Segment;
use tether::sim::geometry::Geometry;
use tether::sim::level::{ShapeDef, P};
use tether::sim::math::{Pose, Vec2};
use tether::sim::rope::{Rope, RopeParams, DEFAULT_CHAIN_ITERATIONS, DEFAULT_FRICTION};

const DT_S: f32 = 0.01;
const GRAVITY: Vec2 = Vec2::new(0.0, -20.0);
const SPACING_M: f32 = 0.1;
const RADIUS_M: f32 = 0.05;

fn params(segments: usize, end_mass_ratio: f32) -> RopeParams {
    RopeParams {
        segments,
        radius_m: RADIUS_M,
        substeps: 4,
        min_substeps: 2,
        end_mass_ratio,
        damping_per_s: 0.5,
        friction: DEFAULT_FRICTION,
        chain_iterations: DEFAULT_CHAIN_ITERATIONS,
        node_mass_kg: 1.0,
    }
}

fn level(solids: Vec<ShapeDef>) -> Geometry {
    Geometry::of_solids(solids)
}

fn stretch(rope: &Rope) -> f32 {
    rope.measured_length_m() / rope.length_m - 1.0
}

fn rms_speed_m_per_s(before: &[Vec2], after: &[Vec2]) -> f32 {
    let sum: f32 = before
        .iter()
        .zip(after)
        .map(|(a, b)| (*b - *a).length_squared())
        .sum();
    (sum / before.len() as f32).sqrt() / DT_S
}

/// The deepest any segment's axis (not its capsule) is inside a solid, in metres.
fn axis_depth_m(geometry: &Geometry, rope: &Rope) -> f32 {
    rope.nodes
        .windows(2)
        .filter_map(|w| geometry.deepest_solid_overlap(&Pose::IDENTITY, &Segment::new(w[0], w[1])))
        .map(|(_, depth_m)| depth_m)
        .fold(0.0, f32::max)
}

#[test]
fn hanging_rope_settles_to_its_length() {
    let n = 200;
    let points: Vec<Vec2> = (0..=n)
        .map(|i| Vec2::new(i as f32 * SPACING_M * 0.7, -(i as f32) * SPACING_M * 0.714))
        .collect();
    let mut rope = Rope::from_nodes(&points, params(n, 1.0));
    let geometry = level(vec![]);
    let mut before = rope.nodes.clone();
    for _ in 0..3000 {
        before.copy_from_slice(&rope.nodes);
        rope.step_free(&geometry, GRAVITY, DT_S);
        // Inextensible at every step of the swing, not only at rest: within 0.1 %.
        assert!(stretch(&rope).abs() < 1e-3, "stretch {}", stretch(&rope));
    }
    let worst = rope
        .nodes
        .windows(2)
        .map(|w| (w[0].distance(w[1]) / rope.nominal_segment_m() - 1.0).abs())
        .fold(0.0, f32::max);
    assert!(worst < 1e-3, "worst segment off by {worst}");
    // Released from a slope it swings; after 30 s of air drag it hangs still.
    let speed = rms_speed_m_per_s(&before, &rope.nodes);
    assert!(speed < 0.001, "still moving at {speed} m/s");
    let end = *rope.nodes.last().unwrap();
    assert!(
        end.x.abs() < 0.5 && end.y < -19.0,
        "not hanging down: {end:?}"
    );
}

#[test]
fn heavy_end_stays_at_rope_length_while_swinging() {
    let n = 40;
    let points: Vec<Vec2> = (0..=n).map(|i| Vec2::new(i as f32 * 0.3, 0.0)).collect();
    let mut rope = Rope::from_nodes(
        &points,
        RopeParams {
            radius_m: 0.06,
            ..params(n, 50.0)
        },
    );
    let geometry = level(vec![]);
    let length = rope.length_m;
    let mut max_off: f32 = 0.0;
    for _ in 0..500 {
        rope.step_free(&geometry, GRAVITY, DT_S);
        let reach = rope.nodes.last().unwrap().distance(rope.anchor());
        max_off = max_off.max(reach / length - 1.0);
    }
    // The player (50× a node) may never be further from the anchor than the rope is long.
    assert!(max_off < 1e-3, "end {max_off} beyond the rope length");
}

#[test]
fn rope_drapes_over_rotated_boxes_without_crossing_them() {
    let boxes: Vec<ShapeDef> = (0..8)
        .map(|k| ShapeDef::Box {
            center: P(0.6 + k as f32 * 1.2, 0.3 * (k % 3) as f32),
            half_extents: P(0.3, 0.12),
            rotation_deg: -35.0 + 10.0 * k as f32,
        })
        .collect();
    let geometry = level(boxes);
    let n = 100;
    let points: Vec<Vec2> = (0..=n)
        .map(|i| Vec2::new(i as f32 * SPACING_M, 1.5))
        .collect();
    let mut rope = Rope::from_nodes(&points, params(n, 1.0));
    let mut before = rope.nodes.clone();
    for step in 0..1000 {
        before.copy_from_slice(&rope.nodes);
        rope.step_free(&geometry, GRAVITY, DT_S);
        let depth = axis_depth_m(&geometry, &rope);
        assert!(
            depth < 1e-3,
            "step {step}: a segment is {depth} m inside a box"
        );
    }
    assert!(
        rope.touching().iter().any(|&t| t),
        "the rope should rest on the boxes"
    );
    assert!(
        stretch(&rope).abs() < 1e-3,
        "settled stretch {}",
        stretch(&rope)
    );
    let speed = rms_speed_m_per_s(&before, &rope.nodes);
    assert!(speed < 0.01, "still moving at {speed} m/s");
}
