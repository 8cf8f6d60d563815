//! Why the game cannot use a file it loads (the tuning, the level index, a level, a solution,
//! a level link): each variant keeps the file or the link it is about, and the words are made
//! only where a person reads them (the start-up panel, the level's error screen, the log).

use std::fmt;
use std::sync::Arc;

use crate::files::FileError;
use crate::sim::{limits, LevelError, OtherSimVersion, RonError};

/// The game's data problems. Cloned with the level list that keeps it (an `Arc` holds the I/O
/// error, which cannot be cloned).
#[derive(Clone, Debug)]
pub enum DataError {
    /// macroquad's loader could not fetch `path` (from the data folder, or over HTTP in the
    /// browser); `reason` is the loader's own words.
    Unloadable { path: String, reason: String },
    /// Refused before any parser saw it.
    TooLarge {
        path: String,
        bytes: usize,
        max_bytes: u64,
    },
    /// A file named on the command line (`tether play FILE`).
    File(Arc<FileError>),
    /// The tuning, the level index or a replay: RON syntax, or a value out of range.
    Ron(RonError),
    /// A level: RON syntax, or the objects it is about.
    Level(LevelError),
    /// A level link the page could not open: `reason` is the page's own words
    /// (web/query_plugin.js decodes links with the browser's inflater).
    LinkRefusedByPage { reason: String },
    /// A replay recorded with another simulation version.
    OtherSimVersion(OtherSimVersion),
    /// A replay to watch whose level the level index does not list.
    ReplayNotListed { level: String },
    /// The browser's `?play=solution` for level `level` (1-based) of an index of `count`.
    NoSolution { level: usize, count: usize },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DataError::Unloadable { path, reason } => write!(f, "{path}: cannot load: {reason}"),
            DataError::TooLarge {
                path,
                bytes,
                max_bytes,
            } => write!(f, "{path}: is {bytes} bytes, at most {max_bytes} allowed"),
            DataError::File(err) => write!(f, "{err}"),
            DataError::Ron(err) => write!(f, "{err}"),
            DataError::Level(err) => write!(f, "{err}"),
            DataError::OtherSimVersion(err) => write!(f, "{err}"),
            DataError::LinkRefusedByPage { reason } => {
                write!(f, "this level link cannot be opened: {reason}")
            }
            DataError::ReplayNotListed { level } => write!(
                f,
                "the replay is a run of \"{}\", which {} does not list",
                limits::printable(level),
                crate::platform::paths::LEVEL_INDEX_PATH
            ),
            DataError::NoSolution { level, count } => write!(
                f,
                "level {level} has no solution: {} lists {count} levels",
                crate::platform::paths::LEVEL_INDEX_PATH
            ),
        }
    }
}

impl std::error::Error for DataError {}

impl From<FileError> for DataError {
    fn from(err: FileError) -> DataError {
        DataError::File(Arc::new(err))
    }
}

impl From<OtherSimVersion> for DataError {
    fn from(err: OtherSimVersion) -> DataError {
        DataError::OtherSimVersion(err)
    }
}

impl From<RonError> for DataError {
    fn from(err: RonError) -> DataError {
        DataError::Ron(err)
    }
}

impl From<LevelError> for DataError {
    fn from(err: LevelError) -> DataError {
        DataError::Level(err)
    }
}
