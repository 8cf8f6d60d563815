//! The campaign: the index's author times are what the solutions take, progress and ghosts are
//! kept and survive bad files, and stored runs replay exactly.

mod common;

use std::path::Path;

use tether::app::progress_store::{GhostError, ProgressStore, PROGRESS_FILE};
use tether::campaign::{Medal, Progress};
use tether::sim::{InputFrame, LevelIndex, Replay};

fn index() -> LevelIndex {
    let root = common::root();
    LevelIndex::from_ron(&common::read(&root.join("levels/index.ron")), "index.ron").unwrap()
}

fn solution(file: &str) -> Replay {
    let path = common::root().join("levels/solutions").join(file);
    Replay::from_ron(&common::read(&path), file).unwrap()
}

fn run(replay: &Replay) -> tether::sim::ReplayOutcome {
    let root = common::root();
    let mut world =
        tether::cli::load_world(&root.join("levels").join(&replay.level), common::tuning())
            .unwrap();
    replay.run(&mut world)
}

#[test]
fn every_author_time_is_its_solutions_time_to_the_goal() {
    for (_, level) in index().levels() {
        let outcome = run(&solution(&level.file));
        assert!(
            outcome.goal_reached && outcome.deaths == 0,
            "{}: {outcome}",
            level.file
        );
        assert_eq!(
            level.author_ticks,
            Some(outcome.ticks),
            "{}: levels/index.ron's author_ticks must be the solution's {} ticks",
            level.file,
            outcome.ticks
        );
    }
}

/// Aims on ticks that do not fire: the simulation never reads them.
fn unread_aims(replay: &Replay) -> usize {
    replay
        .frames()
        .filter(|i| !i.fire_pressed && (i.aim_x != 0.0 || i.aim_y != 0.0))
        .count()
}

#[test]
fn a_stored_run_without_its_unread_aims_replays_the_same() {
    for (_, level) in index().levels() {
        // The solutions are stored compact; a recording keeps an aim on every tick (the camera
        // moves, so the offset changes), as the game's recorder does.
        let solution = solution(&level.file);
        let mut recorded = Replay::new(solution.level.clone());
        recorded.assists = solution.assists;
        for (tick, input) in solution.frames().enumerate() {
            let mut input = *input;
            if !input.fire_pressed {
                input.aim_x = 2.0 + (tick % 13) as f32 * 0.25;
                input.aim_y = 1.5 - (tick % 7) as f32 * 0.5;
            }
            recorded.push(input);
        }
        let compact = recorded.without_unread_aims();
        assert!(unread_aims(&recorded) > 0, "{}", level.file);
        assert_eq!(unread_aims(&compact), 0, "{}", level.file);
        // Only the unread aims go: every other input, and the aim of every tick that fires,
        // is kept, so the run is the same.
        assert_eq!(compact.tick_count(), recorded.tick_count());
        for (kept, was) in compact.frames().zip(recorded.frames()) {
            let unaimed = |i: &InputFrame| InputFrame {
                aim_x: 0.0,
                aim_y: 0.0,
                ..*i
            };
            assert_eq!(unaimed(kept), unaimed(was), "{}", level.file);
            if was.fire_pressed {
                assert_eq!(kept, was, "{}", level.file);
            }
        }
        let outcome = run(&recorded);
        assert!(outcome.goal_reached, "{}: {outcome}", level.file);
        assert_eq!(run(&compact), outcome, "{}", level.file);
        assert!(compact.runs.len() < recorded.runs.len(), "{}", level.file);
        assert!(compact.to_ron().len() < recorded.to_ron().len());
    }
}

fn store(dir: &Path) -> ProgressStore {
    ProgressStore::in_folder(dir)
}

#[test]
fn progress_and_ghosts_round_trip_through_the_store() {
    let dir = common::temp_dir("campaign", "round-trip");
    let store = store(&dir);
    let fresh = store.load();
    assert!(fresh.problem.is_none() && fresh.may_save);
    assert_eq!(fresh.progress, Progress::default());

    let mut progress = Progress::default();
    progress.record_finish("01_first_swing.ron", 177, &[], true, Some(177));
    store.save(&progress).unwrap();
    assert!(
        !dir.join(format!("{PROGRESS_FILE}.tmp")).exists(),
        "no temporary file left"
    );
    let loaded = store.load();
    assert_eq!(loaded.progress, progress);
    assert_eq!(
        loaded.progress.record("01_first_swing.ron").unwrap().medal,
        Some(Medal::Author)
    );

    let run = solution("01_first_swing.ron").without_unread_aims();
    store.save_ghost("01_first_swing.ron", &run).unwrap();
    assert_eq!(store.load_ghost("01_first_swing.ron").unwrap(), Some(run));
    assert_eq!(store.load_ghost("02_reel_up.ron").unwrap(), None);
}

#[test]
fn a_corrupt_save_is_kept_aside_reported_and_play_starts_fresh() {
    let dir = common::temp_dir("campaign", "corrupt");
    let store = store(&dir);
    let path = dir.join(PROGRESS_FILE);
    for (i, (bad, reason)) in [
        (
            "(version: 1, levels: {\"a.ron\": (finished: tr",
            "1:42: Expected boolean",
        ),
        ("(version: 7)", "newer"),
        ("\u{0}\u{1}binary", "1:1: Expected opening `(`"),
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(&path, bad).unwrap();
        let loaded = store.load();
        let problem = loaded.problem.expect("reported");
        let kept = dir.join(format!("{PROGRESS_FILE}.corrupt-{}", i + 1));
        // The file, then why it could not be read (the path alone names the file twice over).
        assert!(
            problem.starts_with(&format!("{}:", path.display())),
            "{problem}"
        );
        assert!(problem.contains(reason), "{problem}");
        assert!(problem.contains(&kept.display().to_string()), "{problem}");
        assert!(loaded.may_save);
        assert_eq!(loaded.progress, Progress::default());
        assert_eq!(
            std::fs::read_to_string(&kept).unwrap(),
            *bad,
            "the old file is kept"
        );
        assert!(!path.exists());
    }
    // Newer saves name the reason.
    std::fs::write(&path, "(version: 7)").unwrap();
    assert!(store.load().problem.unwrap().contains("newer"));
}

#[test]
fn an_oversized_save_is_kept_aside_without_being_parsed() {
    let dir = common::temp_dir("campaign", "huge");
    let path = dir.join(PROGRESS_FILE);
    let huge = "x".repeat(tether::sim::limits::MAX_SAVE_FILE_BYTES as usize + 10);
    std::fs::write(&path, &huge).unwrap();
    let loaded = store(&dir).load();
    assert!(loaded.problem.unwrap().contains("at most"));
    assert_eq!(
        std::fs::read_to_string(dir.join(format!("{PROGRESS_FILE}.corrupt-1")))
            .unwrap()
            .len(),
        huge.len()
    );
}

#[test]
fn a_save_that_cannot_be_moved_aside_is_left_alone_and_not_overwritten() {
    let dir = common::temp_dir("campaign", "stuck");
    let path = dir.join(PROGRESS_FILE);
    std::fs::write(&path, "broken").unwrap();
    // Every spot for a copy is taken.
    for n in 1..=20 {
        std::fs::write(dir.join(format!("{PROGRESS_FILE}.corrupt-{n}")), "old").unwrap();
    }
    let loaded = store(&dir).load();
    assert!(!loaded.may_save, "saving would lose the file");
    assert!(loaded.problem.unwrap().contains("not lost"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "broken");
}

#[test]
fn a_bad_ghost_is_reported_and_ignored() {
    let dir = common::temp_dir("campaign", "ghost");
    let store = store(&dir);
    std::fs::create_dir_all(dir.join("ghosts")).unwrap();
    let ghost = dir.join("ghosts/02_reel_up.ron");
    // A run of another level.
    std::fs::write(&ghost, solution("01_first_swing.ron").to_ron()).unwrap();
    let err = store.load_ghost("02_reel_up.ron").unwrap_err();
    assert!(
        matches!(&err, GhostError::OtherLevel { run_level, .. } if run_level == "01_first_swing.ron"),
        "{err}"
    );
    let err = err.to_string();
    assert!(err.contains("not of \"02_reel_up.ron\""), "{err}");
    std::fs::write(
        &ghost,
        "(level: \"02_reel_up.ron\", runs: [(1, (move_x: 9))])",
    )
    .unwrap();
    let err = store.load_ghost("02_reel_up.ron").unwrap_err().to_string();
    assert!(err.contains("02_reel_up.ron"), "{err}");
    // ...and which input of the run is out of range.
    assert!(err.contains("runs[0]: move_x is 9"), "{err}");
    assert!(ghost.exists(), "the file stays");
    // A level name that leaves the folder is refused before any file is touched.
    assert!(store.load_ghost("../progress.ron").is_err());
}

#[test]
fn the_campaign_has_three_worlds_of_at_least_eight_levels() {
    let index = index();
    assert!(index.worlds.len() >= 3, "{} worlds", index.worlds.len());
    for world in &index.worlds {
        assert!(
            world.levels.len() >= 8,
            "world \"{}\" has {} levels",
            world.name,
            world.levels.len()
        );
    }
    assert!(index.level_count() >= 24);
}
