//! Volume settings and mute, kept between runs in the platform's store: a small RON file in the
//! user's config folder on the desktop, `localStorage` in the browser, or only in memory when
//! neither is available.
//!
//! A missing file means defaults. A corrupt one is reported in one line and ignored — and left
//! alone until the player changes a setting, so a hand-edit with a typo is not wiped at start.

use serde::{Deserialize, Serialize};

use crate::platform::store::{Area, Store};

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
    pub fn from_ron(text: &str) -> Result<AudioSettings, ron::error::SpannedError> {
        let parsed: AudioSettings = ron::from_str(text)?;
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

/// Where the audio settings are kept: `settings` in the platform's main store
/// (`platform::store::Area::Main`), or a file the caller names.
#[derive(Clone, Debug)]
pub struct SettingsStore {
    store: Store,
    name: String,
}

impl SettingsStore {
    /// The platform's place for settings (memory when there is none).
    pub fn platform_default() -> SettingsStore {
        SettingsStore {
            store: Area::Main.store(),
            name: "settings".to_owned(),
        }
    }

    /// The settings file at `path`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn file(path: &std::path::Path) -> SettingsStore {
        let (store, name) = Store::of_file(path);
        SettingsStore { store, name }
    }

    /// Kept until the game closes.
    pub fn memory() -> SettingsStore {
        SettingsStore {
            store: Store::memory(),
            name: "settings".to_owned(),
        }
    }

    /// The saved settings, or defaults. Never fails: problems are logged in one line.
    pub fn load(&self) -> AudioSettings {
        let text = match self
            .store
            .load(&self.name, crate::sim::limits::MAX_SETTINGS_FILE_BYTES)
        {
            Ok(Some(text)) => text,
            Ok(None) => return AudioSettings::default(),
            Err(err) => {
                crate::app::log_line(&format!("settings: {err}; using defaults"));
                return AudioSettings::default();
            }
        };
        match AudioSettings::from_ron(&text) {
            Ok(settings) => settings,
            Err(err) => {
                crate::app::log_line(&format!(
                    "settings: {} is not valid ({err}); using defaults until a setting changes",
                    self.store.place(&self.name)
                ));
                AudioSettings::default()
            }
        }
    }

    /// Saves the settings; a failure is logged, never fatal.
    pub fn save(&self, settings: &AudioSettings) {
        if let Err(err) = self.store.save(&self.name, &settings.to_ron()) {
            crate::app::log_line(&format!("settings: {err}"));
        }
    }
}
