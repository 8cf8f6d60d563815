//! The rope wraps around corners inside the real `World` (player movement, collision, reel and
//! rope together, as the game runs them): around one corner, around two, and it unwraps when the
//! player swings back. Asserts behaviour only (the rope bends at the corner, the player is nearer
//! the anchor than the rope is long), since the rope solver's details may change.

mod common;

use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::rope::Rope;
use tether::sim::{AttachKind, InputFrame, World};

const ANCHOR: Vec2 = Vec2::new(0.0, 20.0);

/// A world with one box (given by its corners relative to the anchor) and the player hanging on
/// a taut rope of `rope_m`, held still `below_rad` below horizontal, left of the anchor.
fn world(box_min: Vec2, box_max: Vec2, rope_m: f32, below_rad: f32) -> World {
    let center = ANCHOR + (box_min + box_max) * 0.5;
    let half = (box_max - box_min) * 0.5;
    let mut world = common::world_from(&format!(
        r#"Level(
            name: "wrap",
            spawn: (-30.0, 1.0),
            goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
            kill_y_m: -100.0,
            solids: [
                (shape: Box(center: (-30.0, -1.0), half_extents: (2.0, 1.0))),
                (shape: Box(center: ({}, {}), half_extents: ({}, {}))),
            ],
        )"#,
        center.x, center.y, half.x, half.y
    ));
    let tuning = common::tuning();
    world.place_player(ANCHOR + Vec2::new(-libm::cosf(below_rad), -libm::sinf(below_rad)) * rope_m);
    world.set_player_velocity(Vec2::ZERO);
    world.set_hook(Hook::attached_fixed(
        Rope::new(ANCHOR, world.player().pos, rope_m, &tuning.rope),
        AttachKind::Surface,
    ));
    world
}

/// How far the rope's axis passes from `point`.
fn rope_gap(world: &World, point: Vec2) -> f32 {
    let rope = world.rope().expect("attached");
    rope.nodes
        .windows(2)
        .map(|w| {
            let d = w[1] - w[0];
            let t = ((point - w[0]).dot(d) / d.length_squared().max(1e-12)).clamp(0.0, 1.0);
            point.distance(w[0] + d * t)
        })
        .fold(f32::INFINITY, f32::min)
}

/// Whether the straight line from the anchor to the player cuts through the box by more than
/// `depth_m` at `corner` (the rope would have to bend there).
fn line_cuts_corner(world: &World, corner: Vec2, depth_m: f32) -> bool {
    let to_player = world.player().pos - ANCHOR;
    let to_corner = corner - ANCHOR;
    // Signed distance of the corner from the line, positive when the corner is on the line's
    // left side (for a swing to the right below the anchor, the box side).
    let cross = to_player.x * to_corner.y - to_player.y * to_corner.x;
    let along = to_corner.dot(to_player) / to_player.length();
    along > 0.0 && along < to_player.length() && -cross / to_player.length() > depth_m
}

struct Record {
    wrapped_ticks: usize,
    unwrapped_after: bool,
}

/// Runs the swing, checking every tick where the straight line cuts the box at `corners[k]` that
/// the rope touches that corner and is bent.
fn swing(world: &mut World, corners: &[Vec2], ticks: usize) -> Record {
    let radius_m = world.tuning().rope.radius_m;
    let mut wrapped_ticks = 0;
    let mut ever_wrapped = false;
    let mut unwrapped_after = false;
    for t in 0..ticks {
        world.step(&InputFrame::default());
        let rope = world.rope().expect("the rope holds");
        let reach = ANCHOR.distance(world.player().pos);
        let wrapped: Vec<&Vec2> = corners
            .iter()
            .filter(|&&c| line_cuts_corner(world, ANCHOR + c, 0.15))
            .collect();
        if !wrapped.is_empty() {
            wrapped_ticks += 1;
            ever_wrapped = true;
            for &&corner in &wrapped {
                let gap = rope_gap(world, ANCHOR + corner) - radius_m;
                assert!(
                    gap < 0.03,
                    "tick {t}: the rope should bend around the corner {corner:?}, it passes {gap} m \
                     from it (player {:?})",
                    world.player().pos - ANCHOR
                );
            }
            // Bent at the corner: the player is nearer the anchor than the rope is long, by
            // (at least half) the detour the corner forces.
            let corner = ANCHOR + *wrapped[0];
            let detour = ANCHOR.distance(corner) + corner.distance(world.player().pos) - reach;
            assert!(
                reach + 0.5 * detour < rope.length_m,
                "tick {t}: wrapped, the player is {reach} m from the anchor of a {} m rope \
                 (the corner's detour is {detour} m)",
                rope.length_m
            );
        } else if ever_wrapped && world.player().pos.x < ANCHOR.x - 1.0 {
            // Swung back: free of every corner, hanging straight from the anchor again.
            let gaps: Vec<f32> = corners
                .iter()
                .map(|&c| rope_gap(world, ANCHOR + c))
                .collect();
            assert!(
                gaps.iter().all(|&g| g > 0.2),
                "tick {t}: swung back but the rope still touches a corner: gaps {gaps:?}"
            );
            assert!(
                reach > rope.length_m * 0.97,
                "tick {t}: unwrapped, the player is only {reach} m from the anchor of a {} m rope",
                rope.length_m
            );
            unwrapped_after = true;
        }
    }
    Record {
        wrapped_ticks,
        unwrapped_after,
    }
}

#[test]
fn the_rope_wraps_one_corner_and_unwraps_on_the_swing_back() {
    // Box x 1..2, y -1..0 from the anchor: its lower-left corner is 45° below the anchor.
    let corner = Vec2::new(1.0, -1.0);
    let mut world = world(
        corner,
        Vec2::new(2.0, 0.0),
        4.0,
        std::f32::consts::FRAC_PI_6,
    );
    let record = swing(&mut world, &[corner], 480);
    assert!(
        record.wrapped_ticks > 20,
        "the swing carries the player past the corner ({} ticks)",
        record.wrapped_ticks
    );
    assert!(record.unwrapped_after, "the player swung back left");
}

#[test]
fn the_rope_wraps_two_corners_of_a_wide_box() {
    // Box x 1..3, y -2.5..-1: the swing goes under it and up its far side, so the rope lies
    // around the lower-left and then also the lower-right corner.
    let left = Vec2::new(1.0, -2.5);
    let right = Vec2::new(3.0, -2.5);
    let mut world = world(left, Vec2::new(3.0, -1.0), 6.0, 0.0);
    let mut both = 0;
    let radius_m = world.tuning().rope.radius_m;
    for _ in 0..150 {
        world.step(&InputFrame::default());
        let near = |c: Vec2| rope_gap(&world, ANCHOR + c) - radius_m < 0.03;
        if near(left) && near(right) && line_cuts_corner(&world, ANCHOR + right, 0.15) {
            both += 1;
            let rope = world.rope().unwrap();
            // Around two corners: anchor → left corner → right corner → player.
            let path = left.length()
                + left.distance(right)
                + (world.player().pos - ANCHOR - right).length();
            assert!(
                path <= rope.length_m * 1.03,
                "the rope's path around both corners ({path} m) fits its length ({} m)",
                rope.length_m
            );
        }
    }
    assert!(both > 5, "the rope lay on both corners for {both} ticks");
}
