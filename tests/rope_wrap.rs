//! The game's rope wraps around a box corner: the swing pivots there while wrapped, and the rope
//! unwraps when the player swings back. Runs the rope exactly as `World` does (player as its
//! heavy last node, 120 Hz ticks, the shipped tuning).

use rapier2d::parry::shape::Segment;
use tether::sim::geometry::Geometry;
use tether::sim::level::{ShapeDef, P};
use tether::sim::math::{Pose, Vec2};
use tether::sim::rope::Rope;
use tether::sim::{Tuning, TICK_DT_S};

const ANCHOR: Vec2 = Vec2::new(0.0, 0.0);
/// The box spans x 1..2, y −1..0: its bottom-left corner is 45° below the anchor, √2 m away.
const CORNER: Vec2 = Vec2::new(1.0, -1.0);
const ROPE_M: f32 = 4.0;
/// Released this far below horizontal: low enough that after wrapping the player cannot climb
/// above the corner and wrap a second corner of the box.
const RELEASE_BELOW_RAD: f32 = std::f32::consts::FRAC_PI_6;

fn tuning() -> Tuning {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/tuning.ron");
    Tuning::from_ron(&std::fs::read_to_string(path).unwrap(), path).unwrap()
}

fn geometry() -> Geometry {
    Geometry::of_solids(vec![ShapeDef::Box {
        center: P(1.5, -0.5),
        half_extents: P(0.5, 0.5),
        rotation_deg: 0.0,
    }])
}

fn distance_to_rope(rope: &Rope, p: Vec2) -> f32 {
    rope.nodes
        .windows(2)
        .map(|w| {
            let d = w[1] - w[0];
            let t = ((p - w[0]).dot(d) / d.length_squared().max(1e-12)).clamp(0.0, 1.0);
            p.distance(w[0] + d * t)
        })
        .fold(f32::INFINITY, f32::min)
}

/// Whether any segment's axis (not just its capsule) is inside a solid.
fn axis_inside_solid(geometry: &Geometry, rope: &Rope) -> bool {
    rope.nodes.windows(2).any(|w| {
        geometry
            .deepest_solid_overlap(&Pose::IDENTITY, &Segment::new(w[0], w[1]))
            .is_some_and(|(_, depth_m)| depth_m > 1e-3)
    })
}

struct Tick {
    player: Vec2,
    corner_gap_m: f32,
}

/// Releases the player at rest 30° below horizontal left of the anchor and records each tick.
fn swing(ticks: usize) -> Vec<Tick> {
    let tuning = tuning();
    let geometry = geometry();
    let gravity = Vec2::new(0.0, -tuning.player.gravity_m_per_s2);
    let mut player = ANCHOR
        + Vec2::new(
            -libm::cosf(RELEASE_BELOW_RAD),
            -libm::sinf(RELEASE_BELOW_RAD),
        ) * ROPE_M;
    let mut vel = Vec2::ZERO;
    let mut rope = Rope::new(ANCHOR, player, tuning.rope.max_length_m, &tuning.rope);
    let radius_m = tuning.rope.radius_m;
    let mut out = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        vel += gravity * TICK_DT_S;
        let (target, new_vel) = rope.step(&geometry, &tuning.rope, gravity, player, vel, TICK_DT_S);
        player = target;
        vel = new_vel;
        rope.set_player(player);
        assert!(
            !axis_inside_solid(&geometry, &rope),
            "the rope crossed the box at {player:?}"
        );
        out.push(Tick {
            player,
            corner_gap_m: distance_to_rope(&rope, CORNER) - radius_m,
        });
    }
    out
}

/// Wrapped: the straight line from the anchor to the player is well inside the box. (The rope
/// bows under its own weight, so it meets the corner a few degrees after the straight line would;
/// 0.12 rad past the corner the straight line is 0.17 m deep in the box.)
fn is_wrapped(t: &Tick) -> bool {
    (t.player - ANCHOR).angle_to(CORNER - ANCHOR) < -0.12 && t.player.x > CORNER.x
}

#[test]
fn wrapped_rope_keeps_touching_the_corner_and_pivots_there() {
    let ticks = swing(240);
    let wrapped: Vec<&Tick> = ticks.iter().filter(|t| is_wrapped(t)).collect();
    assert!(
        wrapped.len() > 20,
        "the swing should carry the player past the corner"
    );
    let free_m = ROPE_M - ANCHOR.distance(CORNER);
    for t in &wrapped {
        // Under tension the rope stays on the corner (within 1 cm of its surface)...
        assert!(
            t.corner_gap_m < 0.01,
            "rope left the corner: gap {} m at {:?}",
            t.corner_gap_m,
            t.player
        );
        // ...and the player swings about it: its distance from the corner is the free length.
        let radius = t.player.distance(CORNER);
        assert!(
            (radius - free_m).abs() < 0.03 * free_m,
            "pivot radius {radius} m, expected {free_m} m"
        );
    }
}

#[test]
fn swinging_back_unwraps() {
    let ticks = swing(480);
    let first_wrapped = ticks.iter().position(is_wrapped).expect("the rope wraps");
    // After the wrap, the player comes back to the left of the anchor.
    let back = ticks[first_wrapped..]
        .iter()
        .position(|t| t.player.x < -1.0)
        .map(|i| i + first_wrapped)
        .expect("the player swings back");
    let t = &ticks[back];
    assert!(
        t.corner_gap_m > 0.2,
        "rope still on the corner after swinging back: gap {} m",
        t.corner_gap_m
    );
    let radius = t.player.distance(ANCHOR);
    assert!(
        (radius - ROPE_M).abs() < 0.01 * ROPE_M,
        "unwrapped swing radius {radius} m, expected {ROPE_M} m"
    );
}
