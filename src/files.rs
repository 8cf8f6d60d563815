//! Reading files from outside safely: sizes are checked before anything is parsed (and reading
//! stops at the limit, so a special file such as /dev/zero cannot hang a command), text must be
//! UTF-8, and paths named inside files resolve only within their folder. The limits themselves
//! are in `sim::limits`.

use std::fmt;
use std::io::{Error, ErrorKind, Read};
use std::path::{Path, PathBuf};

use crate::sim::limits;

/// Reads the text file at `path` if it is at most `max_bytes` long. A larger file, or one that
/// is not UTF-8, is an `InvalidData` error saying so (without its contents); a missing file keeps
/// `NotFound`, so callers can treat it as "no settings yet".
pub fn read_bounded(path: &Path, max_bytes: u64) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    let too_large = |size: String| {
        Error::new(
            ErrorKind::InvalidData,
            format!("is {size} bytes, at most {max_bytes} allowed"),
        )
    };
    if let Ok(meta) = file.metadata() {
        if meta.is_file() && meta.len() > max_bytes {
            return Err(too_large(meta.len().to_string()));
        }
    }
    let mut bytes = Vec::new();
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(format!("more than {max_bytes}")));
    }
    String::from_utf8(bytes)
        .map_err(|err| Error::new(ErrorKind::InvalidData, format!("is not UTF-8 text ({err})")))
}

/// A file that could not be used, named: the error of everything that reads a file the player
/// or a level index names. Shown as `PATH: cannot read: WHY`.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    /// Missing, unreadable, over its size limit or not UTF-8 (`read_bounded`'s error).
    pub kind: std::io::Error,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: cannot read: {}", self.path.display(), self.kind)
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

/// Why a path written inside a file (a level index's entry, a replay's level) names no file the
/// game may open. Shown without the file that wrote it: the caller knows that and adds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// Refused by `limits::check_level_path` (absolute, `..`, characters a path may not hold).
    Refused(limits::PathProblem),
    /// It exists, but is a link leading out of `dir`.
    LeadsOut { written: String, dir: PathBuf },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PathError::Refused(problem) => write!(f, "{problem}"),
            PathError::LeadsOut { written, dir } => write!(
                f,
                "\"{}\" leads out of {} (through a link)",
                limits::printable(written),
                dir.display()
            ),
        }
    }
}

impl std::error::Error for PathError {}

impl From<limits::PathProblem> for PathError {
    fn from(problem: limits::PathProblem) -> PathError {
        PathError::Refused(problem)
    }
}

/// `read_bounded` with the error naming the file.
pub fn read_text_bounded(path: &Path, max_bytes: u64) -> Result<String, FileError> {
    read_bounded(path, max_bytes).map_err(|kind| FileError {
        path: path.to_path_buf(),
        kind,
    })
}

/// The file `relative` (as written in a level index or a replay) inside `dir`. The path must
/// pass `limits::check_level_path` (no `..`, not absolute), and when the file exists it must not
/// be a link leading out of `dir`.
pub fn resolve_in_dir(dir: &Path, relative: &str) -> Result<PathBuf, PathError> {
    limits::check_level_path(relative)?;
    let path = dir.join(relative);
    if let (Ok(real_dir), Ok(real_path)) = (dir.canonicalize(), path.canonicalize()) {
        if !real_path.starts_with(&real_dir) {
            return Err(PathError::LeadsOut {
                written: relative.to_owned(),
                dir: dir.to_path_buf(),
            });
        }
    }
    Ok(path)
}
