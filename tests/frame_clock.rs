//! The front end's clock and input, driven the way the game loop drives them (poll the devices
//! once per frame, then run the ticks the clock says are due, each taking one input): a frame
//! runs at most the stated ticks and drops the rest, no press is lost or doubled at any frame
//! rate, and drawing never blends the position before a death with the one after the respawn.

mod common;

use tether::app::frame_clock::{FrameClock, MAX_FRAME_TIME_S, MAX_TICKS_PER_FRAME};
use tether::app::input::latch::{FramePresses, HeldInput, InputLatch};
use tether::app::render::Snapshot;
use tether::sim::math::Vec2;
use tether::sim::{Event, InputFrame, TICKS_PER_SECOND, TICK_DT_S};

#[test]
fn steady_frame_rates_run_the_tick_rate() {
    for hz in [30u32, 60, 120, 144, 240] {
        let mut clock = FrameClock::default();
        let ticks: u32 = (0..hz * 10).map(|_| clock.advance(1.0 / hz as f32)).sum();
        let wanted = TICKS_PER_SECOND * 10;
        assert!(
            ticks.abs_diff(wanted) <= 1,
            "{hz} Hz ran {ticks} ticks in 10 s, not {wanted}"
        );
        assert!((0.0..=1.0).contains(&clock.alpha()));
    }
}

#[test]
fn a_slow_frame_runs_at_most_the_maximum_and_drops_the_rest() {
    let mut clock = FrameClock::default();
    assert_eq!(clock.advance(1.0 / 60.0), 2);
    // A 2 s stall (a tab switch): clamped, capped, and the debt is dropped, not paid later.
    assert_eq!(clock.advance(2.0), MAX_TICKS_PER_FRAME);
    assert_eq!(clock.alpha(), 0.0, "nothing owed after dropping");
    assert_eq!(clock.advance(1.0 / 60.0), 2, "back to normal at once");
    // Just over the maximum: still capped.
    let mut clock = FrameClock::default();
    assert_eq!(
        clock.advance((MAX_TICKS_PER_FRAME + 1) as f32 * TICK_DT_S + 1e-4),
        MAX_TICKS_PER_FRAME
    );
    assert_eq!(clock.advance(0.0), 0, "the dropped tick does not come back");
    // Exactly the maximum is run, nothing dropped.
    let mut clock = FrameClock::default();
    assert_eq!(
        clock.advance(MAX_TICKS_PER_FRAME as f32 * TICK_DT_S + 1e-5),
        MAX_TICKS_PER_FRAME
    );
    assert!(clock.alpha() < 0.1);
    // Nonsense frame times run nothing.
    for bad in [f32::NAN, f32::INFINITY, -1.0] {
        let mut clock = FrameClock::default();
        assert_eq!(clock.advance(bad), 0, "{bad}");
    }
    assert!(MAX_FRAME_TIME_S / TICK_DT_S > MAX_TICKS_PER_FRAME as f32);
}

/// Plays `frames` (duration, presses) through the clock and latch as the game loop does; returns
/// the inputs the ticks received.
fn play(frames: &[(f32, FramePresses)]) -> Vec<InputFrame> {
    let mut clock = FrameClock::default();
    let mut latch = InputLatch::default();
    let mut ticks = Vec::new();
    for (frame_s, presses) in frames {
        latch.latch(*presses);
        for _ in 0..clock.advance(*frame_s) {
            ticks.push(latch.take_with(HeldInput::default(), Vec2::ZERO));
        }
    }
    ticks
}

/// Frame durations from a small deterministic generator: 1 ms to 300 ms.
fn jittered_frames(count: usize) -> Vec<f32> {
    let mut state = 0x2545_f491_u32;
    (0..count)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            0.001 + (state % 300) as f32 / 1000.0
        })
        .collect()
}

#[test]
fn every_press_reaches_exactly_one_tick_at_any_frame_rate() {
    let press = FramePresses {
        jump: true,
        fire: true,
        release: true,
        wheel_y: 0.0,
    };
    let mut cases: Vec<(&str, Vec<f32>)> = vec![
        ("240 Hz, presses between ticks", vec![1.0 / 240.0; 480]),
        ("15 Hz, 8 ticks a frame", vec![1.0 / 15.0; 60]),
        ("1000 Hz", vec![0.001; 2000]),
    ];
    cases.push(("jittered", jittered_frames(400)));
    for (name, durations) in cases {
        // A press on every 9th frame: at least two ticks apart at every rate here, so two
        // presses never share one tick.
        let mut frames = Vec::new();
        let mut elapsed = 0.0f32;
        let mut last_press_s = f32::MIN;
        let mut presses = 0;
        for (i, &d) in durations.iter().enumerate() {
            let now = i % 9 == 4 && elapsed - last_press_s > 2.5 * TICK_DT_S;
            if now {
                presses += 1;
                last_press_s = elapsed;
            }
            frames.push((d, if now { press } else { FramePresses::default() }));
            elapsed += d;
        }
        // Trailing idle frames so the last press is consumed.
        frames.push((0.1, FramePresses::default()));
        let ticks = play(&frames);
        for (field, count) in [
            ("jump", ticks.iter().filter(|t| t.jump_pressed).count()),
            ("fire", ticks.iter().filter(|t| t.fire_pressed).count()),
            (
                "release",
                ticks.iter().filter(|t| t.release_pressed).count(),
            ),
        ] {
            assert_eq!(
                count, presses,
                "{name}: {field} presses reached {count} ticks"
            );
        }
        assert!(presses >= 5, "{name}: only {presses} presses");
    }
}

#[test]
fn wheel_notches_between_ticks_all_arrive_on_the_next_tick() {
    let notch = |wheel_y: f32| FramePresses {
        wheel_y,
        ..Default::default()
    };
    // Three notches (browsers report pixels) in three 1 ms frames, then a frame with a tick.
    let frames = [
        (0.001, notch(120.0)),
        (0.001, notch(120.0)),
        (0.001, notch(-3.0)),
        (0.001, notch(53.0)),
        (TICK_DT_S, FramePresses::default()),
        (TICK_DT_S, FramePresses::default()),
    ];
    let ticks = play(&frames);
    let notches: Vec<i8> = ticks.iter().map(|t| t.wheel_notches).collect();
    assert_eq!(notches, vec![2, 0], "+1 +1 -1 +1 in one tick, then none");
}

#[test]
fn a_latched_jump_makes_the_world_jump_once() {
    // Through the real simulation: a press in a frame with no tick jumps exactly once.
    let mut world = common::world_from(
        r#"Level(
            name: "floor",
            spawn: (0.0, 0.5),
            goal: (min: (50.0, 0.0), max: (52.0, 2.0)),
            solids: [(shape: Box(center: (0.0, -1.0), half_extents: (20.0, 1.0)))],
        )"#,
    );
    for _ in 0..30 {
        world.step(&InputFrame::default());
    }
    assert!(world.player().grounded);
    let mut frames = vec![(0.001, FramePresses::default()); 3];
    frames[1].1.jump = true;
    frames.extend(vec![(1.0 / 30.0, FramePresses::default()); 60]);
    let jumps = play(&frames)
        .iter()
        .flat_map(|input| world.step(input))
        .filter(|e| *e == Event::Jumped)
        .count();
    assert_eq!(jumps, 1);
}

#[test]
fn drawing_never_blends_across_a_respawn() {
    let mut world = common::world_from(
        r#"Level(
            name: "spikes",
            spawn: (0.0, 0.5),
            goal: (min: (50.0, 0.0), max: (52.0, 2.0)),
            solids: [(shape: Box(center: (0.0, -1.0), half_extents: (20.0, 1.0)))],
            hazards: [Box(center: (6.0, 0.5), half_extents: (0.5, 0.5))],
        )"#,
    );
    let run = InputFrame {
        move_x: 1,
        ..Default::default()
    };
    let mut checked_normal = false;
    for _ in 0..600 {
        let prev = Snapshot::of(&world);
        let events = world.step(&run);
        let now = Snapshot::of(&world);
        let died = events.iter().any(|e| matches!(e, Event::Died { .. }));
        for alpha in [0.0, 0.3, 0.5, 0.99] {
            let shown = Snapshot::interpolate(&prev, &now, alpha, world.teleported_at_tick());
            if died {
                assert_eq!(
                    shown.player_pos, now.player_pos,
                    "alpha {alpha}: a frame drawn between the death at {:?} and the respawn",
                    prev.player_pos
                );
            } else if prev.player_pos.distance(now.player_pos) > 0.01 {
                // An ordinary moving tick is blended (so the check above can tell the two apart).
                let expected = prev.player_pos.lerp(now.player_pos, alpha);
                assert!(shown.player_pos.distance(expected) < 1e-5);
                checked_normal = true;
            }
        }
        if died {
            assert!(
                checked_normal,
                "ordinary ticks were checked before the death"
            );
            return;
        }
    }
    panic!("the player never reached the hazard");
}
