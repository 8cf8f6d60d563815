//! Coyote time and jump buffering, to the tick. With 120 ticks/s and 0.1 s windows, a jump
//! pressed on the 12th tick after leaving a ledge (or before landing) still counts; the 13th
//! does not.

mod common;

use tether::sim::math::Vec2;
use tether::sim::{Event, InputFrame, Tuning, World};

/// A ledge at x ≤ 0 over a deep pit; the player starts standing near its edge.
const LEDGE: &str = r#"Level(
    name: "ledge",
    spawn: (-0.5, 0.5),
    goal: (min: (50.0, 0.0), max: (52.0, 2.0)),
    kill_y_m: -100.0,
    solids: [(shape: Box(center: (-10.0, -1.0), half_extents: (10.0, 1.0)))],
)"#;

/// Flat ground; the player starts in the air, 3 m up.
const DROP: &str = r#"Level(
    name: "drop",
    spawn: (0.0, 3.0),
    goal: (min: (50.0, 0.0), max: (52.0, 2.0)),
    solids: [(shape: Box(center: (0.0, -1.0), half_extents: (20.0, 1.0)))],
)"#;

fn settle(world: &mut World) {
    for _ in 0..60 {
        world.step(&InputFrame::default());
    }
    assert!(world.player().grounded, "player should stand on the ledge");
}

/// Walks right off the ledge; returns the world on the first airborne tick's end.
fn walk_off(world: &mut World) {
    while world.player().grounded {
        world.step(&InputFrame {
            move_x: 1,
            ..Default::default()
        });
    }
}

fn jumped(events: &[Event]) -> bool {
    events.contains(&Event::Jumped)
}

fn coyote_jump_after(ticks_airborne: u32) -> bool {
    let mut world = common::world_from(LEDGE);
    settle(&mut world);
    walk_off(&mut world);
    // `walk_off` ends on the first tick spent airborne.
    for _ in 1..ticks_airborne {
        let events = world.step(&InputFrame::default());
        assert!(!jumped(&events));
    }
    let events = world.step(&InputFrame {
        jump_pressed: true,
        jump_held: true,
        ..Default::default()
    });
    jumped(&events)
}

#[test]
fn coyote_time_allows_a_jump_for_exactly_its_window() {
    let window = Tuning::ticks(common::tuning().player.coyote_time_s);
    assert_eq!(window, 12, "tuning's coyote time is 0.1 s = 12 ticks");
    assert!(
        coyote_jump_after(1),
        "a jump right after leaving the ledge works"
    );
    assert!(
        coyote_jump_after(window),
        "a jump on the last coyote tick works"
    );
    assert!(
        !coyote_jump_after(window + 1),
        "a jump one tick later does not"
    );
}

/// Presses jump while falling, `ticks_before_landing` ticks before the player lands.
/// Presses jump `ticks_before_landing` ticks before the drop lands; returns the tick the jump
/// happened on, if it did, and the landing tick.
fn buffered_jump_tick(ticks_before_landing: u32) -> (Option<u64>, u64) {
    // Find the landing tick first.
    let mut probe = common::world_from(DROP);
    let landing_tick = loop {
        let events = probe.step(&InputFrame::default());
        if events.iter().any(|e| matches!(e, Event::Landed { .. })) {
            break probe.tick();
        }
        assert!(probe.tick() < 600, "the player never landed");
    };
    let press_tick = landing_tick - ticks_before_landing as u64;
    let mut world = common::world_from(DROP);
    let mut jumped_at = None;
    while world.tick() < landing_tick + 2 {
        let input = InputFrame {
            jump_pressed: world.tick() + 1 == press_tick,
            ..Default::default()
        };
        if jumped(&world.step(&input)) {
            jumped_at = jumped_at.or(Some(world.tick()));
        }
    }
    (jumped_at, landing_tick)
}

/// Whether a press that many ticks before landing jumps; when it does, it must be on the
/// landing tick itself (a buffered jump a tick late loses a tick of the run and feels sticky).
fn buffered_jump(ticks_before_landing: u32) -> bool {
    let (jumped_at, landing_tick) = buffered_jump_tick(ticks_before_landing);
    if let Some(tick) = jumped_at {
        assert_eq!(
            tick, landing_tick,
            "a jump pressed {ticks_before_landing} ticks before landing fired on tick {tick}, \
             not on the landing tick {landing_tick}"
        );
    }
    jumped_at.is_some()
}

#[test]
fn jump_buffer_fires_a_press_made_just_before_landing() {
    let window = Tuning::ticks(common::tuning().player.jump_buffer_time_s);
    assert_eq!(window, 12);
    assert!(buffered_jump(0), "a press on the landing tick jumps");
    assert!(buffered_jump(1));
    assert!(
        buffered_jump(window),
        "a press 12 ticks before landing still jumps"
    );
    assert!(
        !buffered_jump(window + 1),
        "a press 13 ticks early is forgotten"
    );
}

#[test]
fn holding_jump_jumps_higher_than_tapping() {
    let apex = |hold_ticks: u64| {
        let mut world = common::world_from(LEDGE);
        settle(&mut world);
        let start = world.tick();
        let mut apex = world.player().pos.y;
        for _ in 0..120 {
            let t = world.tick() - start;
            world.step(&InputFrame {
                jump_pressed: t == 0,
                jump_held: t < hold_ticks,
                ..Default::default()
            });
            apex = apex.max(world.player().pos.y);
        }
        apex - 0.46
    };
    let (tap, hold) = (apex(1), apex(60));
    assert!(
        hold > tap * 1.8,
        "held jump {hold:.2} m should clearly beat a tap {tap:.2} m"
    );
}

#[test]
fn fall_speed_is_capped_and_air_control_is_weaker_than_ground() {
    let tuning = common::tuning();
    let mut world = common::world_from(LEDGE);
    world.place_player(Vec2::new(5.0, 0.0)); // over the pit
    let mut fastest = 0.0f32;
    for _ in 0..240 {
        world.step(&InputFrame::default());
        fastest = fastest.max(-world.player().vel.y);
    }
    assert!(
        (fastest - tuning.player.max_fall_speed_m_per_s).abs() < 1e-3,
        "fall speed {fastest}"
    );
    // From rest, 5 ticks of running on the ground beat 5 ticks of steering in the air.
    let mut ground = common::world_from(LEDGE);
    settle(&mut ground);
    let mut air = common::world_from(DROP);
    for _ in 0..5 {
        ground.step(&InputFrame {
            move_x: -1,
            ..Default::default()
        });
        air.step(&InputFrame {
            move_x: 1,
            ..Default::default()
        });
    }
    assert!(ground.player().vel.x.abs() > air.player().vel.x.abs() * 1.5);
}

#[test]
fn player_does_not_stick_to_walls() {
    // Jump into a wall while pushing against it: the player must slide down, not hang.
    let level = r#"Level(
        name: "wall",
        spawn: (0.0, 0.5),
        goal: (min: (-50.0, 0.0), max: (-48.0, 2.0)),
        solids: [
            (shape: Box(center: (0.0, -1.0), half_extents: (20.0, 1.0))),
            (shape: Box(center: (2.0, 5.0), half_extents: (0.5, 5.0))),
        ],
    )"#;
    let mut world = common::world_from(level);
    for t in 0..30 {
        world.step(&InputFrame {
            move_x: 1,
            jump_pressed: t == 20,
            jump_held: true,
            ..Default::default()
        });
    }
    let mut heights = Vec::new();
    // The wall's face is at x = 1.5; the player's right side is half its width from its centre.
    let wall_face_x = 1.5;
    let half_width_m = common::tuning().player.half_width_m;
    let mut touched_wall_in_the_air = false;
    for _ in 0..150 {
        world.step(&InputFrame {
            move_x: 1,
            jump_held: true,
            ..Default::default()
        });
        heights.push(world.player().pos.y);
        let gap_m = wall_face_x - (world.player().pos.x + half_width_m);
        touched_wall_in_the_air |=
            !world.player().grounded && world.player().pos.y > 1.0 && gap_m < 0.01;
    }
    assert!(
        touched_wall_in_the_air,
        "the player pressed against the wall in the air (else this test proves nothing)"
    );
    assert!(
        world.player().grounded,
        "the player slid back down to the floor (at {:?}, vel {:?})",
        world.player().pos,
        world.player().vel
    );
    let peak = heights.iter().cloned().fold(f32::MIN, f32::max);
    assert!(peak > 1.0, "the jump happened (peak {peak})");
}
