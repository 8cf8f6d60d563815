//! Where progress and ghosts are kept: `progress` and the best runs by level file, in the
//! platform's store (`platform::store::Area`: `progress.ron` and `ghosts/<level file>` in the
//! config folder on the desktop, `tether.progress` and `tether.ghost.<level file>` in the
//! browser's localStorage).
//!
//! A save that cannot be used (broken, from a newer version, hand-edited wrong) is never
//! overwritten: it is moved aside (`progress.ron.corrupt-N`, or the key `tether.progress.corrupt`)
//! and the problem is reported on screen; play starts fresh. A save that cannot even be read
//! (permissions) is left alone and this session does not save at all, so nothing is lost.

#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;

use std::fmt;

use crate::campaign::Progress;
use crate::platform::store::{Area, Store, StoreError};
use crate::sim::{limits, OtherSimVersion, Replay, RonError};

/// Why a kept best run (or a level's solution, the author's ghost) cannot be raced.
#[derive(Debug)]
pub enum GhostError {
    Store(StoreError),
    /// Not a replay within the limits: where and why.
    Ron(RonError),
    /// Recorded with another simulation version.
    OtherSimVersion(OtherSimVersion),
    /// The run at `source` is of `run_level`, not of `level`.
    OtherLevel {
        source: String,
        run_level: String,
        level: String,
    },
}

impl From<OtherSimVersion> for GhostError {
    fn from(err: OtherSimVersion) -> GhostError {
        GhostError::OtherSimVersion(err)
    }
}

impl fmt::Display for GhostError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GhostError::Store(err) => write!(f, "{err}"),
            GhostError::Ron(err) => write!(f, "{err}"),
            GhostError::OtherSimVersion(err) => write!(f, "{err}"),
            GhostError::OtherLevel {
                source,
                run_level,
                level,
            } => write!(
                f,
                "{source}: is a run of \"{}\", not of \"{}\"",
                limits::printable(run_level),
                limits::printable(level)
            ),
        }
    }
}

impl std::error::Error for GhostError {}

impl From<StoreError> for GhostError {
    fn from(err: StoreError) -> GhostError {
        GhostError::Store(err)
    }
}

impl From<RonError> for GhostError {
    fn from(err: RonError) -> GhostError {
        GhostError::Ron(err)
    }
}

/// The save's file name in the config folder (`Area::Main` keeps `PROGRESS` as this file).
pub const PROGRESS_FILE: &str = "progress.ron";
/// The save's name in its store.
const PROGRESS: &str = "progress";

#[derive(Clone, Debug)]
pub struct ProgressStore {
    /// Holds the save.
    main: Store,
    /// Holds the best runs, by level file.
    ghosts: Store,
}

/// A loaded save and what went wrong on the way, for the screen.
#[derive(Clone, Debug, Default)]
pub struct LoadedProgress {
    pub progress: Progress,
    pub problem: Option<String>,
    /// False when the old save could not be read or moved aside: saving would lose it.
    pub may_save: bool,
}

impl ProgressStore {
    pub fn platform_default() -> ProgressStore {
        ProgressStore {
            main: Area::Main.store(),
            ghosts: Area::Ghosts.store(),
        }
    }

    /// The save and ghosts in the config folder `dir`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn in_folder(dir: &Path) -> ProgressStore {
        ProgressStore {
            main: Area::Main.store_in(dir),
            ghosts: Area::Ghosts.store_in(dir),
        }
    }

    /// Kept only until the game closes (watching replays, playing a level file).
    pub fn memory() -> ProgressStore {
        ProgressStore {
            main: Store::memory(),
            ghosts: Store::memory(),
        }
    }

    pub fn load(&self) -> LoadedProgress {
        let place = self.main.place(PROGRESS);
        let text = match self.main.load(PROGRESS, limits::MAX_SAVE_FILE_BYTES) {
            Ok(Some(text)) => text,
            Ok(None) => return fresh(None, true),
            // Too large or not text: a bad save, kept aside like a broken one.
            Err(err @ StoreError::Unusable { .. }) => return self.keep_aside(err.to_string()),
            Err(err) => {
                return fresh(
                    Some(format!("{err}; progress will not be saved this time")),
                    false,
                )
            }
        };
        match Progress::from_ron(&text, &place.to_string()) {
            Ok(progress) => LoadedProgress {
                progress,
                problem: None,
                may_save: true,
            },
            Err(err) => self.keep_aside(err.0),
        }
    }

    pub fn save(&self, progress: &Progress) -> Result<(), StoreError> {
        self.main.save(PROGRESS, &progress.to_ron())
    }

    /// The best run kept for `level`, if any. A ghost that does not parse, breaks the replay
    /// limits or belongs to another level is reported and ignored (it stays where it is).
    pub fn load_ghost(&self, level: &str) -> Result<Option<Replay>, GhostError> {
        match self.ghosts.load(level, limits::MAX_REPLAY_FILE_BYTES)? {
            Some(text) => {
                parse_ghost(&text, &self.ghosts.place(level).to_string(), level).map(Some)
            }
            None => Ok(None),
        }
    }

    pub fn save_ghost(&self, level: &str, run: &Replay) -> Result<(), StoreError> {
        self.ghosts.save(level, &run.to_ron())
    }

    /// Moves a save that cannot be used out of the way and says so: play starts fresh.
    fn keep_aside(&self, problem: String) -> LoadedProgress {
        let (note, may_save) = match self.main.keep_aside(PROGRESS, limits::MAX_SAVE_FILE_BYTES) {
            Ok(place) => (format!("kept as {place}"), true),
            Err(err @ StoreError::NoRoomAside { .. }) => (err.to_string(), false),
            Err(err) => (format!("could not move it aside ({err})"), false),
        };
        let tail = if may_save {
            "starting fresh"
        } else {
            "starting fresh without saving, so it is not lost"
        };
        fresh(Some(format!("{problem}; {note}; {tail}")), may_save)
    }
}

fn fresh(problem: Option<String>, may_save: bool) -> LoadedProgress {
    LoadedProgress {
        progress: Progress::default(),
        problem,
        may_save,
    }
}

/// A ghost's text checked like any replay, and that it is a run of `level`.
pub fn parse_ghost(text: &str, source: &str, level: &str) -> Result<Replay, GhostError> {
    let run = Replay::from_ron(text, source)?;
    run.check_sim_version(source)?;
    if run.level != level {
        return Err(GhostError::OtherLevel {
            source: source.to_owned(),
            run_level: run.level,
            level: level.to_owned(),
        });
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::store::Place;

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_save_keeps_its_file_name() {
        let dir = std::path::Path::new("config");
        let store = ProgressStore::in_folder(dir);
        assert_eq!(
            store.main.place(PROGRESS),
            Place::File(dir.join(PROGRESS_FILE))
        );
    }
}
