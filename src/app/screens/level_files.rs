//! Where the level being edited is kept: its file (with a backup and its solution beside it),
//! or "My levels" (one of them played on its own, in place of the campaign).

use std::fmt;
use std::path::PathBuf;

use super::context::Ctx;
use super::editor::EditingScreen;
use super::my_levels::MyLevelsPlace;
use super::{Screen, Transition};
use crate::app::assets::GameData;
use crate::app::level_shelf::ShelfError;
use crate::app::log_line;

/// Why the editor's level (or its solution) was not saved; the editor's status bar says it.
#[derive(Debug)]
pub enum LevelSaveError {
    /// A level with neither a file nor a place in "My levels".
    NoFile,
    /// The file as it was could not be copied to `backup` before the first save.
    Backup {
        backup: PathBuf,
        error: std::io::Error,
    },
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    Shelf(ShelfError),
}

impl fmt::Display for LevelSaveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LevelSaveError::NoFile => write!(
                f,
                "this level has no file (saving in the browser is not built yet)"
            ),
            LevelSaveError::Backup { backup, error } => write!(
                f,
                "cannot keep the old file as {}: {error}",
                backup.display()
            ),
            LevelSaveError::Write { path, error } => write!(f, "{}: {error}", path.display()),
            LevelSaveError::Shelf(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for LevelSaveError {}

impl From<ShelfError> for LevelSaveError {
    fn from(err: ShelfError) -> LevelSaveError {
        LevelSaveError::Shelf(err)
    }
}

/// Writes `bytes` to `path` whole or not at all.
fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), LevelSaveError> {
    crate::platform::storage::write_atomically(path, bytes).map_err(|error| LevelSaveError::Write {
        path: path.to_path_buf(),
        error,
    })
}

impl Ctx {
    /// Writes the level's `text` to its file (atomically), the first time keeping the file as
    /// it was as FILE.bak (the editor's text has no comments). Returns what to tell the author.
    pub fn write_level_file(&mut self, text: &str, title: &str) -> Result<String, LevelSaveError> {
        let Some(path) = self.level.watch.as_ref().map(|w| w.path().to_path_buf()) else {
            return Err(LevelSaveError::NoFile);
        };
        let mut backup_name = path.file_name().unwrap_or_default().to_os_string();
        backup_name.push(".bak");
        let backup = path.with_file_name(backup_name);
        let mut said = format!("saved {}", path.display());
        if !self.level.backup_written && path.is_file() {
            std::fs::copy(&path, &backup).map_err(|error| LevelSaveError::Backup {
                backup: backup.clone(),
                error,
            })?;
            self.level.backup_written = true;
        }
        if self.level.backup_written {
            said += &format!(
                " (comments are not kept: the file as it was is {})",
                backup.display()
            );
        }
        write_file(&path, text.as_bytes())?;
        if let Some(watch) = &mut self.level.watch {
            watch.note_written(text);
        }
        let file = self.level_file_mut();
        file.text = Ok(text.to_owned());
        file.title = title.to_owned();
        Ok(said)
    }

    /// Keeps the test play that just reached the goal as the level's solution replay, saving
    /// the level as it was played too, so the file and its proof agree. What to tell the
    /// author waits in `level.editor_news` for the editor.
    pub fn save_solution(&mut self) {
        let Some(run) = self.level.finished_run.take() else {
            return;
        };
        let Some(path) = self.level.watch.as_ref().map(|w| w.path().to_path_buf()) else {
            return;
        };
        let played = self.level_file().text.clone().unwrap_or_default();
        let title = self.level_file().title.clone();
        let on_disk =
            crate::files::read_text_bounded(&path, crate::sim::limits::MAX_LEVEL_FILE_BYTES).ok();
        let level_saved = on_disk.as_deref() != Some(played.as_str());
        let mut result = if level_saved {
            self.write_level_file(&played, &title)
                .map(|said| format!("{said}; "))
        } else {
            Ok(String::new())
        };
        let solution = crate::app::assets::solution_path_of(&path);
        if let Ok(said) = &result {
            result = write_file(&solution, run.to_ron().as_bytes()).map(|()| {
                format!(
                    "{said}the run ({} ticks) is the level's solution: {}",
                    run.tick_count(),
                    solution.display()
                )
            });
        }
        self.level.editor_news = Some(match result {
            Ok(message) => (message, level_saved),
            Err(problem) => (format!("solution not saved: {problem}"), false),
        });
    }

    /// To "My levels" (the campaign back in place), the cursor on `name` if given.
    pub fn open_my_levels(&mut self, name: Option<&str>) -> Transition {
        Transition::reset(self.my_levels_screen(name))
    }

    /// "My levels" (the campaign back in place), the cursor on `name` if given.
    pub fn my_levels_screen(&mut self, name: Option<&str>) -> Box<dyn Screen> {
        self.leave_level();
        self.restore_campaign();
        Box::new(MyLevelsPlace::open(self, name))
    }

    /// Puts the campaign back after one of "My levels" was the only level.
    pub fn restore_campaign(&mut self) {
        if self.level.alone.take().is_some() {
            self.level.index = 0;
        }
        self.level.shelf_level = None;
        self.level.online_level = None;
        self.level.finished_run = None;
    }

    /// Puts the shelf's level `name` in play on its own, in place of the campaign; returns
    /// its play screen.
    pub fn start_shelf_level(&mut self, name: String, text: String) -> Box<dyn Screen> {
        self.leave_level();
        let mut alone = GameData {
            tuning: std::sync::Arc::clone(&self.data.tuning),
            world_names: Vec::new(),
            levels: Vec::new(),
        };
        alone.with_only_level(format!("{name}.ron"), Ok(text), None);
        self.level.alone = Some(alone);
        self.level.finished_run = None;
        self.level.online_level = None;
        self.level.shelf_level = Some(name);
        self.level.index = 0;
        self.load_level(0)
    }

    /// The editor on the shelf level just put in play (`play`), or the play when it cannot be
    /// edited.
    pub fn edit_shelf_level(&mut self, play: Box<dyn Screen>) -> Box<dyn Screen> {
        // The level is in play before the editor opens on it, as the log says.
        self.auto.screen_shown(play.name(self), true);
        match EditingScreen::open(self) {
            Some(editor) => Box::new(editor),
            None => play,
        }
    }

    /// The editor's Save for one of "My levels": kept in the shelf. Returns what to tell.
    pub fn save_to_shelf(
        &mut self,
        name: &str,
        text: &str,
        title: &str,
    ) -> Result<String, LevelSaveError> {
        self.shelf.save(name, text)?;
        let file = self.level_file_mut();
        file.text = Ok(text.to_owned());
        file.title = title.to_owned();
        let said = format!("saved in {}", self.shelf.place_of(name));
        log_line(&format!("my levels: {said}"));
        Ok(said)
    }

    /// The editor asked to leave: back to "My levels" for a shelf level (a level file has
    /// nowhere else to go: its editor stays).
    pub fn leave_editor(&mut self) -> Transition {
        match self.level.shelf_level.clone() {
            Some(name) => self.open_my_levels(Some(&name)),
            None => {
                self.notify("Tab plays the level; close the window to quit");
                Transition::Stay
            }
        }
    }
}
