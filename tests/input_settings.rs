//! The input settings file: bindings and assists round-trip, writes are atomic, and a broken
//! file is reported (file, line:column) and ignored without being overwritten.

use macroquad::input::KeyCode;
use tether::app::input::{Action, Binding};
use tether::app::settings::{InputSettings, InputSettingsStore};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tether-input-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn settings_round_trip_through_the_file_atomically() {
    let dir = temp_dir("round-trip");
    let path = dir.join("sub/input.ron");
    let store = InputSettingsStore::file(&path);
    let mut settings = InputSettings::default();
    settings
        .bindings
        .rebind(Action::Jump, 0, Binding::Key(KeyCode::C));
    settings.assists.game_speed_percent = 60;
    settings.assists.trajectory_preview = true;
    settings.comfort.screen_shake = false;
    store.save(&settings).unwrap();
    let loaded = store.load();
    assert_eq!(loaded.problem, None);
    assert_eq!(loaded.settings, settings);
    let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["input.ron"], "no temporary file is left behind");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_file_means_defaults_without_a_complaint() {
    let dir = temp_dir("missing");
    let loaded = InputSettingsStore::file(&dir.join("input.ron")).load();
    assert_eq!(loaded.settings, InputSettings::default());
    assert_eq!(loaded.problem, None);
}

#[test]
fn a_broken_file_is_reported_with_its_place_and_left_alone() {
    let dir = temp_dir("broken");
    let path = dir.join("input.ron");
    let text = "(\n    bindings: [(Jump, [\"Key:Banana\"])],\n)\n";
    std::fs::write(&path, text).unwrap();
    let loaded = InputSettingsStore::file(&path).load();
    assert_eq!(loaded.settings, InputSettings::default());
    let problem = loaded.problem.expect("reported");
    assert!(problem.contains(&path.display().to_string()), "{problem}");
    assert!(
        problem.contains(":2:"),
        "line of the bad binding: {problem}"
    );
    assert!(problem.contains("Banana"), "{problem}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "not overwritten"
    );

    std::fs::write(&path, "(assists: (game_speed_percent: 50,").unwrap();
    let problem = InputSettingsStore::file(&path).load().problem.unwrap();
    assert!(problem.contains("input.ron:1:"), "{problem}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_partial_file_keeps_defaults_for_what_it_leaves_out() {
    let settings =
        InputSettings::from_ron("(assists: (game_speed_percent: 73))", "input.ron").unwrap();
    assert_eq!(settings.assists.game_speed_percent, 70, "rounded to a step");
    assert_eq!(settings.bindings, tether::app::input::Bindings::default());
    assert!(
        settings.comfort.screen_shake,
        "screen shake stays on when the file does not mention it"
    );
}
