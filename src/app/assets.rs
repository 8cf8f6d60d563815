//! Loads tuning, the level index and every level through macroquad's async file loading, which
//! works both on the desktop (from the data folder) and in the browser (over HTTP), with a
//! progress screen. Errors are kept per file and shown in the game, never a crash.

use std::sync::Arc;

use macroquad::file::load_string;
use macroquad::shapes::draw_rectangle;
use macroquad::window::{next_frame, screen_height, screen_width};

use crate::app::error::DataError;
use crate::app::palette;
use crate::app::render::hud::{draw_centered, draw_title_screen};
use crate::platform::paths::{LEVELS_DIR, LEVEL_INDEX_PATH, TUNING_PATH};
use crate::sim::{limits, LevelIndex, Tuning};

/// A level file as loaded: its name in the index and its text, or why it could not be read.
pub struct LevelFile {
    pub name: String,
    pub text: Result<String, DataError>,
    /// Which of the index's worlds it belongs to.
    pub world: usize,
    /// Its solution's time to the goal, when the index gives one (the medals come from it).
    pub author_ticks: Option<u64>,
    /// Its solution replay (`levels/solutions/<name>`): the author's ghost. `None` when there
    /// is none or it cannot be used (the loader logs why).
    pub solution: Option<crate::sim::Replay>,
    /// The level's own name (its file name when the file cannot be read), for the menus.
    pub title: String,
}

pub struct GameData {
    pub tuning: Arc<Tuning>,
    /// The campaign's worlds' names, in order.
    pub world_names: Vec<String>,
    /// Every level in play order.
    pub levels: Vec<LevelFile>,
}

/// Draws the loading screen: a title and a progress bar.
pub fn draw_loading(done: usize, total: usize, what: &str) {
    draw_title_screen();
    let w = screen_width();
    let h = screen_height();
    let bar_w = w * 0.4;
    let x = (w - bar_w) * 0.5;
    let y = h * 0.5;
    draw_rectangle(x, y, bar_w, 12.0, palette::BACKGROUND_GRID.color());
    let fraction = if total == 0 {
        0.0
    } else {
        done as f32 / total as f32
    };
    draw_rectangle(x, y, bar_w * fraction, 12.0, palette::PLAYER.color());
    draw_centered(&format!("loading {what}"), y + 44.0, 22, palette::TEXT_DIM);
}

/// Loads a text file, refusing one over `max_bytes` before it is parsed. (Over HTTP the whole
/// file has arrived by then; what matters is that no parser sees it.)
async fn fetch(path: &str, max_bytes: u64) -> Result<String, DataError> {
    let text = load_string(path)
        .await
        .map_err(|err| DataError::Unloadable {
            path: path.to_owned(),
            reason: err.to_string(),
        })?;
    if text.len() as u64 > max_bytes {
        return Err(DataError::TooLarge {
            path: path.to_owned(),
            bytes: text.len(),
            max_bytes,
        });
    }
    Ok(text)
}

/// Loads everything the game needs before play. `Err` is a problem that makes play impossible
/// (tuning or the level index).
pub async fn load_game_data() -> Result<GameData, DataError> {
    draw_loading(0, 1, TUNING_PATH);
    next_frame().await;
    let tuning_text = fetch(TUNING_PATH, limits::MAX_TUNING_FILE_BYTES).await?;
    let tuning = Tuning::from_ron(&tuning_text, TUNING_PATH)?;
    let index_text = fetch(LEVEL_INDEX_PATH, limits::MAX_LEVEL_INDEX_FILE_BYTES).await?;
    let index = LevelIndex::from_ron(&index_text, LEVEL_INDEX_PATH)?;
    let total = index.level_count() + 2;
    let mut levels = Vec::with_capacity(index.level_count());
    for (i, (world, level)) in index.levels().enumerate() {
        draw_loading(i + 2, total, &level.file);
        next_frame().await;
        let path = format!("{LEVELS_DIR}/{}", level.file);
        let text = fetch(&path, limits::MAX_LEVEL_FILE_BYTES).await;
        let solution_path = format!("{LEVELS_DIR}/solutions/{}", level.file);
        let solution = match fetch(&solution_path, limits::MAX_REPLAY_FILE_BYTES).await {
            Ok(text) => crate::app::progress_store::parse_ghost(&text, &solution_path, &level.file)
                .map_err(|problem| crate::app::log_line(&format!("author ghost: {problem}")))
                .ok(),
            Err(_) => None,
        };
        let title = text
            .as_ref()
            .ok()
            .and_then(|text| crate::sim::LevelDef::from_ron(text, &path).ok())
            .map_or_else(|| level.file.clone(), |def| def.name);
        levels.push(LevelFile {
            title,
            name: level.file.clone(),
            text,
            world,
            author_ticks: level.author_ticks,
            solution,
        });
    }
    Ok(GameData {
        tuning: Arc::new(tuning),
        world_names: index.worlds.iter().map(|w| w.name.clone()).collect(),
        levels,
    })
}

/// Loads any text file through the same loader (the level index and replays on the web), at
/// most `max_bytes` long (a limit of `sim::limits`).
pub async fn load_text(path: &str, max_bytes: u64) -> Result<String, DataError> {
    fetch(path, max_bytes).await
}

impl GameData {
    /// `tether play FILE` / `tether edit FILE`: the file at `path` becomes the only level, named
    /// by its file name, with its solution from `solutions/` beside it when there is one (the
    /// author's ghost, and what the editor keeps a proof of play in). A missing file reads as
    /// `missing_text` when given (the editor's new level), else as the error it is.
    pub fn with_only_level_file(&mut self, path: &std::path::Path, missing_text: Option<String>) {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let text = match (
            crate::files::read_bounded(path, limits::MAX_LEVEL_FILE_BYTES),
            missing_text,
        ) {
            (Ok(text), _) => Ok(text),
            (Err(err), Some(template)) if err.kind() == std::io::ErrorKind::NotFound => {
                Ok(template)
            }
            (Err(kind), _) => Err(DataError::from(crate::files::FileError {
                path: path.to_path_buf(),
                kind,
            })),
        };
        let solution_path = solution_path_of(path);
        let solution = crate::files::read_bounded(&solution_path, limits::MAX_REPLAY_FILE_BYTES)
            .ok()
            .and_then(|text| {
                let source = solution_path.display().to_string();
                crate::app::progress_store::parse_ghost(&text, &source, &name)
                    .map_err(|problem| crate::app::log_line(&format!("author ghost: {problem}")))
                    .ok()
            });
        self.with_only_level(name, text, solution);
    }

    /// The level `text` (or why there is none) becomes the only level, called `name`: a level
    /// file, or a level link opened in the browser. Its title is its name until it loads (the
    /// game then shows the level's own name; not parsing it here keeps the browser build from
    /// growing a second copy of the level parser).
    pub fn with_only_level(
        &mut self,
        name: String,
        text: Result<String, DataError>,
        solution: Option<crate::sim::Replay>,
    ) {
        let title = name.clone();
        self.world_names = vec!["Level file".into()];
        self.levels = vec![LevelFile {
            name,
            text,
            world: 0,
            author_ticks: None,
            solution,
            title,
        }];
    }
}

/// Where the solution replay of the level file at `level` lives: `solutions/<file name>` beside
/// it, as in `levels/`.
pub fn solution_path_of(level: &std::path::Path) -> std::path::PathBuf {
    let dir = level.parent().unwrap_or(std::path::Path::new("."));
    dir.join("solutions")
        .join(level.file_name().unwrap_or_default())
}
