//! The input settings kept between runs: bindings, assists and comfort (screen shake). A RON
//! file beside the audio settings on the desktop (`input.ron` in the same config folder),
//! `localStorage` in the browser (`tether.input`), through the platform's store.
//!
//! A separate file from the audio settings' `settings.ron` because each is written whole by
//! its own owner: two writers of one file would undo each other's changes.
//!
//! A missing file means defaults. A broken one is reported in one line (file, line:column,
//! what is wrong) and ignored, and left alone until the player changes a setting, so a
//! hand-edit with a typo is not wiped at start. Writes are atomic (a temporary file, then a
//! rename), so a crash mid-write never leaves half a file.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::input::Bindings;
use crate::platform::store::{Area, Store, StoreError};
use crate::sim::{limits, Assists, RonError};

/// Why a settings change was not kept (it lasts until the game closes).
#[derive(Debug)]
pub enum SettingsSaveError {
    /// The file there does not load and could not be kept aside, so it is not overwritten.
    BrokenFileKept(StoreError),
    Store(StoreError),
}

impl fmt::Display for SettingsSaveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SettingsSaveError::BrokenFileKept(why) => write!(
                f,
                "{why}; it does not load, so it is not overwritten: the change lasts until the \
                 game closes"
            ),
            SettingsSaveError::Store(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for SettingsSaveError {}

/// The settings' name in the platform's main store (`input.ron` in the config folder).
const INPUT_SETTINGS: &str = "input";

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
    /// Tether Online: the level's record, downloaded.
    WorldRecord,
    /// Tether Online: the run ranked just above the player's, downloaded.
    RunAhead,
    Off,
}

impl GhostMode {
    pub fn next(self) -> GhostMode {
        match self {
            GhostMode::BestRun => GhostMode::Author,
            GhostMode::Author => GhostMode::WorldRecord,
            GhostMode::WorldRecord => GhostMode::RunAhead,
            GhostMode::RunAhead => GhostMode::Off,
            GhostMode::Off => GhostMode::BestRun,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            GhostMode::BestRun => "your best run",
            GhostMode::Author => "the author's run",
            GhostMode::WorldRecord => "the record (online)",
            GhostMode::RunAhead => "the run just ahead of mine (online)",
            GhostMode::Off => "off",
        }
    }
}

impl InputSettings {
    /// Parses the settings; the error names `source` and the line:column.
    pub fn from_ron(text: &str, source: &str) -> Result<InputSettings, RonError> {
        match ron::from_str::<InputSettings>(text) {
            Ok(settings) => Ok(InputSettings {
                assists: settings.assists.sanitised(),
                ..settings
            }),
            Err(err) => Err(RonError {
                file: source.to_owned(),
                line: err.span.start.line,
                column: err.span.start.col,
                // The parser quotes the file's text: never let it reach a terminal raw.
                message: limits::printable(&err.code.to_string()),
            }),
        }
    }

    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default();
        ron::ser::to_string_pretty(self, pretty).unwrap_or_default() + "\n"
    }
}

/// Where the input settings are kept: `input` in the platform's main store
/// (`platform::store::Area::Main`), or a file the caller names.
#[derive(Clone, Debug)]
pub struct InputSettingsStore {
    store: Store,
    name: String,
}

/// What loading found: the settings to use, and a problem to report, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub settings: InputSettings,
    pub problem: Option<String>,
}

impl InputSettingsStore {
    /// The platform's place (beside the audio settings).
    pub fn platform_default() -> InputSettingsStore {
        InputSettingsStore {
            store: Area::Main.store(),
            name: INPUT_SETTINGS.to_owned(),
        }
    }

    /// The settings file at `path`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn file(path: &std::path::Path) -> InputSettingsStore {
        let (store, name) = Store::of_file(path);
        InputSettingsStore { store, name }
    }

    /// The saved settings, or defaults with the reason. Never fails.
    pub fn load(&self) -> Loaded {
        let defaults = |problem: Option<String>| Loaded {
            settings: InputSettings::default(),
            problem,
        };
        let text = match self
            .store
            .load(&self.name, crate::sim::limits::MAX_SETTINGS_FILE_BYTES)
        {
            Ok(Some(text)) => text,
            Ok(None) => return defaults(None),
            Err(err) => return defaults(Some(format!("{err}; using the default controls"))),
        };
        let source = self.store.place(&self.name).to_string();
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

    /// Saves the settings; returns the problem if it could not (the caller logs it). A file that
    /// does not load may be the player's own bindings with one typo: worth more than the one
    /// setting just changed, so it is kept aside first, and if it cannot be, kept in place.
    pub fn save(&self, settings: &InputSettings) -> Result<(), SettingsSaveError> {
        let max_bytes = crate::sim::limits::MAX_SETTINGS_FILE_BYTES;
        let broken = match self.store.load(&self.name, max_bytes) {
            Ok(Some(text)) => InputSettings::from_ron(&text, "").is_err(),
            Ok(None) => false,
            Err(err) => matches!(err, StoreError::Unusable { .. }),
        };
        if broken {
            self.store
                .keep_aside(&self.name, max_bytes)
                .map_err(SettingsSaveError::BrokenFileKept)?;
        }
        self.store
            .save(&self.name, &settings.to_ron())
            .map_err(SettingsSaveError::Store)
    }
}
