//! Level files: every shipped level passes `check`; bad input gets located, named errors and
//! never a panic.

mod common;

use std::sync::Arc;

use tether::sim::{LevelDef, LevelError, LevelIndex, World};

fn check_text(text: &str) -> Result<World, LevelError> {
    let level = LevelDef::from_ron(text, "bad.ron")?;
    World::from_level(level, common::tuning(), "bad.ron")
}

#[test]
fn every_shipped_level_passes_check() {
    let files = common::level_files();
    assert!(files.len() >= 3, "at least three levels ship: {files:?}");
    for file in files {
        let world = tether::cli::load_world(&file, common::tuning());
        assert!(
            world.is_ok(),
            "{}: {}",
            file.display(),
            world.err().map(|e| e.to_string()).unwrap_or_default()
        );
    }
}

#[test]
fn the_index_lists_every_level_file_in_order_and_each_has_a_solution() {
    let root = common::root();
    let index = LevelIndex::from_ron(&common::read(&root.join("levels/index.ron")), "index.ron")
        .expect("index parses");
    let on_disk: Vec<String> = common::level_files()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        index.files(),
        on_disk,
        "index.ron lists the level files (sorted names = play order)"
    );
    for level in &index.files() {
        assert!(
            root.join("levels/solutions").join(level).is_file(),
            "no solution replay for {level}"
        );
    }
}

#[test]
fn syntax_errors_name_line_and_column() {
    let text = "Level(\n    name: \"x\",\n    spawn: (0.0, 1.0,\n)";
    let err = check_text(text).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, LevelError::Syntax(_)), "{message}");
    assert!(message.starts_with("bad.ron:"), "{message}");
    let LevelError::Syntax(ron) = err else {
        unreachable!()
    };
    assert!(ron.line >= 3 && ron.column > 0, "{message}");
}

#[test]
fn type_errors_name_line_and_column() {
    let text = "Level(\n  name: \"x\",\n  spawn: (0.0, 1.0),\n  goal: (min: (0, 0), max: (1, 1)),\n  solids: [(shape: Box(center: (0, 0), half_extents: \"big\"))],\n)";
    let message = check_text(text).unwrap_err().to_string();
    assert!(message.starts_with("bad.ron:5:"), "{message}");
}

const BASE: &str = r#"Level(
    name: "t",
    spawn: (0.0, 1.0),
    goal: (min: (5.0, 0.0), max: (6.0, 2.0)),
    solids: [(shape: Box(center: (0.0, -1.0), half_extents: (10.0, 1.0)))],
    SOLIDS
)"#;

fn semantic(extra: &str) -> String {
    let text = BASE.replace("SOLIDS", extra);
    match check_text(&text) {
        Err(err @ LevelError::Semantic { .. }) => err.to_string(),
        other => panic!(
            "expected a semantic error for {extra}, got {:?}",
            other.map(|_| "ok")
        ),
    }
}

#[test]
fn semantic_errors_name_the_object() {
    let cases = [
        ("hazards: [Box(center: (3.0, 1.0), half_extents: (0.0, 1.0))]", "hazards[0]", "positive"),
        ("hazards: [Circle(center: (3.0, 1.0), radius: -1.0)]", "hazards[0]", "positive"),
        ("grapple_points: [(1e30, 2.0)]", "grapple_points[0]", "beyond"),
        (
            "hazards: [Polygon(points: [(0.0, 5.0), (2.0, 5.0), (1.0, 5.5), (2.0, 7.0), (0.0, 7.0)])]",
            "hazards[0]",
            "not convex",
        ),
        (
            "hazards: [Polygon(points: [(0.0, 5.0), (2.0, 7.0), (2.0, 5.0), (0.0, 7.0)])]",
            "hazards[0]",
            "convex",
        ),
        ("hazards: [Box(center: (0.0, 1.0), half_extents: (1.0, 1.0))]", "spawn", "hazard"),
        ("checkpoints: [(min: (2.0, 2.0), max: (1.0, 3.0))]", "checkpoints[0]", "non-positive size"),
    ];
    for (extra, object, words) in cases {
        let message = semantic(extra);
        assert!(
            message.contains(&format!("bad.ron: {object}:")),
            "{extra}: {message}"
        );
        assert!(message.contains(words), "{extra}: {message}");
    }
}

#[test]
fn non_finite_numbers_spawn_in_solid_missing_goal_and_limits_are_rejected() {
    // RON spells infinity `inf` and NaN `NaN`.
    assert!(semantic("grapple_points: [(inf, 2.0)]").contains("not a finite number"));
    assert!(semantic("grapple_points: [(NaN, 2.0)]").contains("not a finite number"));
    let in_solid = BASE
        .replace("spawn: (0.0, 1.0)", "spawn: (0.0, -1.0)")
        .replace("SOLIDS", "");
    assert!(check_text(&in_solid)
        .unwrap_err()
        .to_string()
        .contains("spawn: the player"));
    let no_goal = BASE
        .replace("goal: (min: (5.0, 0.0), max: (6.0, 2.0)),", "")
        .replace("SOLIDS", "");
    let message = check_text(&no_goal).unwrap_err().to_string();
    assert!(message.contains("goal"), "{message}");
    let many: Vec<String> = (0..tether::sim::level::MAX_GRAPPLE_POINTS + 1)
        .map(|i| format!("({}.0, 9.0)", i % 50))
        .collect();
    let message = semantic(&format!("grapple_points: [{}]", many.join(",")));
    assert!(
        message.contains("grapple_points: has 501 objects, more than the limit of 500"),
        "{message}"
    );
}

#[test]
fn arbitrary_bytes_never_panic() {
    // Mutations of a real level plus random bytes: every one must give Ok or Err, not a panic.
    let real = common::read(&common::level_files()[0]);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let tuning = common::tuning();
    for case in 0..3000 {
        let mut bytes = real.as_bytes().to_vec();
        if case % 3 == 0 {
            bytes = (0..(next() % 400)).map(|_| next() as u8).collect();
        } else {
            for _ in 0..(1 + next() % 6) {
                let at = (next() as usize) % bytes.len();
                match next() % 3 {
                    0 => bytes[at] = next() as u8,
                    1 => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, b"(),:.-9e\"[]"[(next() % 11) as usize]),
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(level) = LevelDef::from_ron(&text, "fuzz.ron") {
            let _ = World::from_level(level, Arc::clone(&tuning), "fuzz.ron");
        }
    }
}

#[test]
fn malformed_tuning_names_the_file_and_is_never_replaced_by_defaults() {
    let dir = std::env::temp_dir().join(format!("tether-tuning-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(
        dir.join("assets/tuning.ron"),
        "(player: (half_width_m: 0.3,)",
    )
    .unwrap();
    let err = tether::cli::load_tuning(&dir).unwrap_err().to_string();
    assert!(err.contains("assets/tuning.ron:"), "{err}");
    let good = common::read(&common::root().join("assets/tuning.ron"));
    std::fs::write(
        dir.join("assets/tuning.ron"),
        good.replace("gravity_m_per_s2: 40.0", "gravity_m_per_s2: -4.0"),
    )
    .unwrap();
    let err = tether::cli::load_tuning(&dir).unwrap_err().to_string();
    assert!(
        err.contains("player.gravity_m_per_s2 must be a positive number"),
        "{err}"
    );
    std::fs::remove_file(dir.join("assets/tuning.ron")).unwrap();
    let err = tether::cli::load_tuning(&dir).unwrap_err();
    assert!(
        matches!(&err, tether::cli::LoadError::File(e) if e.kind.kind() == std::io::ErrorKind::NotFound),
        "{err}"
    );
    let err = err.to_string();
    assert!(err.contains("tuning.ron: cannot read"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
