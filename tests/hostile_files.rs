//! Files from strangers: each kind of hostile file is refused with a message naming the file and
//! what is wrong, quickly, without a panic, and without echoing characters a terminal would
//! interpret. The limits are in `sim::limits`.

mod common;

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use tether::cli::LoadError;
use tether::files::{read_bounded, resolve_in_dir, PathError};
use tether::sim::limits::{self, PathProblem, MAX_LEVEL_FILE_BYTES, MAX_REPLAY_TICKS};
use tether::sim::{LevelDef, LevelIndex, Replay};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tether-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn level_with_name(name: &str) -> String {
    format!(
        r#"Level(name: "{name}", spawn: (0.0, 1.0), goal: (min: (5.0, 0.0), max: (6.0, 2.0)),
            solids: [(shape: Box(center: (0.0, -1.0), half_extents: (10.0, 1.0)))])"#
    )
}

/// The message loading the level file at `path` fails with.
fn load_error(path: &Path) -> String {
    match tether::cli::load_world(path, common::tuning()) {
        Ok(_) => panic!("{} was accepted", path.display()),
        Err(err) => err.to_string(),
    }
}

fn level_error(text: &str) -> String {
    LevelDef::from_ron(text, "hostile.ron")
        .expect_err("refused")
        .to_string()
}

#[test]
fn an_endless_special_file_is_refused_at_the_limit() {
    // /dev/zero never ends and has no size: reading stops one byte past the limit.
    let err = read_bounded(Path::new("/dev/zero"), MAX_LEVEL_FILE_BYTES).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidData);
    assert!(err.to_string().contains("at most"), "{err}");
    let message = load_error(Path::new("/dev/zero"));
    assert!(
        message.starts_with("/dev/zero: "),
        "names the file: {message}"
    );
}

#[test]
fn an_oversized_or_binary_file_is_refused_before_parsing() {
    let dir = temp_dir("size");
    let big = dir.join("big.ron");
    std::fs::write(&big, vec![b' '; MAX_LEVEL_FILE_BYTES as usize + 1]).unwrap();
    let message = load_error(&big);
    assert!(
        message.contains("big.ron") && message.contains("at most"),
        "{message}"
    );
    let binary = dir.join("binary.ron");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let message = load_error(&binary);
    assert!(message.contains("not UTF-8"), "{message}");
    let missing = read_bounded(&dir.join("none.ron"), 10).unwrap_err();
    assert_eq!(
        missing.kind(),
        ErrorKind::NotFound,
        "missing stays NotFound"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let text = format!(
        "Level(name: \"deep\", spawn: {}0.0{}, goal: (min: (5.0, 0.0), max: (6.0, 2.0)))",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let message = level_error(&text);
    assert!(message.starts_with("hostile.ron:1:"), "{message}");
}

#[test]
fn shown_text_with_control_characters_is_refused_and_never_echoed() {
    for evil in [
        "clear\u{1b}[2J",
        "bell\u{7}",
        "rtl\u{202e}gnp.exe",
        "new\nline",
    ] {
        let message = level_error(&level_with_name(&evil.replace('\n', "\\n")));
        assert!(
            message.contains("name: holds the control character"),
            "{message}"
        );
        assert!(
            !message.chars().any(|c| c.is_control() && c != '\n'),
            "raw control characters in {message:?}"
        );
    }
    let long = "x".repeat(limits::MAX_LEVEL_NAME_CHARS + 1);
    assert!(level_error(&level_with_name(&long)).contains("characters long"));
    // An unknown field's name is quoted by the parser: escaped, not raw.
    let message =
        level_error(&level_with_name("ok").replace("spawn:", "sp\u{1b}awn: (0.0, 0.0), spawn:"));
    assert!(!message.contains('\u{1b}'), "{message:?}");
}

#[test]
fn an_index_may_not_leave_the_levels_folder() {
    for (entry, what) in [
        ("../../etc/passwd", "leaves the levels folder"),
        ("/etc/passwd", "absolute"),
        ("a\\\\b.ron", "may use only"),
    ] {
        let text = format!(
            "(worlds: [(name: \"W\", levels: [(file: \"01_first_swing.ron\"), (file: \"{entry}\")])])"
        );
        let err = LevelIndex::from_ron(&text, "index.ron")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("index.ron: worlds[0].levels[1]: ") && err.contains(what),
            "{entry}: {err}"
        );
    }
    let many: Vec<String> = (0..=limits::MAX_INDEX_LEVELS)
        .map(|i| format!("(file: \"l{i}.ron\")"))
        .collect();
    let text = format!("(worlds: [(name: \"W\", levels: [{}])])", many.join(","));
    let err = LevelIndex::from_ron(&text, "index.ron")
        .unwrap_err()
        .to_string();
    assert!(err.contains("at most"), "{err}");
}

#[test]
fn a_link_out_of_the_levels_folder_is_refused() {
    let dir = temp_dir("link");
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    std::fs::write(dir.join("outside.ron"), level_with_name("outside")).unwrap();
    std::os::unix::fs::symlink(dir.join("outside.ron"), levels.join("sneaky.ron")).unwrap();
    std::fs::write(levels.join("inside.ron"), level_with_name("inside")).unwrap();
    assert!(resolve_in_dir(&levels, "inside.ron").is_ok());
    let err = resolve_in_dir(&levels, "sneaky.ron").unwrap_err();
    assert_eq!(
        err,
        PathError::LeadsOut {
            written: "sneaky.ron".into(),
            dir: levels.clone()
        }
    );
    assert!(err.to_string().contains("leads out of"), "{err}");
    let err = resolve_in_dir(&levels, "../outside.ron").unwrap_err();
    assert!(
        matches!(err, PathError::Refused(PathProblem::LeavesFolder { .. })),
        "{err}"
    );
    assert!(
        err.to_string().contains("leaves the levels folder"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn replay_error(text: &str) -> String {
    Replay::from_ron(text, "hostile_replay.ron")
        .expect_err("refused")
        .to_string()
}

#[test]
fn replays_are_bounded_in_length_and_range() {
    let run = |count: u64, fields: &str| format!("({count}, ({fields}))");
    let replay =
        |level: &str, runs: &[String]| format!("(level: \"{level}\", runs: [{}])", runs.join(", "));
    // Too long to run in bounded time: over an hour of ticks.
    let half = MAX_REPLAY_TICKS / 2 + 1;
    let err = replay_error(&replay(
        "01_first_swing.ron",
        &[run(half, "move_x: 1"), run(half, "move_x: -1")],
    ));
    assert!(err.starts_with("hostile_replay.ron: lasts"), "{err}");
    for (fields, what) in [
        ("move_x: 5", "runs[1]: move_x is 5"),
        ("reel: -2", "runs[1]: reel is -2"),
        ("wheel_notches: 100", "runs[1]: wheel_notches is 100"),
        ("aim_x: inf", "runs[1]: aim"),
        ("aim_y: NaN", "runs[1]: aim"),
        ("aim_x: 1e9", "runs[1]: aim"),
    ] {
        let err = replay_error(&replay("01_first_swing.ron", &[run(3, ""), run(2, fields)]));
        assert!(err.contains(what), "{fields}: {err}");
    }
    let err = replay_error(&replay("../../secret.ron", &[run(1, "")]));
    assert!(
        err.contains("level: ") && err.contains("leaves the levels folder"),
        "{err}"
    );
    let err =
        replay_error("(level: \"01_first_swing.ron\", runs: [], assists: (game_speed_percent: 7))");
    assert!(err.contains("game_speed_percent 7"), "{err}");
    // And the command says so by name, exiting 2 rather than running anything.
    let dir = temp_dir("replay");
    let path = dir.join("evil.ron");
    std::fs::write(&path, replay("../../secret.ron", &[run(1, "")])).unwrap();
    let err = tether::cli::run_replay_file(&common::root(), &path).unwrap_err();
    assert!(
        matches!(&err, LoadError::Ron(e) if e.file == path.display().to_string()),
        "{err}"
    );
    let message = err.to_string();
    assert!(
        message.contains("evil.ron") && message.contains("levels folder"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_shipped_file_is_within_the_limits() {
    for level in common::level_files() {
        assert!(tether::cli::load_world(&level, common::tuning()).is_ok());
    }
    let solutions = common::root().join("levels/solutions");
    for entry in std::fs::read_dir(solutions).unwrap() {
        let path = entry.unwrap().path();
        let outcome = tether::cli::run_replay_file(&common::root(), &path);
        assert!(outcome.is_ok(), "{}: {outcome:?}", path.display());
    }
}
