//! Volume settings survive a restart, and a broken settings file never crashes the game nor
//! gets overwritten until the player changes something.

use std::path::{Path, PathBuf};

use tether::app::audio::{
    AudioOut, AudioSettings, GameAudio, NoDevice, SettingsStore, VolumeChannel,
};
use tether::platform::paths::config_dir;

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tether-settings-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("tether").join("settings.ron")
}

#[test]
fn settings_round_trip_through_the_file() {
    let path = temp_file("round-trip");
    let store = SettingsStore::file(&path);
    assert_eq!(
        store.load(),
        AudioSettings::default(),
        "no file yet: defaults"
    );

    let mut audio = GameAudio::new(NoDevice, store.clone());
    audio.change_volume(VolumeChannel::Master, -3);
    audio.change_volume(VolumeChannel::Music, 1);
    audio.toggle_mute();
    assert!(path.is_file(), "a change is saved right away");

    let reloaded = store.load();
    assert!((reloaded.master - 0.5).abs() < 1e-6, "{reloaded:?}");
    assert!((reloaded.music - 0.8).abs() < 1e-6, "{reloaded:?}");
    assert!(reloaded.muted);
    let again = GameAudio::new(NoDevice, store);
    assert_eq!(
        again.settings(),
        &reloaded,
        "a new run starts with the saved settings"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
}

#[test]
fn corrupt_file_gives_defaults_and_is_kept_until_a_change() {
    let path = temp_file("corrupt");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let garbage = "(master: 0.4, effects: [oops\n";
    std::fs::write(&path, garbage).unwrap();
    let store = SettingsStore::file(&path);

    let audio = GameAudio::new(NoDevice, store.clone());
    assert_eq!(audio.settings(), &AudioSettings::default());
    drop(audio);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        garbage,
        "not overwritten at start"
    );

    let mut audio = GameAudio::new(NoDevice, store.clone());
    audio.change_volume(VolumeChannel::Effects, -1);
    let fixed = store.load();
    assert!(
        (fixed.effects - 0.9).abs() < 1e-6,
        "the change replaced the broken file: {fixed:?}"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
}

#[test]
fn unreadable_or_odd_values_are_tamed() {
    // A directory where the file should be: cannot be read, defaults.
    let path = temp_file("is-a-dir");
    std::fs::create_dir_all(&path).unwrap();
    assert_eq!(SettingsStore::file(&path).load(), AudioSettings::default());
    let _ = std::fs::remove_dir_all(path.parent().unwrap().parent().unwrap());

    // Out-of-range volumes are clamped; missing fields take defaults.
    let parsed = AudioSettings::from_ron("(master: 3.0, music: -1.0)").unwrap();
    assert_eq!(parsed.master, 1.0);
    assert_eq!(parsed.music, 0.0);
    assert_eq!(parsed.effects, AudioSettings::default().effects);
    assert!(!parsed.muted);
}

#[test]
fn volume_steps_stay_on_whole_tenths_and_in_range() {
    let mut settings = AudioSettings::default();
    for _ in 0..7 {
        settings.change(VolumeChannel::Master, -1);
    }
    assert!((settings.master - 0.1).abs() < 1e-6, "{}", settings.master);
    settings.change(VolumeChannel::Master, -5);
    assert_eq!(settings.master, 0.0);
    for _ in 0..15 {
        settings.change(VolumeChannel::Master, 1);
    }
    assert_eq!(settings.master, 1.0);
    assert_eq!(settings.effects_gain(), settings.effects);
    settings.muted = true;
    assert_eq!(settings.effects_gain(), 0.0);
    assert_eq!(settings.music_gain(), 0.0);
}

#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn config_dir_follows_xdg_then_home() {
    fn env(
        xdg: Option<&'static str>,
        home: Option<&'static str>,
    ) -> impl Fn(&str) -> Option<PathBuf> {
        move |key: &str| match key {
            "XDG_CONFIG_HOME" => xdg.map(PathBuf::from),
            "HOME" => home.map(PathBuf::from),
            _ => None,
        }
    }
    assert_eq!(
        config_dir(env(Some("/x/cfg"), Some("/home/a"))),
        Some(Path::new("/x/cfg/tether").to_path_buf())
    );
    assert_eq!(
        config_dir(env(None, Some("/home/a"))),
        Some(Path::new("/home/a/.config/tether").to_path_buf())
    );
    // A relative XDG_CONFIG_HOME is invalid by the spec: ignored.
    assert_eq!(
        config_dir(env(Some("rel"), Some("/home/a"))),
        Some(Path::new("/home/a/.config/tether").to_path_buf())
    );
    assert_eq!(config_dir(env(None, None)), None);
}
