//! The game's side of "My levels": opening the screen, acting on its choices, playing and
//! editing one of the author's levels as the only level (the campaign put aside meanwhile), and
//! saving the editor's text back to the shelf.

use super::{CompleteItem, Game, Screen, NOTICE_SHOWN_S};
use crate::app::editor_screen::{EditorScreen, MyLevelsOutcome, MyLevelsScreen};
use crate::app::menus::{self, TitleItem};
use crate::app::{log_line, web};
use crate::sim::level::LevelDef;

/// Whether this build moves level files in and out through the page (browser downloads and its
/// file picker); the desktop's levels are files already.
const FILES_THROUGH_PAGE: bool = cfg!(target_arch = "wasm32");

/// The title of a level's text, for naming it ("level" when it does not parse).
pub(super) fn linked_title(text: &str) -> String {
    LevelDef::from_ron(text, "level")
        .map(|level| level.name)
        .unwrap_or_else(|_| "level".to_owned())
}

impl Game {
    /// Shows "My levels" (the campaign back in place), the cursor on `name` if given.
    pub(super) fn open_my_levels(&mut self, name: Option<&str>) {
        if !EditorScreen::AVAILABLE {
            // The browser's game page: the editor is its own, larger module on the editor page.
            web::open_editor_page();
            return;
        }
        self.leave_level();
        self.restore_campaign();
        let Some(screen) = MyLevelsScreen::open(&self.shelf, FILES_THROUGH_PAGE, name) else {
            return;
        };
        log_line(&format!(
            "my levels: {} kept in {}: {}",
            screen.entries().len(),
            self.shelf.place_of("*"),
            screen
                .entries()
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        self.show_screen(Screen::MyLevels(screen));
    }

    /// Puts the campaign back after one of "My levels" was the only level.
    pub(super) fn restore_campaign(&mut self) {
        if let Some((worlds, levels)) = self.campaign_aside.take() {
            self.data.world_names = worlds;
            self.data.levels = levels;
            self.level_index = 0;
        }
        self.shelf_level = None;
        self.editor = None;
        self.finished_run = None;
    }

    /// One frame of "My levels", and what its choice asks for.
    pub(super) fn update_my_levels(&mut self, actions: &crate::app::input::ActionFrame) {
        if !EditorScreen::AVAILABLE {
            return;
        }
        let Screen::MyLevels(screen) = &mut self.screen else {
            return;
        };
        if let Some(imported) = web::poll_import() {
            let said = self.import_level(imported);
            log_line(&format!("my levels: {}", said.0));
            if let Screen::MyLevels(screen) = &mut self.screen {
                screen.refresh_at(&self.shelf, said.1.as_deref());
                screen.set_message(said.0);
            }
            return;
        }
        let outcome = screen.update(actions);
        let edit = matches!(outcome, MyLevelsOutcome::Edit(_));
        let say = |game: &mut Game, message: String, at: Option<&str>| {
            log_line(&format!("my levels: {message}"));
            if let Screen::MyLevels(screen) = &mut game.screen {
                screen.refresh_at(&game.shelf, at);
                screen.set_message(message);
            }
        };
        match outcome {
            MyLevelsOutcome::Stay => {}
            MyLevelsOutcome::Back => {
                self.restore_campaign();
                let selected = menus::title_items()
                    .iter()
                    .position(|item| *item == TitleItem::MyLevels)
                    .unwrap_or(0);
                self.show_screen(Screen::Title { selected });
            }
            MyLevelsOutcome::New => {
                let text = crate::editor::new_level_text();
                let name = self.shelf.free_name_for(&linked_title(&text));
                self.start_shelf_level(name, text, true);
            }
            MyLevelsOutcome::Import => {
                web::start_import();
                say(self, "choose a level file (.ron)".into(), None);
            }
            MyLevelsOutcome::Edit(name) | MyLevelsOutcome::Play(name) => {
                match self.shelf.load(&name) {
                    Ok(text) => self.start_shelf_level(name, text, edit),
                    Err(problem) => say(self, problem, Some(&name)),
                }
            }
            MyLevelsOutcome::Export(name) => {
                let message = match self.shelf.load(&name) {
                    Ok(text) => {
                        web::export_file(&format!("{name}.ron"), &text);
                        format!("exported {name}.ron (see the browser's downloads)")
                    }
                    Err(problem) => problem,
                };
                say(self, message, Some(&name));
            }
            MyLevelsOutcome::Delete(name) => {
                let message = match self.shelf.remove(&name) {
                    Ok(()) => format!("deleted {name}"),
                    Err(problem) => problem,
                };
                say(self, message, None);
            }
        }
    }

    /// Keeps a level file the page's picker read: it must parse (the editor opens levels with
    /// problems, so those are kept and named); returns what to say and the name it was kept as.
    fn import_level(
        &mut self,
        imported: Result<(String, String), String>,
    ) -> (String, Option<String>) {
        let (file, text) = match imported {
            Ok(file_and_text) => file_and_text,
            Err(problem) => return (format!("not imported: {problem}"), None),
        };
        let file = crate::sim::limits::printable(&file);
        // Read without the checks, as the editor reads: a level with problems opens there.
        let level = match crate::sim::RonError::parse::<LevelDef>(&text, &file) {
            Ok(level) => level,
            Err(problem) => return (format!("not imported: {problem}"), None),
        };
        let name = self.shelf.free_name_for(&level.name);
        if let Err(problem) = self.shelf.save(&name, &text) {
            return (format!("not imported: {problem}"), None);
        }
        let checked =
            crate::sim::World::from_level(level, std::sync::Arc::clone(&self.data.tuning), &file);
        let said = match checked {
            Ok(_) => format!("imported {file} as {name}"),
            Err(err) => format!(
                "imported {file} as {name}; it has problems to fix in the editor: {}",
                err.to_string().lines().next().unwrap_or_default()
            ),
        };
        (said, Some(name))
    }

    /// Plays (or edits) the shelf's level `name` as the only level, the campaign put aside.
    pub(super) fn start_shelf_level(&mut self, name: String, text: String, edit: bool) {
        self.leave_level();
        if self.campaign_aside.is_none() {
            self.campaign_aside = Some((
                std::mem::take(&mut self.data.world_names),
                std::mem::take(&mut self.data.levels),
            ));
        }
        self.editor = None;
        self.finished_run = None;
        self.data
            .with_only_level(format!("{name}.ron"), Ok(text), None);
        self.shelf_level = Some(name);
        self.level_index = 0;
        self.load_level(0);
        if edit {
            self.open_editor();
        }
    }

    /// The editor's Save for one of "My levels": kept in the shelf. Returns what to tell.
    pub(super) fn save_to_shelf(
        &mut self,
        name: &str,
        text: &str,
        title: &str,
    ) -> Result<String, String> {
        self.shelf.save(name, text)?;
        let file = &mut self.data.levels[self.level_index];
        file.text = Ok(text.to_owned());
        file.title = title.to_owned();
        let said = format!("saved in {}", self.shelf.place_of(name));
        log_line(&format!("my levels: {said}"));
        Ok(said)
    }

    /// The complete screen's items for one of "My levels" played from the list.
    pub(super) fn shelf_complete_items(&self) -> Vec<CompleteItem> {
        vec![CompleteItem::Retry, CompleteItem::MyLevels]
    }

    /// The editor asked to leave: back to "My levels" for a shelf level (a level file has
    /// nowhere else to go: its editor stays).
    pub(super) fn leave_editor(&mut self) {
        match self.shelf_level.clone() {
            Some(name) => self.open_my_levels(Some(&name)),
            None => {
                self.notice = Some((
                    "Tab plays the level; close the window to quit".into(),
                    NOTICE_SHOWN_S,
                ));
            }
        }
    }
}
