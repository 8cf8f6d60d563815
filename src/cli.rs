//! Window-less commands: `check` validates levels, `replay` runs a replay headless.
//! File reading lives here (not in the simulation), so the sim stays pure.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::files::{read_text_bounded, resolve_in_dir, FileError, PathError};
use crate::platform::paths::{LEVELS_DIR, TUNING_PATH};
use crate::sim::{
    limits, LevelDef, LevelError, LevelIndex, OtherSimVersion, Replay, ReplayOutcome, RonError,
    Tuning, World,
};

/// Why a file given to a command (or to the game: a level, a replay, the tuning) cannot be used.
/// Every variant names its file; the text is made only when it is printed.
#[derive(Debug)]
pub enum LoadError {
    File(FileError),
    /// The tuning, a replay or a level index: RON syntax, or a value out of range (`FILE:LINE:COL`).
    Ron(RonError),
    /// A level: RON syntax, or the objects it is about.
    Level(LevelError),
    /// A replay recorded with another simulation version.
    OtherSimVersion(OtherSimVersion),
    /// A path written in `file` that names no file the game may open: level `entry` of a level
    /// index (1-based), or a replay's level (`None`).
    Path {
        file: PathBuf,
        entry: Option<usize>,
        error: PathError,
    },
    /// Level `entry` (1-based) of the index `file` names `written`, which is not in `dir`.
    MissingLevel {
        file: PathBuf,
        entry: usize,
        written: String,
        dir: PathBuf,
    },
}

impl From<OtherSimVersion> for LoadError {
    fn from(err: OtherSimVersion) -> LoadError {
        LoadError::OtherSimVersion(err)
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let level = |entry: &Option<usize>| match entry {
            Some(n) => format!("level {n}"),
            None => "level".to_owned(),
        };
        match self {
            LoadError::File(err) => write!(f, "{err}"),
            LoadError::Ron(err) => write!(f, "{err}"),
            LoadError::Level(err) => write!(f, "{err}"),
            LoadError::OtherSimVersion(err) => write!(f, "{err}"),
            LoadError::Path { file, entry, error } => {
                write!(f, "{}: {}: {error}", file.display(), level(entry))
            }
            LoadError::MissingLevel {
                file,
                entry,
                written,
                dir,
            } => write!(
                f,
                "{}: level {entry}: \"{}\" does not exist in {}",
                file.display(),
                limits::printable(written),
                dir.display()
            ),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<FileError> for LoadError {
    fn from(err: FileError) -> LoadError {
        LoadError::File(err)
    }
}

impl From<RonError> for LoadError {
    fn from(err: RonError) -> LoadError {
        LoadError::Ron(err)
    }
}

impl From<LevelError> for LoadError {
    fn from(err: LevelError) -> LoadError {
        LoadError::Level(err)
    }
}

/// Reads a level file (at most `MAX_LEVEL_FILE_BYTES`); the error names the file.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    read_text_bounded(path, limits::MAX_LEVEL_FILE_BYTES)
}

pub fn load_tuning(root: &Path) -> Result<Arc<Tuning>, LoadError> {
    let path = root.join(TUNING_PATH);
    let text = read_text_bounded(&path, limits::MAX_TUNING_FILE_BYTES)?;
    Ok(Arc::new(Tuning::from_ron(
        &text,
        &path.display().to_string(),
    )?))
}

/// Parses and builds a level, with every check `check` runs.
pub fn load_world(path: &Path, tuning: Arc<Tuning>) -> Result<World, LoadError> {
    let text = read_text(path)?;
    let name = path.display().to_string();
    let level = LevelDef::from_ron(&text, &name)?;
    Ok(World::from_level(level, tuning, &name)?)
}

/// `tether check FILE...`: prints one line per good file, every problem of a bad one.
/// Returns the process exit code.
pub fn check(root: &Path, files: &[PathBuf]) -> i32 {
    let tuning = match load_tuning(root) {
        Ok(t) => t,
        Err(err) => {
            eprintln!("{err}");
            return 2;
        }
    };
    if files.is_empty() {
        eprintln!("usage: tether check FILE...");
        return 2;
    }
    let mut failed = false;
    for file in files {
        if file.file_name().is_some_and(|name| name == "index.ron") {
            match check_index(file) {
                Ok(count) => println!("{}: ok: level index of {count} levels", file.display()),
                Err(err) => {
                    println!("{err}");
                    failed = true;
                }
            }
            continue;
        }
        match load_world(file, Arc::clone(&tuning)) {
            Ok(world) => println!(
                "{}: ok: \"{}\", {} solids, {} hazards, {} grapple points, {} checkpoints",
                file.display(),
                world.level().name,
                world.level().solids.len(),
                world.level().hazards.len(),
                world.level().grapple_points.len(),
                world.level().checkpoints.len()
            ),
            Err(err) => {
                println!("{err}");
                failed = true;
            }
        }
    }
    i32::from(failed)
}

/// Parses a level index and checks that every level it lists exists beside it.
fn check_index(path: &Path) -> Result<usize, LoadError> {
    let text = read_text_bounded(path, limits::MAX_LEVEL_INDEX_FILE_BYTES)?;
    let index = LevelIndex::from_ron(&text, &path.display().to_string())?;
    let dir = path.parent().unwrap_or(Path::new("."));
    for (i, level) in index.files().iter().enumerate() {
        let level_path = resolve_in_dir(dir, level).map_err(|error| LoadError::Path {
            file: path.to_path_buf(),
            entry: Some(i + 1),
            error,
        })?;
        if !level_path.is_file() {
            return Err(LoadError::MissingLevel {
                file: path.to_path_buf(),
                entry: i + 1,
                written: level.clone(),
                dir: dir.to_path_buf(),
            });
        }
    }
    Ok(index.level_count())
}

/// `tether link FILE`: prints the level link of a valid level file (`#level=<code>`, to add to
/// the browser game's address). Exit 0 when printed, 1 for a bad level, 2 for other problems.
pub fn link(root: &Path, file: &Path) -> i32 {
    let tuning = match load_tuning(root) {
        Ok(tuning) => tuning,
        Err(err) => {
            eprintln!("{err}");
            return 2;
        }
    };
    if let Err(err) = load_world(file, tuning) {
        eprintln!("{err}");
        return 1;
    }
    match read_text(file) {
        Ok(text) => match crate::editor::level_link(&text) {
            Ok(link) => {
                println!("{link}");
                0
            }
            Err(problem) => {
                eprintln!("{}: {problem}", file.display());
                1
            }
        },
        Err(err) => {
            eprintln!("{err}");
            2
        }
    }
}

/// Loads a replay and the level it names (relative to `root/levels`), and runs it.
pub fn run_replay_file(root: &Path, replay_path: &Path) -> Result<ReplayOutcome, LoadError> {
    let (replay, mut world) = load_replay(root, replay_path)?;
    Ok(replay.run(&mut world))
}

/// Loads a replay and builds the world of the level it names: beside the replay's folder when
/// the replay is in a `solutions` folder (a level file's proof of play, as the editor saves it:
/// `DIR/solutions/NAME` for `DIR/NAME`), else in `root/levels`.
pub fn load_replay(root: &Path, replay_path: &Path) -> Result<(Replay, World), LoadError> {
    let tuning = load_tuning(root)?;
    let replay = read_replay(replay_path)?;
    let levels_dir = replay_path
        .parent()
        .filter(|dir| dir.file_name().is_some_and(|n| n == "solutions"))
        .and_then(Path::parent)
        .filter(|dir| dir.join(&replay.level).is_file())
        .map_or_else(|| root.join(LEVELS_DIR), Path::to_path_buf);
    let level_path =
        resolve_in_dir(&levels_dir, &replay.level).map_err(|error| LoadError::Path {
            file: replay_path.to_path_buf(),
            entry: None,
            error,
        })?;
    let world = load_world(&level_path, tuning)?;
    Ok((replay, world))
}

/// Reads and checks the replay file at `path` (at most `MAX_REPLAY_FILE_BYTES`).
pub fn read_replay(path: &Path) -> Result<Replay, LoadError> {
    let text = read_text_bounded(path, limits::MAX_REPLAY_FILE_BYTES)?;
    let name = path.display().to_string();
    let replay = Replay::from_ron(&text, &name)?;
    replay.check_sim_version(&name)?;
    Ok(replay)
}

/// `tether replay FILE`: prints the outcome, and the assists the run was played with if any;
/// exit 0 if the goal was reached.
pub fn replay(root: &Path, replay_path: &Path) -> i32 {
    match load_replay(root, replay_path) {
        Ok((replay, mut world)) => {
            // Timed on a second run from the same start, as the browser does (see
            // `report_replay_outcome`): both sides warm.
            replay.run(&mut world.clone());
            let started = std::time::Instant::now();
            let outcome = replay.run(&mut world);
            // On stderr: the outcome line on stdout stays what tests compare.
            eprintln!(
                "replay timing: {}: {} ticks, {:.1} µs per tick",
                replay.level,
                outcome.ticks,
                started.elapsed().as_secs_f64() * 1e6 / outcome.ticks.max(1) as f64
            );
            let assists = if replay.assists.any() {
                format!(" (assists: {})", replay.assists.describe())
            } else {
                String::new()
            };
            println!("{}: {outcome}{assists}", replay_path.display());
            if outcome.goal_reached {
                0
            } else {
                1
            }
        }
        Err(err) => {
            eprintln!("{err}");
            2
        }
    }
}
