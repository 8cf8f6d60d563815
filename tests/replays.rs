//! Every shipped level has a solution replay that reaches the goal when run headless through
//! the real simulation: proof the level can be finished and the simulation is deterministic.

mod common;

use tether::sim::Replay;

#[test]
fn every_solution_replay_reaches_its_goal() {
    let dir = common::root().join("levels/solutions");
    let mut count = 0;
    for level in common::level_files() {
        let path = dir.join(level.file_name().unwrap());
        let outcome = tether::cli::run_replay_file(&common::root(), &path).expect("replay runs");
        assert!(outcome.goal_reached, "{}: {outcome}", path.display());
        assert_eq!(
            outcome.deaths,
            0,
            "{}: solutions are clean runs",
            path.display()
        );
        count += 1;
    }
    assert!(count >= 3);
}

#[test]
fn the_same_replay_gives_the_same_state_hash_twice() {
    let path = common::root().join("levels/solutions/03_chain.ron");
    let a = tether::cli::run_replay_file(&common::root(), &path).unwrap();
    let b = tether::cli::run_replay_file(&common::root(), &path).unwrap();
    assert_eq!(a, b);
}

#[test]
fn replays_round_trip_through_ron_exactly() {
    let path = common::root().join("levels/solutions/01_first_swing.ron");
    let replay = Replay::from_ron(&common::read(&path), "r").unwrap();
    let again = Replay::from_ron(&replay.to_ron(), "r").unwrap();
    assert_eq!(replay, again);
    assert!(replay.tick_count() > 100);
}

#[test]
fn a_tampered_replay_does_not_reach_the_goal() {
    // The goal is reached because of the inputs, not regardless of them.
    let path = common::root().join("levels/solutions/01_first_swing.ron");
    let mut replay = Replay::from_ron(&common::read(&path), "r").unwrap();
    for (_, input) in &mut replay.runs {
        input.fire_pressed = false;
    }
    let mut world = tether::cli::load_world(
        &common::root().join("levels").join(&replay.level),
        common::tuning(),
    )
    .unwrap();
    assert!(!replay.run(&mut world).goal_reached);
}
