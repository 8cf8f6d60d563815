//! The rope against the textbook: a player swinging on a taut 6 m rope keeps the pendulum's
//! period and loses amplitude only as the rope's damping says; a rope pinned at both ends hangs
//! as a catenary.

mod common;

use tether::sim::geometry::Geometry;
use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::rope::Rope;
use tether::sim::{AttachKind, InputFrame, Tuning, World, TICK_DT_S};

// World's fields are read and written only here, so a change of World's API is one edit.

fn player_pos(world: &World) -> Vec2 {
    world.player().pos
}

/// The player at `pos`, at rest, on a rope from `anchor` as long as the distance between.
fn hang(world: &mut World, anchor: Vec2, pos: Vec2) {
    let tuning = common::tuning();
    world.place_player(pos);
    world.set_player_velocity(Vec2::ZERO);
    world.set_hook(Hook::attached_fixed(
        Rope::new(anchor, pos, tuning.rope.max_length_m, &tuning.rope),
        AttachKind::Surface,
    ));
}

const ROPE_M: f32 = 6.0;
/// Released this far from the vertical, at rest.
const AMPLITUDE_DEG: f32 = 20.0;
const ANCHOR: Vec2 = Vec2::new(0.0, 40.0);

/// An empty sky under a ceiling: nothing for the swing to touch.
fn sky() -> World {
    common::world_from(
        r#"Level(
            name: "pendulum",
            spawn: (0.0, 1.0),
            goal: (min: (90.0, 90.0), max: (92.0, 92.0)),
            kill_y_m: -100.0,
            solids: [(shape: Box(center: (0.0, 40.5), half_extents: (3.0, 0.5)))],
        )"#,
    )
}

/// The swing's angle from the vertical at each tick's end, radians (positive to the right).
fn swing_angles(ticks: usize) -> Vec<f32> {
    let mut world = sky();
    let start = AMPLITUDE_DEG.to_radians();
    let pos = ANCHOR + Vec2::new(libm::sinf(start), -libm::cosf(start)) * ROPE_M;
    hang(&mut world, ANCHOR, pos);
    (0..ticks)
        .map(|_| {
            world.step(&InputFrame::default());
            let r = player_pos(&world) - ANCHOR;
            libm::atan2f(r.x, -r.y)
        })
        .collect()
}

/// The times (s) at which `angles` crosses zero going up, interpolated between ticks.
fn upward_crossings_s(angles: &[f32]) -> Vec<f64> {
    angles
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < 0.0 && w[1] >= 0.0)
        .map(|(i, w)| {
            let t = f64::from(w[0]) / f64::from(w[0] - w[1]);
            (i as f64 + 1.0 + t) * f64::from(TICK_DT_S)
        })
        .collect()
}

/// The pendulum's period, s: the player (mass 1) at `ROPE_M` and the rope's nodes (each
/// 1 / `player_mass_ratio`, evenly along it) swing as one rigid compound pendulum,
/// T₀ = 2π √(I / (g Σ m r)), with the finite-amplitude series T = T₀ (1 + θ²/16 + 11θ⁴/3072).
fn textbook_period_s(tuning: &Tuning) -> f64 {
    let g = f64::from(tuning.player.gravity_m_per_s2);
    let length_m = f64::from(ROPE_M);
    let segments = (ROPE_M / tuning.rope.segment_length_m).ceil() as usize;
    let node_mass = 1.0 / f64::from(tuning.rope.player_mass_ratio);
    let (mut inertia, mut moment) = (length_m * length_m, length_m);
    for i in 1..segments {
        let r = length_m * i as f64 / segments as f64;
        inertia += node_mass * r * r;
        moment += node_mass * r;
    }
    let theta = f64::from(AMPLITUDE_DEG).to_radians();
    let t0 = 2.0 * std::f64::consts::PI * (inertia / (g * moment)).sqrt();
    t0 * (1.0 + theta * theta / 16.0 + 11.0 * theta.powi(4) / 3072.0)
}

#[test]
fn a_taut_rope_swings_with_the_pendulums_period() {
    let tuning = common::tuning();
    let angles = swing_angles(1200);
    let crossings = upward_crossings_s(&angles);
    assert!(
        crossings.len() >= 4,
        "the player swung only {} times",
        crossings.len()
    );
    let periods = crossings.len() - 1;
    let measured_s = (crossings[periods] - crossings[0]) / periods as f64;
    let expected_s = textbook_period_s(&tuning);
    let simple_s = 2.0
        * std::f64::consts::PI
        * (f64::from(ROPE_M) / f64::from(tuning.player.gravity_m_per_s2)).sqrt();
    println!("period {measured_s} s over {periods} swings; textbook {expected_s} s (massless rope, small swing: {simple_s} s)");
    assert!(
        (measured_s - expected_s).abs() <= 0.01 * expected_s,
        "the period is {measured_s} s, the textbook's {expected_s} s"
    );
}

/// The rope's damping: each rope node keeps `node_damping_per_s` of its velocity per second
/// (v ← v · keep^dt every substep); the player's own node is not damped. So the swing loses at
/// most what damping the whole rope at that rate takes: with f the rope's share of the swing's
/// moment of inertia and k = −ln(keep), the energy falls no faster than e^(−2 k f t) and the
/// amplitude no faster than e^(−k f t).
fn slowest_amplitude_kept(tuning: &Tuning, t_s: f64) -> f64 {
    let k = -f64::from(tuning.rope.node_damping_per_s).ln();
    let segments = (ROPE_M / tuning.rope.segment_length_m).ceil() as usize;
    let node_mass = 1.0 / f64::from(tuning.rope.player_mass_ratio);
    let length_m = f64::from(ROPE_M);
    let rope_inertia: f64 = (1..segments)
        .map(|i| node_mass * (length_m * i as f64 / segments as f64).powi(2))
        .sum();
    let share = rope_inertia / (rope_inertia + length_m * length_m);
    (-k * share * t_s).exp()
}

#[test]
fn the_swing_decays_only_as_the_ropes_damping_says() {
    let tuning = common::tuning();
    let seconds = 60;
    let angles = swing_angles(seconds * 120);
    // Each half swing's amplitude: the largest |angle| between zero crossings.
    let mut peaks = Vec::new();
    let mut peak = 0.0f32;
    for w in angles.windows(2) {
        peak = peak.max(w[1].abs());
        if (w[0] < 0.0) != (w[1] < 0.0) {
            peaks.push(peak.to_degrees());
            peak = 0.0;
        }
    }
    // Measured: 19.97° on the first half swing, 3.25° on the 51st (after 60 s).
    println!("amplitude by half swing (deg): {peaks:?}");
    for (i, pair) in peaks.windows(2).enumerate() {
        assert!(
            pair[1] <= pair[0],
            "half swing {} reached {}°, more than the {}° before it",
            i + 2,
            pair[1],
            pair[0]
        );
    }
    let last = f64::from(*peaks.last().expect("the player swung"));
    let floor = f64::from(AMPLITUDE_DEG) * slowest_amplitude_kept(&tuning, seconds as f64);
    assert!(
        last >= floor,
        "after {seconds} s the swing is {last}°: more lost than the rope's damping allows ({floor}°)"
    );
}

/// The far end's mass against a rope node's, for a rope whose far end is pinned. Within a tick
/// the rope's far end moves as the player would (a mass of `player_mass_ratio` nodes, 50 in the
/// game), and the test puts it back after each tick. That put-back is a shove every tick: with
/// the game's 50 the chain still sloshed 27 cm off the catenary after 60 s, and never settled.
/// A million nodes' mass is an end that the rope cannot move: a pin.
const PINNED_END_MASS_RATIO: f32 = 1.0e6;

/// A chain pinned at both ends, `span_m` apart at the same height, `rope_m` long, stepped for
/// `ticks`: where its nodes are after every `every` ticks.
fn pinned_chain(span_m: f32, rope_m: f32, ticks: usize, every: usize) -> Vec<Vec<Vec2>> {
    let mut tuning = (*common::tuning()).clone();
    tuning.rope.player_mass_ratio = PINNED_END_MASS_RATIO;
    let geometry = Geometry::of_solids(Vec::new());
    let gravity = Vec2::new(0.0, -tuning.player.gravity_m_per_s2);
    let left = Vec2::new(0.0, 0.0);
    let right = Vec2::new(span_m, 0.0);
    let mut rope = Rope::new(left, right, tuning.rope.max_length_m, &tuning.rope);
    rope.set_length(rope_m, tuning.rope.min_length_m, tuning.rope.max_length_m);
    let mut shapes = Vec::new();
    for tick in 1..=ticks {
        rope.step(
            &geometry,
            &tuning.rope,
            gravity,
            right,
            Vec2::ZERO,
            TICK_DT_S,
        );
        rope.set_player(right);
        if tick % every == 0 {
            shapes.push(rope.nodes.clone());
        }
    }
    shapes
}

/// The node farthest from the catenary of `span_m` and `rope_m`, and how far, m.
fn worst_off_catenary(span_m: f32, rope_m: f32, nodes: &[Vec2]) -> (f64, Vec2) {
    nodes
        .iter()
        .map(|p| {
            let expected = catenary_y(f64::from(span_m), f64::from(rope_m), f64::from(p.x));
            ((f64::from(p.y) - expected).abs(), *p)
        })
        .fold((0.0, Vec2::ZERO), |a, b| if b.0 > a.0 { b } else { a })
}

/// The catenary through (0, 0) and (span, 0) of length `rope_m`: y(x) = c (cosh((x − a)/c) −
/// cosh(a/c)) with a = span / 2 and 2 c sinh(a / c) = rope_m (c found by bisection).
fn catenary_y(span_m: f64, rope_m: f64, x: f64) -> f64 {
    let a = span_m / 2.0;
    let (mut lo, mut hi) = (1e-3, 1e4);
    for _ in 0..200 {
        let c = 0.5 * (lo + hi);
        if 2.0 * c * (a / c).sinh() > rope_m {
            lo = c;
        } else {
            hi = c;
        }
    }
    let c = 0.5 * (lo + hi);
    c * (((x - a) / c).cosh() - (a / c).cosh())
}

#[test]
fn a_rope_pinned_at_both_ends_hangs_as_a_catenary() {
    let (span_m, rope_m) = (6.0f32, 8.0f32);
    let ticks_per_s = (1.0 / TICK_DT_S).round() as usize;
    let shapes = pinned_chain(span_m, rope_m, 60 * ticks_per_s, 5 * ticks_per_s);
    for (i, nodes) in shapes.iter().enumerate() {
        let (off_m, node) = worst_off_catenary(span_m, rope_m, nodes);
        let lying_m: f32 = nodes.windows(2).map(|w| w[0].distance(w[1])).sum();
        println!(
            "after {:2} s: worst node {node:?} off the catenary by {off_m:.4} m; lying length {lying_m:.4} m, {} nodes",
            5 * (i + 1),
            nodes.len()
        );
    }
    let (worst_m, node) = worst_off_catenary(span_m, rope_m, shapes.last().unwrap());
    assert!(
        worst_m <= 0.02,
        "node at {node:?} is {worst_m} m off the catenary"
    );
}
