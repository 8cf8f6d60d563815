//! Wind zones: a rope hanging in a steady wind settles at the angle its drag and weight give; the
//! player is carried and pushed downwind; gusts follow the tick alone; a level without wind
//! plays as if wind did not exist; bad wind definitions are refused with a message.

mod common;

use tether::sim::level::LevelError;
use tether::sim::math::Vec2;
use tether::sim::{InputFrame, World};

use common::IDLE;

/// A level around `objects`: a floor at y = 0 from x = −60 to 60, a far goal.
fn level(objects: &str) -> String {
    format!(
        r#"Level(
            name: "wind",
            spawn: (0.0, 1.0),
            goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
            kill_y_m: -30.0,
            solids: [(shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0)))],
            {objects}
        )"#
    )
}

fn run(world: &mut World, ticks: usize, input: InputFrame) {
    for _ in 0..ticks {
        world.step(&input);
    }
}

/// The settled angle from the vertical of a uniform rope in a steady horizontal wind `W`, when
/// only the air's speed across the rope pushes it (`F = c L v_n²`): every straight piece balances
/// its weight's component across it against the drag, `λ g sin θ = c (W cos θ)²`, so
/// `sin θ = k cos² θ` with `k = c W² / (λ g)`, i.e. `sin θ = (√(1 + 4k²) − 1) / 2k`.
fn settled_angle_deg(drag: f32, wind_m_per_s: f32, kg_per_m: f32, gravity: f32) -> f32 {
    let k = drag * wind_m_per_s * wind_m_per_s / (kg_per_m * gravity);
    let sin = ((1.0 + 4.0 * k * k).sqrt() - 1.0) / (2.0 * k);
    sin.asin().to_degrees()
}

#[test]
fn a_rope_in_a_steady_wind_settles_at_the_angle_drag_and_gravity_give() {
    let tuning = common::tuning();
    // 9 m vine (30 segments) with no weight, in a 12 m/s wind blowing to the right everywhere
    // around it.
    let mut world = common::world_from(&level(
        r#"vines: [(at: (0.0, 14.0), length_m: 9.0)],
           wind: [(region: Box(center: (0.0, 10.0), half_extents: (20.0, 8.0)),
                   direction_deg: 0.0, speed_m_per_s: 12.0)],"#,
    ));
    run(&mut world, 120 * 15, IDLE);
    let nodes = &world.vines()[0].rope.nodes;
    let segment_m = tuning.rope.segment_length_m;
    let node_kg = tuning.rope.player_mass_kg / tuning.rope.player_mass_ratio;
    let expected = settled_angle_deg(
        tuning.rope.wind_drag_n_s2_per_m3,
        12.0,
        node_kg / segment_m,
        tuning.player.gravity_m_per_s2,
    );
    // The upper two thirds: at the free end the last node carries a whole node's weight but
    // only half a segment's drag, so the last few segments hang a little steeper.
    let upto = nodes.len() * 2 / 3;
    let chord = nodes[upto] - nodes[0];
    let measured = chord.x.atan2(-chord.y).to_degrees();
    println!("wind 12 m/s: rope at {measured:.2}° from the vertical, formula {expected:.2}°");
    assert!(
        (measured - expected).abs() < 0.5,
        "settled at {measured:.2}°, the formula gives {expected:.2}° (tolerance 0.5°)"
    );
    // And it has settled: the end barely moves.
    let end_speed = world.vines()[0].rope.end_velocity().length();
    assert!(end_speed < 0.05, "the rope still moves at {end_speed} m/s");
}

#[test]
fn the_player_is_carried_and_pushed_downwind() {
    let wind = r#"wind: [(region: Box(center: (0.0, 5.0), half_extents: (50.0, 10.0)),
                          direction_deg: 0.0, speed_m_per_s: 10.0)],"#;
    let tuning = common::tuning();
    let mut world = common::world_from(&level(wind));
    run(&mut world, 240, IDLE);
    // Standing: the run control settles at the wind's share of the air's speed.
    let expected = 10.0 * tuning.player.wind_carry;
    assert!(world.player().grounded);
    assert!(
        (world.player().vel.x - expected).abs() < 0.05,
        "standing in a 10 m/s wind: {} m/s, expected {expected}",
        world.player().vel.x
    );
    // Running into it is slower than running with it.
    let mut against = common::world_from(&level(wind));
    let mut with = common::world_from(&level(wind));
    run(&mut against, 120, InputFrame { move_x: -1, ..IDLE });
    run(&mut with, 120, InputFrame { move_x: 1, ..IDLE });
    assert!(with.player().vel.x > -against.player().vel.x + 1.0);
    // Without the zone the same standing player does not move.
    let mut calm = common::world_from(&level(""));
    run(&mut calm, 240, IDLE);
    assert_eq!(calm.player().vel.x, 0.0);
}

#[test]
fn an_updraft_slows_a_fall() {
    let updraft = r#"wind: [(region: Box(center: (0.0, 20.0), half_extents: (5.0, 15.0)),
                             direction_deg: 90.0, speed_m_per_s: 15.0)],"#;
    let fall = |objects: &str| {
        let text = level(objects).replace("spawn: (0.0, 1.0)", "spawn: (0.0, 30.0)");
        let mut world = common::world_from(&text);
        run(&mut world, 60, IDLE);
        world.player().pos.y
    };
    let (calm_y, windy_y) = (fall(""), fall(updraft));
    assert!(
        windy_y > calm_y + 1.0,
        "half a second of falling: {calm_y} m in calm air, {windy_y} m in the updraft"
    );
}

#[test]
fn gusts_are_a_function_of_the_tick_alone() {
    let gusty = level(
        r#"vines: [(at: (3.0, 12.0), length_m: 6.0, weight_kg: 10.0)],
           wind: [(region: Box(center: (0.0, 8.0), half_extents: (20.0, 8.0)),
                   direction_deg: 10.0, speed_m_per_s: 6.0,
                   gust: (extra_m_per_s: 14.0, period_s: 2.5))],"#,
    );
    let mut a = common::world_from(&gusty);
    let mut b = common::world_from(&gusty);
    let mut vine_moved_late = false;
    for tick in 0..600 {
        let before = a.vines()[0].rope.nodes.clone();
        a.step(&IDLE);
        b.step(&IDLE);
        assert_eq!(a.state_hash(), b.state_hash());
        vine_moved_late |= tick >= 590 && a.vines()[0].rope.nodes != before;
    }
    // The vine still moves in the gusts ten seconds on, and the air speed varies.
    let speeds: Vec<f32> = (0..300)
        .map(|t| {
            let w = common::world_from(&gusty);
            w.wind()
                .at_tick(t * 2)
                .air_velocity(Vec2::new(0.0, 8.0))
                .length()
        })
        .collect();
    let (min, max) = speeds
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    assert!(min < 6.5 && max > 19.5, "gust speeds from {min} to {max}");
    assert!(vine_moved_late, "the vine hangs still in the gusts");
}

#[test]
fn a_level_without_wind_plays_exactly_as_before() {
    // The drag is skipped outright outside zones: a zone far from everything changes nothing.
    let far = r#"wind: [(region: Box(center: (500.0, 500.0), half_extents: (5.0, 5.0)),
                         direction_deg: 0.0, speed_m_per_s: 20.0)],"#;
    let objects = r#"vines: [(at: (3.0, 12.0), length_m: 6.0)],"#;
    let mut calm = common::world_from(&level(objects));
    let mut far_wind = common::world_from(&level(&format!("{objects} {far}")));
    for _ in 0..300 {
        calm.step(&InputFrame { move_x: 1, ..IDLE });
        far_wind.step(&InputFrame { move_x: 1, ..IDLE });
    }
    assert_eq!(calm.state_hash(), far_wind.state_hash());
}

#[test]
fn bad_wind_is_refused_with_a_message() {
    let cases = [
        (
            "direction_deg: 0.0, speed_m_per_s: 400.0",
            "wind[0]: speed_m_per_s must be between 0 and 40, got 400",
        ),
        (
            "direction_deg: inf, speed_m_per_s: 4.0",
            "wind[0]: direction_deg is not a finite number",
        ),
        (
            "direction_deg: 0.0, speed_m_per_s: NaN",
            "wind[0]: speed_m_per_s must be between 0 and 40, got NaN",
        ),
        (
            "direction_deg: 0.0, speed_m_per_s: 30.0, gust: (extra_m_per_s: 20.0, period_s: 2.0)",
            "wind[0].gust: extra_m_per_s must be between 0 and 10, got 20",
        ),
        (
            "direction_deg: 0.0, speed_m_per_s: 3.0, gust: (extra_m_per_s: 2.0, period_s: 0.0)",
            "wind[0].gust: period_s must be between 0.5 and 60, got 0",
        ),
    ];
    for (fields, expected) in cases {
        let text = level(&format!(
            "wind: [(region: Box(center: (0.0, 5.0), half_extents: (5.0, 5.0)), {fields})],"
        ));
        let error = tether::sim::LevelDef::from_ron(&text, "w.ron").unwrap_err();
        let LevelError::Semantic { .. } = &error else {
            panic!("{fields}: expected a semantic error, got {error}");
        };
        let message = error.to_string();
        assert!(message.contains(expected), "{fields}: {message}");
    }
    let bad_region = level(
        "wind: [(region: Box(center: (0.0, 5.0), half_extents: (-5.0, 5.0)), \
         direction_deg: 0.0, speed_m_per_s: 3.0)],",
    );
    let message = tether::sim::LevelDef::from_ron(&bad_region, "w.ron")
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("wind[0].region: half_extents.x must be positive"),
        "{message}"
    );
}
