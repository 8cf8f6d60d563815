//! The input settings kept between runs: bindings, assists and comfort (screen shake). A RON file beside the audio
//! settings on the desktop (`input.ron` in the same config folder), `localStorage` in the
//! browser (through `web/gamepad_plugin.js`).
//!
//! A separate file from the audio settings' `settings.ron` because each is written whole by
//! its own owner: two writers of one file would undo each other's changes.
//!
//! A missing file means defaults. A broken one is reported in one line (file, line:column,
//! what is wrong) and ignored, and left alone until the player changes a setting, so a
//! hand-edit with a typo is not wiped at start. Writes are atomic (a temporary file, then a
//! rename), so a crash mid-write never leaves half a file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::input::Bindings;
use crate::sim::Assists;

/// The settings file's name in the config folder.
pub const INPUT_SETTINGS_FILE: &str = "input.ron";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InputSettings {
    pub bindings: Bindings,
    pub assists: Assists,
    pub comfort: Comfort,
}

/// How the game looks that is a matter of comfort, not of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Comfort {
    /// The small shake on hard landings and deaths (some players get motion sick).
    pub screen_shake: bool,
    /// Which run plays beside the player as a ghost.
    pub ghost: GhostMode,
}

impl Default for Comfort {
    fn default() -> Comfort {
        Comfort {
            screen_shake: true,
            ghost: GhostMode::BestRun,
        }
    }
}

/// The run shown as a translucent ghost while playing a level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GhostMode {
    /// The player's own fastest finish.
    #[default]
    BestRun,
    /// The level's solution replay (the author time).
    Author,
    Off,
}

impl GhostMode {
    pub fn next(self) -> GhostMode {
        match self {
            GhostMode::BestRun => GhostMode::Author,
            GhostMode::Author => GhostMode::Off,
            GhostMode::Off => GhostMode::BestRun,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            GhostMode::BestRun => "your best run",
            GhostMode::Author => "the author's run",
            GhostMode::Off => "off",
        }
    }
}

impl InputSettings {
    /// Parses the settings; the error names `source` and the line:column.
    pub fn from_ron(text: &str, source: &str) -> Result<InputSettings, String> {
        match ron::from_str::<InputSettings>(text) {
            Ok(settings) => Ok(InputSettings {
                assists: settings.assists.sanitised(),
                ..settings
            }),
            Err(err) => Err(format!(
                "{source}:{}:{}: {}",
                err.span.start.line, err.span.start.col, err.code
            )),
        }
    }

    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default();
        ron::ser::to_string_pretty(self, pretty).unwrap_or_default() + "\n"
    }
}

/// Where the input settings are kept.
#[derive(Clone, Debug)]
pub enum InputSettingsStore {
    File(PathBuf),
    #[cfg(target_arch = "wasm32")]
    Browser,
    Memory,
}

/// What loading found: the settings to use, and a problem to report, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub settings: InputSettings,
    pub problem: Option<String>,
}

impl InputSettingsStore {
    /// The platform's place (the audio settings' folder on the desktop).
    pub fn platform_default() -> InputSettingsStore {
        #[cfg(target_arch = "wasm32")]
        {
            InputSettingsStore::Browser
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            match super::audio::settings::process_config_dir() {
                Some(dir) => InputSettingsStore::File(dir.join(INPUT_SETTINGS_FILE)),
                None => InputSettingsStore::Memory,
            }
        }
    }

    /// The saved settings, or defaults with the reason. Never fails.
    pub fn load(&self) -> Loaded {
        let defaults = |problem: Option<String>| Loaded {
            settings: InputSettings::default(),
            problem,
        };
        let (text, source) = match self {
            InputSettingsStore::File(path) => {
                match crate::files::read_bounded(path, crate::sim::limits::MAX_SETTINGS_FILE_BYTES)
                {
                    Ok(text) => (text, path.display().to_string()),
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                        return defaults(None)
                    }
                    Err(err) => {
                        return defaults(Some(format!(
                            "{}: cannot read ({err}); using the default controls",
                            path.display()
                        )))
                    }
                }
            }
            #[cfg(target_arch = "wasm32")]
            InputSettingsStore::Browser => match browser::load() {
                Some(text) => (text, "localStorage tether.input".to_owned()),
                None => return defaults(None),
            },
            InputSettingsStore::Memory => return defaults(None),
        };
        match InputSettings::from_ron(&text, &source) {
            Ok(settings) => Loaded {
                settings,
                problem: None,
            },
            Err(err) => defaults(Some(format!(
                "{err}; using the default controls (a changed setting keeps this file aside, \
                 renamed to end in .corrupt-N)"
            ))),
        }
    }

    /// Saves the settings; returns the problem if it could not (the caller logs it).
    pub fn save(&self, settings: &InputSettings) -> Result<(), String> {
        match self {
            InputSettingsStore::File(path) => save_file(path, settings),
            #[cfg(target_arch = "wasm32")]
            InputSettingsStore::Browser => {
                browser::save(&settings.to_ron());
                Ok(())
            }
            InputSettingsStore::Memory => Ok(()),
        }
    }
}

fn save_file(path: &Path, settings: &InputSettings) -> Result<(), String> {
    // A file that does not load may be the player's own bindings with one typo: worth more than
    // the one setting just changed, so it is kept aside, and if it cannot be, kept in place.
    let broken = match crate::files::read_bounded(path, crate::sim::limits::MAX_SETTINGS_FILE_BYTES)
    {
        Ok(text) => InputSettings::from_ron(&text, "").is_err(),
        Err(err) => err.kind() == std::io::ErrorKind::InvalidData,
    };
    if broken {
        super::storage::move_aside(path).map_err(|why| {
            format!(
                "{}: does not load and {why}, so it is not overwritten; the change lasts until \
                 the game closes",
                path.display()
            )
        })?;
    }
    super::storage::write_atomically(path, settings.to_ron().as_bytes())
        .map_err(|err| format!("{}: cannot write: {err}", path.display()))
}

#[cfg(target_arch = "wasm32")]
mod browser {
    extern "C" {
        // web/gamepad_plugin.js; stubbed to return 0 (nothing saved) without the plugin.
        fn tether_input_settings_load(ptr: *mut u8, cap: u32) -> i32;
        fn tether_input_settings_save(ptr: *const u8, len: u32);
    }
    const MAX_BYTES: usize = 64 * 1024;

    pub fn load() -> Option<String> {
        let mut buf = vec![0u8; MAX_BYTES];
        // SAFETY: the plugin writes at most `cap` bytes into the buffer.
        let len = unsafe { tether_input_settings_load(buf.as_mut_ptr(), buf.len() as u32) };
        if len <= 0 {
            return None;
        }
        buf.truncate(len as usize);
        String::from_utf8(buf).ok()
    }

    pub fn save(text: &str) {
        // SAFETY: the plugin copies the bytes before returning.
        unsafe { tether_input_settings_save(text.as_ptr(), text.len() as u32) };
    }
}
