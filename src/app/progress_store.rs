//! Where progress and ghosts are kept: on the desktop `progress.ron` and `ghosts/<level file>`
//! in the config folder, written atomically (a temporary file, then a rename); in the browser the
//! page's localStorage (`tether.progress`, `tether.ghost.<level file>`).
//!
//! A save that cannot be used (broken, from a newer version, hand-edited wrong) is never
//! overwritten: it is moved aside (`progress.ron.corrupt-N`, or the key `tether.progress.corrupt`)
//! and the problem is reported on screen; play starts fresh. A save that cannot even be read
//! (permissions) is left alone and this session does not save at all, so nothing is lost.

#[cfg(not(target_arch = "wasm32"))]
use std::path::{Path, PathBuf};

use crate::campaign::Progress;
use crate::sim::{limits, Replay};

pub const PROGRESS_FILE: &str = "progress.ron";
pub const GHOSTS_DIR: &str = "ghosts";

#[derive(Clone, Debug)]
pub enum ProgressStore {
    /// The folder holding `progress.ron` and `ghosts/`.
    #[cfg(not(target_arch = "wasm32"))]
    Folder(PathBuf),
    #[cfg(target_arch = "wasm32")]
    Browser,
    /// Nothing is kept (watching replays, taking screenshots, no config folder).
    Memory,
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
        #[cfg(target_arch = "wasm32")]
        {
            ProgressStore::Browser
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            match super::audio::settings::process_config_dir() {
                Some(dir) => ProgressStore::Folder(dir),
                None => ProgressStore::Memory,
            }
        }
    }

    pub fn load(&self) -> LoadedProgress {
        let fresh = |problem: Option<String>, may_save: bool| LoadedProgress {
            progress: Progress::default(),
            problem,
            may_save,
        };
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            ProgressStore::Folder(dir) => {
                let path = dir.join(PROGRESS_FILE);
                let text = match crate::files::read_bounded(&path, limits::MAX_SAVE_FILE_BYTES) {
                    Ok(text) => text,
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                        return fresh(None, true)
                    }
                    Err(err) if err.kind() == std::io::ErrorKind::InvalidData => {
                        // Too large or not text: a bad save, kept aside like a broken one.
                        let problem = format!("{}: {err}", path.display());
                        return keep_aside(&path, problem);
                    }
                    Err(err) => {
                        return fresh(
                            Some(format!(
                                "{}: cannot read ({err}); progress will not be saved this time",
                                path.display()
                            )),
                            false,
                        )
                    }
                };
                match Progress::from_ron(&text, &path.display().to_string()) {
                    Ok(progress) => LoadedProgress {
                        progress,
                        problem: None,
                        may_save: true,
                    },
                    Err(err) => keep_aside(&path, err.0),
                }
            }
            #[cfg(target_arch = "wasm32")]
            ProgressStore::Browser => {
                let text = match browser::load(browser::PROGRESS_KEY, limits::MAX_SAVE_FILE_BYTES) {
                    Ok(Some(text)) => text,
                    Ok(None) => return fresh(None, true),
                    // Too large to read: left where it is, and not overwritten.
                    Err(problem) => {
                        return fresh(
                            Some(format!(
                                "localStorage {}: {problem}; progress will not be saved this time",
                                browser::PROGRESS_KEY
                            )),
                            false,
                        )
                    }
                };
                match Progress::from_ron(&text, "localStorage tether.progress") {
                    Ok(progress) => LoadedProgress {
                        progress,
                        problem: None,
                        may_save: true,
                    },
                    Err(err) => {
                        let kept = browser::save(browser::CORRUPT_KEY, &text);
                        fresh(
                            Some(format!(
                                "{err}; {}, starting fresh",
                                if kept {
                                    "kept as localStorage tether.progress.corrupt"
                                } else {
                                    "could not keep a copy"
                                }
                            )),
                            kept,
                        )
                    }
                }
            }
            ProgressStore::Memory => fresh(None, true),
        }
    }

    pub fn save(&self, progress: &Progress) -> Result<(), String> {
        let text = progress.to_ron();
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            ProgressStore::Folder(dir) => {
                let path = dir.join(PROGRESS_FILE);
                super::storage::write_atomically(&path, text.as_bytes())
                    .map_err(|err| format!("{}: cannot write: {err}", path.display()))
            }
            #[cfg(target_arch = "wasm32")]
            ProgressStore::Browser => browser::save(browser::PROGRESS_KEY, &text)
                .then_some(())
                .ok_or_else(|| "the browser refused to store progress (storage full?)".into()),
            ProgressStore::Memory => Ok(()),
        }
    }

    /// The best run kept for `level`, if any. A ghost that does not parse, breaks the replay
    /// limits or belongs to another level is reported and ignored (the file stays).
    pub fn load_ghost(&self, level: &str) -> Result<Option<Replay>, String> {
        let (text, source) = match self {
            #[cfg(not(target_arch = "wasm32"))]
            ProgressStore::Folder(dir) => {
                let path = ghost_path(dir, level)?;
                match crate::files::read_bounded(&path, limits::MAX_REPLAY_FILE_BYTES) {
                    Ok(text) => (text, path.display().to_string()),
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                    Err(err) => return Err(format!("{}: cannot read: {err}", path.display())),
                }
            }
            #[cfg(target_arch = "wasm32")]
            ProgressStore::Browser => {
                let key = browser::ghost_key(level);
                match browser::load(&key, limits::MAX_REPLAY_FILE_BYTES) {
                    Ok(Some(text)) => (text, format!("localStorage {key}")),
                    Ok(None) => return Ok(None),
                    Err(problem) => return Err(format!("localStorage {key}: {problem}")),
                }
            }
            ProgressStore::Memory => return Ok(None),
        };
        parse_ghost(&text, &source, level).map(Some)
    }

    pub fn save_ghost(&self, level: &str, run: &Replay) -> Result<(), String> {
        let text = run.to_ron();
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            ProgressStore::Folder(dir) => {
                let path = ghost_path(dir, level)?;
                super::storage::write_atomically(&path, text.as_bytes())
                    .map_err(|err| format!("{}: cannot write: {err}", path.display()))
            }
            #[cfg(target_arch = "wasm32")]
            ProgressStore::Browser => browser::save(&browser::ghost_key(level), &text)
                .then_some(())
                .ok_or_else(|| "the browser refused to store the ghost (storage full?)".into()),
            ProgressStore::Memory => Ok(()),
        }
    }
}

/// A ghost's text checked like any replay, and that it is a run of `level`.
pub fn parse_ghost(text: &str, source: &str, level: &str) -> Result<Replay, String> {
    let run = Replay::from_ron(text, source).map_err(|err| err.to_string())?;
    if run.level != level {
        return Err(format!(
            "{source}: is a run of \"{}\", not of \"{}\"",
            limits::printable(&run.level),
            limits::printable(level)
        ));
    }
    Ok(run)
}

/// `ghosts/<level file>` in `dir`; level files come from the index, already checked to stay
/// inside their folder, and are checked again here.
#[cfg(not(target_arch = "wasm32"))]
fn ghost_path(dir: &Path, level: &str) -> Result<PathBuf, String> {
    limits::check_level_path(level).map_err(|problem| format!("ghost of {level}: {problem}"))?;
    Ok(dir.join(GHOSTS_DIR).join(level))
}

/// Moves a save that cannot be used to the first free `<file>.corrupt-N` and says so.
#[cfg(not(target_arch = "wasm32"))]
fn keep_aside(path: &Path, problem: String) -> LoadedProgress {
    let (note, may_save) = match super::storage::move_aside(path) {
        Ok(to) => (format!("kept as {}", to.display()), true),
        Err(why) => (format!("{why}, so this one stays"), false),
    };
    let tail = if may_save {
        "starting fresh"
    } else {
        "starting fresh without saving, so it is not lost"
    };
    LoadedProgress {
        progress: Progress::default(),
        problem: Some(format!("{problem}; {note}; {tail}")),
        may_save,
    }
}

#[cfg(target_arch = "wasm32")]
mod browser {
    pub use crate::app::storage::browser::{load, save};
    pub const PROGRESS_KEY: &str = "tether.progress";
    pub const CORRUPT_KEY: &str = "tether.progress.corrupt";

    pub fn ghost_key(level: &str) -> String {
        format!("tether.ghost.{level}")
    }
}
