//! Volume settings and mute, kept between runs: a small RON file in the user's config folder on
//! the desktop, `localStorage` in the browser (through the audio JS plugin), or only in memory
//! when neither is available.
//!
//! A missing file means defaults. A corrupt one is reported in one line and ignored — and left
//! alone until the player changes a setting, so a hand-edit with a typo is not wiped at start.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Each key press moves a volume by this much.
pub const VOLUME_STEP: f32 = 0.1;

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AudioSettings {
    /// Everything (0..=1).
    pub master: f32,
    /// Sound effects, rope creak and wind (0..=1).
    pub effects: f32,
    /// The music loop (0..=1).
    pub music: f32,
    pub muted: bool,
}

impl Default for AudioSettings {
    fn default() -> AudioSettings {
        AudioSettings {
            master: 0.8,
            effects: 1.0,
            music: 0.7,
            muted: false,
        }
    }
}

/// The three volume sliders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VolumeChannel {
    Master,
    Effects,
    Music,
}

impl VolumeChannel {
    pub fn label(self) -> &'static str {
        match self {
            VolumeChannel::Master => "Volume",
            VolumeChannel::Effects => "Effects volume",
            VolumeChannel::Music => "Music volume",
        }
    }
}

impl AudioSettings {
    pub fn from_ron(text: &str) -> Result<AudioSettings, String> {
        let parsed: AudioSettings = ron::from_str(text).map_err(|err| err.to_string())?;
        Ok(parsed.sanitised())
    }

    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default();
        ron::ser::to_string_pretty(self, pretty).unwrap_or_default() + "\n"
    }

    /// Volumes clamped to 0..=1; a NaN (hand-edited file) becomes the default.
    fn sanitised(self) -> AudioSettings {
        let defaults = AudioSettings::default();
        let fix = |v: f32, d: f32| if v.is_nan() { d } else { v.clamp(0.0, 1.0) };
        AudioSettings {
            master: fix(self.master, defaults.master),
            effects: fix(self.effects, defaults.effects),
            music: fix(self.music, defaults.music),
            muted: self.muted,
        }
    }

    pub fn volume(&self, channel: VolumeChannel) -> f32 {
        match channel {
            VolumeChannel::Master => self.master,
            VolumeChannel::Effects => self.effects,
            VolumeChannel::Music => self.music,
        }
    }

    /// Moves one volume by `steps` key presses, in whole steps (no float drift after many).
    pub fn change(&mut self, channel: VolumeChannel, steps: i32) {
        let slot = match channel {
            VolumeChannel::Master => &mut self.master,
            VolumeChannel::Effects => &mut self.effects,
            VolumeChannel::Music => &mut self.music,
        };
        let tenths = (*slot / VOLUME_STEP).round() as i32 + steps;
        *slot = (tenths.clamp(0, (1.0 / VOLUME_STEP).round() as i32) as f32 * VOLUME_STEP).min(1.0);
    }

    /// What a one-shot effect with base volume 1 plays at.
    pub fn effects_gain(&self) -> f32 {
        if self.muted {
            0.0
        } else {
            self.master * self.effects
        }
    }

    pub fn music_gain(&self) -> f32 {
        if self.muted {
            0.0
        } else {
            self.master * self.music
        }
    }
}

/// Where settings are kept.
#[derive(Clone, Debug)]
pub enum SettingsStore {
    /// A RON file (desktop).
    File(PathBuf),
    /// `localStorage` through the audio JS plugin (browser).
    #[cfg(target_arch = "wasm32")]
    Browser,
    /// Nowhere: they last until the game closes.
    Memory,
}

impl SettingsStore {
    /// The platform's place for settings, or `Memory` when there is none.
    pub fn platform_default() -> SettingsStore {
        #[cfg(target_arch = "wasm32")]
        {
            if super::web_backend::plugin_present() {
                SettingsStore::Browser
            } else {
                SettingsStore::Memory
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            match process_config_dir() {
                Some(dir) => SettingsStore::File(dir.join("settings.ron")),
                None => SettingsStore::Memory,
            }
        }
    }

    /// The saved settings, or defaults. Never fails: problems are logged in one line.
    pub fn load(&self) -> AudioSettings {
        let (text, source) = match self {
            SettingsStore::File(path) => {
                match crate::files::read_bounded(path, crate::sim::limits::MAX_SETTINGS_FILE_BYTES)
                {
                    Ok(text) => (text, path.display().to_string()),
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                        return AudioSettings::default()
                    }
                    Err(err) => {
                        crate::app::log_line(&format!(
                            "settings: cannot read {}: {err}; using defaults",
                            path.display()
                        ));
                        return AudioSettings::default();
                    }
                }
            }
            #[cfg(target_arch = "wasm32")]
            SettingsStore::Browser => match super::web_backend::load_settings_text() {
                Some(text) => (text, "localStorage".to_owned()),
                None => return AudioSettings::default(),
            },
            SettingsStore::Memory => return AudioSettings::default(),
        };
        match AudioSettings::from_ron(&text) {
            Ok(settings) => settings,
            Err(err) => {
                crate::app::log_line(&format!(
                    "settings: {source} is not valid ({err}); using defaults until a setting changes"
                ));
                AudioSettings::default()
            }
        }
    }

    /// Saves the settings; a failure is logged, never fatal.
    pub fn save(&self, settings: &AudioSettings) {
        match self {
            SettingsStore::File(path) => save_file(path, settings),
            #[cfg(target_arch = "wasm32")]
            SettingsStore::Browser => super::web_backend::save_settings_text(&settings.to_ron()),
            SettingsStore::Memory => {}
        }
    }
}

fn save_file(path: &Path, settings: &AudioSettings) {
    if let Err(err) = crate::app::storage::write_atomically(path, settings.to_ron().as_bytes()) {
        crate::app::log_line(&format!("settings: cannot write {}: {err}", path.display()));
    }
}

/// `config_dir` from this process's environment: where every kept file lives on the desktop
/// (settings, bindings, progress and ghosts).
pub fn process_config_dir() -> Option<PathBuf> {
    config_dir(|key| std::env::var_os(key).map(PathBuf::from))
}

/// Tether's folder in the user's config directory, from environment variables only:
/// `%APPDATA%\Tether` on Windows, `~/Library/Application Support/Tether` on macOS,
/// `$XDG_CONFIG_HOME/tether` or `~/.config/tether` elsewhere.
pub fn config_dir(env: impl Fn(&str) -> Option<PathBuf>) -> Option<PathBuf> {
    let absolute = |key: &str| env(key).filter(|p| p.is_absolute());
    if cfg!(windows) {
        absolute("APPDATA").map(|p| p.join("Tether"))
    } else if cfg!(target_os = "macos") {
        absolute("HOME").map(|p| p.join("Library/Application Support/Tether"))
    } else {
        absolute("XDG_CONFIG_HOME")
            .or_else(|| absolute("HOME").map(|p| p.join(".config")))
            .map(|p| p.join("tether"))
    }
}
