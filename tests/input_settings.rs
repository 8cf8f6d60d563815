//! The input settings file: bindings and assists round-trip, writes are atomic, and a broken
//! file is reported (file, line:column) and ignored; when a setting changes it is kept aside,
//! never overwritten.

use macroquad::input::KeyCode;
use tether::app::input::{Action, Binding};
use tether::app::settings::{InputSettings, InputSettingsStore, SettingsSaveError};
use tether::platform::store::StoreError;

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
    // Loading alone moves nothing: the player may fix the typo and restart.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "left alone");

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

#[test]
fn a_setting_changed_over_a_broken_file_keeps_the_broken_file_aside() {
    let dir = temp_dir("changed-over-broken");
    let path = dir.join("input.ron");
    // The player's own bindings, with one typo: they are worth more than the one change.
    let text = "(\n    bindings: [(Jump, [\"Key:C\"]), (Fire, [\"Key:Banana\"])],\n)\n";
    std::fs::write(&path, text).unwrap();
    let store = InputSettingsStore::file(&path);
    let mut settings = store.load().settings;
    assert!(store.load().problem.unwrap().contains(".corrupt-N"));
    settings.comfort.screen_shake = false;
    store.save(&settings).unwrap();
    let kept = dir.join("input.ron.corrupt-1");
    assert_eq!(
        std::fs::read_to_string(&kept).unwrap(),
        text,
        "the broken file is kept as it was"
    );
    let loaded = store.load();
    assert_eq!(loaded.problem, None);
    assert_eq!(loaded.settings, settings, "the change is saved");

    // A good file is simply replaced: nothing more is kept aside.
    settings.comfort.screen_shake = true;
    store.save(&settings).unwrap();
    assert!(!dir.join("input.ron.corrupt-2").exists());

    // With no room to keep it, the broken file stays and the change is refused with a reason.
    std::fs::write(&path, text).unwrap();
    for n in 1..=tether::platform::store::MAX_ASIDE_COPIES {
        std::fs::write(dir.join(format!("input.ron.corrupt-{n}")), "old").unwrap();
    }
    let problem = store.save(&settings).unwrap_err();
    assert!(
        matches!(
            problem,
            SettingsSaveError::BrokenFileKept(StoreError::NoRoomAside { .. })
        ),
        "{problem}"
    );
    assert!(problem.to_string().contains("not overwritten"), "{problem}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}
