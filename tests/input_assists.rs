//! Assists: the game speed changes only the wall-clock pace (a replay at 50 % ends in the same
//! state as at 100 %, in twice the frames), invincibility bounces off hazards, and replays keep
//! their assists while older replays without any still load.

mod common;

use tether::app::frame_clock::FrameClock;
use tether::sim::{Assists, InputFrame, Replay, World};

fn solution(name: &str) -> Replay {
    let path = common::root().join("levels/solutions").join(name);
    Replay::from_ron(&common::read(&path), name).expect("solution loads")
}

fn level(name: &str) -> World {
    tether::cli::load_world(&common::root().join("levels").join(name), common::tuning())
        .expect("level loads")
}

/// Plays `replay` the way the game loop does: 60 Hz frames, each advancing the fixed-tick clock
/// by the frame time scaled by the game speed. Returns (final state hash, frames drawn).
fn play_at_speed(replay: &Replay, speed_percent: u8) -> (u64, u32) {
    let assists = Assists {
        game_speed_percent: speed_percent,
        ..Assists::default()
    };
    let mut world = level(&replay.level);
    let inputs: Vec<InputFrame> = replay.frames().copied().collect();
    let mut clock = FrameClock::default();
    let (mut next, mut frames) = (0, 0);
    while next < inputs.len() && !world.is_completed() {
        frames += 1;
        for _ in 0..clock.advance(assists.speed_factor() / 60.0) {
            if next < inputs.len() && !world.is_completed() {
                world.step(&inputs[next]);
                next += 1;
            }
        }
        assert!(frames < 1_000_000, "the clock never ran the replay out");
    }
    (world.state_hash(), frames)
}

#[test]
fn a_replay_at_half_speed_ends_in_the_same_state_in_twice_the_frames() {
    for name in ["01_first_swing.ron", "03_chain.ron"] {
        let replay = solution(name);
        let (full_hash, full_frames) = play_at_speed(&replay, 100);
        let (half_hash, half_frames) = play_at_speed(&replay, 50);
        let (slow_hash, _) = play_at_speed(&replay, 70);
        let headless = replay.run(&mut level(&replay.level));
        assert!(headless.goal_reached);
        assert_eq!(full_hash, headless.state_hash, "{name}");
        assert_eq!(half_hash, full_hash, "{name}");
        assert_eq!(slow_hash, full_hash, "{name}");
        let ratio = half_frames as f32 / full_frames as f32;
        assert!(
            (1.95..=2.05).contains(&ratio),
            "{name}: {half_frames} / {full_frames}"
        );
    }
}

#[test]
fn old_replays_load_without_assists_and_new_ones_keep_theirs() {
    let old = solution("01_first_swing.ron");
    assert_eq!(old.assists, Assists::default());
    // A replay without assists writes none (the solution files keep their form).
    assert!(!old.to_ron().contains("assists"));
    let mut assisted = old.clone();
    assisted.assists = Assists {
        game_speed_percent: 60,
        invincible: true,
        strong_aim_assist: true,
        trajectory_preview: false,
    };
    let text = assisted.to_ron();
    assert!(text.contains("assists"));
    assert_eq!(Replay::from_ron(&text, "r").unwrap(), assisted);
}

#[test]
fn invincibility_bounces_off_hazards_and_is_replayed() {
    // Run right off the ledge of level 1 into the spiked pit, never firing, then stand still.
    let mut replay = Replay::new("01_first_swing.ron");
    for tick in 0..400 {
        replay.push(InputFrame {
            move_x: i8::from(tick < 180),
            ..InputFrame::default()
        });
    }
    let plain = replay.run(&mut level("01_first_swing.ron"));
    assert!(plain.deaths > 0, "{plain}");
    replay.assists.invincible = true;
    let mut world = level("01_first_swing.ron");
    let invincible = replay.run(&mut world);
    assert_eq!(invincible.deaths, 0, "{invincible}");
    assert!(world.invincible());
    // Still in the pit, above the spikes (bounced, not fallen through).
    assert!(world.player().pos.y > -9.0, "{:?}", world.player().pos);
    // The same replay run again gives the same state: the assist is part of the replay.
    let again = replay.run(&mut level("01_first_swing.ron"));
    assert_eq!(again, invincible);
}
