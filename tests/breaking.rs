//! Things that break under load: a cracked ring, a rotten beam and a fragile rope give way when
//! the rope's tension (newtons, from the chain solve) stays above their rating for their time,
//! not before; the player flies on with exactly the rope's velocity; the pieces whip about and
//! are drawn in; a death mends everything; bad ratings are refused.

mod common;

use tether::sim::event::BreakKind;
use tether::sim::geometry::groups;
use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::{Event, InputFrame, LevelDef, World};

use common::IDLE;

/// A level with a floor at y = 0 (x from −60 to 60), the player spawned at `spawn`.
fn level(spawn: (f32, f32), objects: &str) -> String {
    format!(
        r#"Level(
            name: "breaking",
            spawn: ({}, {}),
            goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
            kill_y_m: -30.0,
            solids: [(shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0)))],
            {objects}
        )"#,
        spawn.0, spawn.1
    )
}

/// Fires at `target` on the first tick, then waits; returns every event with its tick.
fn hook_and_hang(world: &mut World, target: Vec2, ticks: usize) -> Vec<(u64, Event)> {
    let aim = target - world.player().pos;
    let fire = InputFrame {
        fire_pressed: true,
        aim_x: aim.x,
        aim_y: aim.y,
        ..IDLE
    };
    let mut events = Vec::new();
    for k in 0..ticks {
        let input = if k == 0 { fire } else { IDLE };
        for event in world.step(&input) {
            events.push((world.tick(), event));
        }
    }
    events
}

fn broke(events: &[(u64, Event)]) -> Vec<(u64, BreakKind)> {
    events
        .iter()
        .filter_map(|(tick, e)| match e {
            Event::Broke { kind, .. } => Some((*tick, *kind)),
            _ => None,
        })
        .collect()
}

const RING: &str =
    r#"fragile: [(anchor: Ring(at: (0.0, 10.0)), breaks_at_n: 5000.0, after_s: 0.1)],"#;

#[test]
fn a_cracked_ring_holds_a_hanging_player_but_snaps_under_a_hard_swing() {
    // Hanging still below it the player pulls ~2 800 N: under the 5 000 N rating, it holds.
    let mut hanging = common::world_from(&level((0.0, 4.0), RING));
    let events = hook_and_hang(&mut hanging, Vec2::new(0.0, 10.0), 600);
    assert!(broke(&events).is_empty(), "broke while hanging: {events:?}");
    assert!(matches!(hanging.hook(), Hook::Attached { .. }));
    let hanging_n = hanging.rope().unwrap().tension_n()[0];
    assert!(
        (2000.0..4000.0).contains(&hanging_n),
        "hanging still pulls {hanging_n} N"
    );

    // Swinging down from level with it, the pull at the bottom is ~3 × the weight: it snaps,
    // once, and the ring is gone.
    let mut swinging = common::world_from(&level((-6.0, 10.0), RING));
    let events = hook_and_hang(&mut swinging, Vec2::new(0.0, 10.0), 240);
    let breaks = broke(&events);
    assert_eq!(breaks.len(), 1, "{events:?}");
    assert_eq!(breaks[0].1, BreakKind::Ring(0));
    assert!(matches!(swinging.hook(), Hook::Idle | Hook::Flying { .. }));
    assert!(!swinging.fragile_intact(0));
    let through = swinging.geometry().cast_ray(
        Vec2::new(-3.0, 10.0),
        Vec2::new(6.0, 0.0),
        groups::GRAPPLE_POINT,
    );
    assert!(through.is_none(), "the snapped ring still stops a hook");
}

#[test]
fn a_break_needs_the_pull_to_last_its_time() {
    // The same swing against a ring that needs the pull for a whole second: the peak passes
    // and it holds.
    let patient = RING.replace("after_s: 0.1", "after_s: 1.0");
    let mut world = common::world_from(&level((-6.0, 10.0), &patient));
    let events = hook_and_hang(&mut world, Vec2::new(0.0, 10.0), 240);
    assert!(broke(&events).is_empty());
    assert!(world.fragile()[0].ticks < 120);
}

#[test]
fn the_player_flies_off_a_break_with_the_ropes_velocity() {
    let mut world = common::world_from(&level((-6.0, 10.0), RING));
    let aim = Vec2::new(0.0, 10.0) - world.player().pos;
    world.step(&InputFrame {
        fire_pressed: true,
        aim_x: aim.x,
        aim_y: aim.y,
        ..IDLE
    });
    let gravity = common::tuning().player.gravity_m_per_s2;
    let dt = 1.0 / 120.0;
    for _ in 0..240 {
        let events = world.step(&IDLE);
        if events.iter().any(|e| matches!(e, Event::Broke { .. })) {
            // The tick it broke on, the player moved as the rope let them and keeps that
            // velocity; the next tick is free flight from it: gravity only.
            let (pos, vel) = (world.player().pos, world.player().vel);
            assert!(vel.length() > 5.0, "broke at {vel} m/s");
            world.step(&IDLE);
            let expected_vel = vel - Vec2::new(0.0, gravity * dt);
            let moved = world.player().pos - pos;
            assert!(
                (world.player().vel - expected_vel).length() < 1e-3,
                "velocity {} after the break, expected {expected_vel}",
                world.player().vel
            );
            assert!((moved - expected_vel * dt).length() < 1e-4, "moved {moved}");
            return;
        }
    }
    panic!("the ring never broke");
}

const BEAM: &str = r#"fragile: [(id: "rotten", anchor: Beam(shape: Box(center: (0.0, 10.0), half_extents: (1.5, 0.25))),
                              breaks_at_n: 1500.0, after_s: 0.5)],"#;

#[test]
fn a_rotten_beam_crumbles_after_its_time_and_a_death_mends_it() {
    let mut world = common::world_from(&level((0.0, 4.0), BEAM));
    let events = hook_and_hang(&mut world, Vec2::new(0.0, 9.75), 300);
    let attached_at = events
        .iter()
        .find(|(_, e)| matches!(e, Event::HookAttached { .. }))
        .map(|(t, _)| *t)
        .expect("the hook sticks in the beam");
    let breaks = broke(&events);
    assert_eq!(breaks.len(), 1, "{events:?}");
    assert_eq!(breaks[0].1, BreakKind::Beam(0));
    // Hanging pulls more than 1 500 N from the first ticks on, so it gives way half a second
    // (60 ticks) after, give or take the rope's first ticks of settling.
    let held_ticks = breaks[0].0 - attached_at;
    assert!((60..=70).contains(&held_ticks), "held {held_ticks} ticks");
    // The beam is gone: nothing stops a ray through it any more.
    let through =
        world
            .geometry()
            .cast_ray(Vec2::new(0.0, 8.0), Vec2::new(0.0, 4.0), groups::SOLID);
    assert!(through.is_none());
    // A death puts it back.
    let mut fall = world.clone();
    fall.place_player(Vec2::new(0.0, -40.0));
    fall.step(&IDLE);
    assert_eq!(fall.deaths(), 1);
    assert!(fall.fragile_intact(0));
    let through = fall
        .geometry()
        .cast_ray(Vec2::new(0.0, 8.0), Vec2::new(0.0, 4.0), groups::SOLID);
    assert!(through.is_some());
}

#[test]
fn a_fragile_rope_snaps_and_its_pieces_whip_then_go() {
    let text = level(
        (-6.0, 10.0),
        r#"grapple_points: [(0.0, 10.0)], fragile_rope: (breaks_at_n: 5000.0, after_s: 0.05),"#,
    );
    let mut world = common::world_from(&text);
    let events = hook_and_hang(&mut world, Vec2::new(0.0, 10.0), 60);
    let breaks = broke(&events);
    assert_eq!(breaks.len(), 1, "{events:?}");
    assert_eq!(breaks[0].1, BreakKind::Rope);
    assert!(matches!(world.hook(), Hook::Idle));
    // Two pieces: one still hanging from the ring, one in the player's hand.
    assert_eq!(world.loose_ropes().len(), 2);
    assert!(!world.loose_ropes()[0].held_by_player);
    assert!(world.loose_ropes()[1].held_by_player);
    assert_eq!(world.loose_ropes()[0].rope.anchor(), Vec2::new(0.0, 10.0));
    // The ring itself is fine: it still stops a hook in the live geometry, and a new rope
    // hooks it at once, the snapped piece still hanging from it...
    let through = world.geometry().cast_ray(
        Vec2::new(-3.0, 10.0),
        Vec2::new(6.0, 0.0),
        groups::GRAPPLE_POINT,
    );
    assert!(through.is_some(), "the ring went with the rope");
    // (Swinging, that rope may snap in its turn.)
    assert_hooks_again(world.clone(), Vec2::new(0.0, 10.0));
    // After a second and a half the pieces are drawn in.
    for _ in 0..181 {
        world.step(&IDLE);
    }
    assert!(world.loose_ropes().is_empty());
    // ...and after, when the player hangs from it again.
    assert_hooks_again(world.clone(), Vec2::new(0.0, 10.0));
    hook_and_hang(&mut world, Vec2::new(0.0, 10.0), 120);
    match world.hook() {
        Hook::Attached { rope, .. } => assert_eq!(rope.anchor(), Vec2::new(0.0, 10.0)),
        other => panic!("the new rope did not hold: {other:?}"),
    }
    // A plain ring with no fragile rope never snaps.
    let sturdy = text.replace("fragile_rope: (breaks_at_n: 5000.0, after_s: 0.05),", "");
    let mut world = common::world_from(&sturdy);
    assert!(broke(&hook_and_hang(&mut world, Vec2::new(0.0, 10.0), 240)).is_empty());
}

/// Fires at the ring at `at`: the hook must catch there.
fn assert_hooks_again(mut world: World, at: Vec2) {
    let events = hook_and_hang(&mut world, at, 30);
    assert!(
        events
            .iter()
            .any(|(_, e)| matches!(e, Event::HookAttached { at: hooked, .. } if *hooked == at)),
        "no re-hook: {events:?}"
    );
}

#[test]
fn the_same_run_breaks_the_same_way() {
    let run = || {
        let mut world = common::world_from(&level((-6.0, 10.0), RING));
        let breaks = broke(&hook_and_hang(&mut world, Vec2::new(0.0, 10.0), 300));
        (breaks, world.state_hash())
    };
    let (breaks, hash) = run();
    // Something broke, or two equal runs would show only that nothing happened twice.
    assert_eq!(breaks.len(), 1, "{breaks:?}");
    assert_eq!(breaks[0].1, BreakKind::Ring(0));
    assert_eq!((breaks, hash), run());
}

#[test]
fn bad_ratings_are_refused_with_a_message() {
    let cases = [
        (
            r#"fragile: [(anchor: Ring(at: (0.0, 10.0)), breaks_at_n: -5.0)],"#,
            "fragile[0]: breaks_at_n must be between 100 and 1000000, got -5",
        ),
        (
            r#"fragile: [(anchor: Ring(at: (0.0, 10.0)), breaks_at_n: NaN)],"#,
            "fragile[0]: breaks_at_n must be between 100 and 1000000, got NaN",
        ),
        (
            r#"fragile: [(anchor: Ring(at: (0.0, 10.0)), breaks_at_n: 900.0, after_s: 100.0)],"#,
            "fragile[0]: after_s must be between 0 and 60, got 100",
        ),
        (
            r#"fragile: [(anchor: Ring(at: (inf, 10.0)), breaks_at_n: 900.0)],"#,
            "fragile[0].anchor.at: x is not a finite number",
        ),
        (
            r#"fragile: [(anchor: Beam(shape: Circle(center: (0.0, 9.0), radius: 0.0)), breaks_at_n: 900.0)],"#,
            "fragile[0].anchor: radius must be positive, got 0",
        ),
        (
            r#"fragile_rope: (breaks_at_n: 0.0),"#,
            "fragile_rope: breaks_at_n must be between 100 and 1000000, got 0",
        ),
    ];
    for (objects, expected) in cases {
        let message = LevelDef::from_ron(&level((0.0, 4.0), objects), "b.ron")
            .unwrap_err()
            .to_string();
        assert!(message.contains(expected), "{objects}: {message}");
    }
}
