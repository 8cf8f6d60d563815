//! The "My levels" screen: the author's own levels (`LevelShelf`), a new one, an imported file
//! (browser), and for each level: edit, play, export (browser), delete (asked twice). A menu
//! like the others, so keys, a pad and the scripted tests drive it the same way; the game loop
//! acts on its outcome.

use super::input::{Action, ActionFrame};
use super::level_shelf::LevelShelf;
use super::menus;
use super::palette;
use super::render::hud::{draw_panel, draw_title_screen_backdrop};
use crate::sim::level::LevelDef;
use crate::sim::limits;

/// Levels listed at once around the selected one (the list scrolls).
const VISIBLE_LEVELS: usize = 9;

/// One kept level: its name and its title, or why it has none as the list shows it (the first
/// line of the problem, made once when the list is read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShelfEntry {
    pub name: String,
    pub title: Result<String, String>,
}

/// What the screen asks of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MyLevelsOutcome {
    Stay,
    Back,
    New,
    /// Pick a level file to add (the browser's file picker).
    Import,
    Edit(String),
    Play(String),
    /// Hand the level's text out as a download.
    Export(String),
    /// Upload it to the online service with its finishing run.
    Publish(String),
    Delete(String),
}

/// The menu shown for one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LevelItem {
    Edit,
    Play,
    Publish,
    Export,
    Delete,
    Back,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Open {
    /// The list itself.
    List,
    /// One level's menu.
    Level { index: usize, selected: usize },
    /// "Delete it for good?" for one level.
    ConfirmDelete { index: usize, selected: usize },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MyLevelsScreen {
    entries: Vec<ShelfEntry>,
    selected: usize,
    open: Open,
    /// The last thing done or refused, shown under the menu.
    message: Option<String>,
    /// Whether this build can import and export files (the browser's picker and downloads).
    files_in_and_out: bool,
}

impl MyLevelsScreen {
    /// The screen over `shelf`, the cursor on the level called `at` if given;
    /// `files_in_and_out`: offer import and export (the browser).
    pub fn open(shelf: &LevelShelf, files_in_and_out: bool, at: Option<&str>) -> MyLevelsScreen {
        let mut screen = Self::new(shelf, files_in_and_out);
        screen.select(at);
        screen
    }

    pub fn new(shelf: &LevelShelf, files_in_and_out: bool) -> MyLevelsScreen {
        let mut screen = MyLevelsScreen {
            entries: Vec::new(),
            selected: 0,
            open: Open::List,
            message: None,
            files_in_and_out,
        };
        screen.refresh(shelf);
        screen
    }

    /// Reads the shelf again (after a save, an import, a delete); keeps the cursor on `name`.
    pub fn refresh_at(&mut self, shelf: &LevelShelf, name: Option<&str>) {
        self.refresh(shelf);
        self.select(name);
    }

    /// Puts the cursor on the level called `name` (if it is listed).
    fn select(&mut self, name: Option<&str>) {
        if let Some(at) = name.and_then(|n| self.entries.iter().position(|e| e.name == n)) {
            self.selected = self.first_level_item() + at;
        }
    }

    fn refresh(&mut self, shelf: &LevelShelf) {
        self.entries = shelf
            .names()
            .into_iter()
            .map(|name| {
                let title = shelf
                    .load(&name)
                    .map_err(|err| err.to_string())
                    .and_then(|text| {
                        LevelDef::from_ron(&text, &shelf.place_of(&name))
                            .map(|level| level.name.clone())
                            .map_err(|err| err.to_string().lines().next().unwrap_or("").to_owned())
                    });
                ShelfEntry { name, title }
            })
            .collect();
        self.open = Open::List;
        self.selected = self.selected.min(self.item_count() - 1);
    }

    pub fn entries(&self) -> &[ShelfEntry] {
        &self.entries
    }

    /// Shows what was done or refused under the menu.
    pub fn set_message(&mut self, message: String) {
        self.message = Some(message);
    }

    fn first_level_item(&self) -> usize {
        if self.files_in_and_out {
            2
        } else {
            1
        }
    }

    fn item_count(&self) -> usize {
        self.first_level_item() + self.entries.len()
    }

    fn level_items(&self) -> Vec<LevelItem> {
        let mut items = vec![LevelItem::Edit, LevelItem::Play];
        if self.files_in_and_out {
            items.push(LevelItem::Export);
        }
        items.push(LevelItem::Publish);
        items.extend([LevelItem::Delete, LevelItem::Back]);
        items
    }

    pub fn update(&mut self, actions: &ActionFrame) -> MyLevelsOutcome {
        match self.open.clone() {
            Open::List => {
                if actions.pressed(Action::MenuBack) {
                    return MyLevelsOutcome::Back;
                }
                let count = self.item_count();
                if !menus::navigate(actions, &mut self.selected, count) {
                    return MyLevelsOutcome::Stay;
                }
                let first_level = self.first_level_item();
                match self.selected {
                    0 => MyLevelsOutcome::New,
                    1 if self.files_in_and_out => MyLevelsOutcome::Import,
                    n => {
                        self.open = Open::Level {
                            index: n - first_level,
                            selected: 0,
                        };
                        MyLevelsOutcome::Stay
                    }
                }
            }
            Open::Level {
                index,
                mut selected,
            } => {
                let items = self.level_items();
                let confirmed = menus::navigate(actions, &mut selected, items.len());
                self.open = Open::Level { index, selected };
                if actions.pressed(Action::MenuBack) {
                    self.open = Open::List;
                    return MyLevelsOutcome::Stay;
                }
                if !confirmed {
                    return MyLevelsOutcome::Stay;
                }
                let name = self.entries[index].name.clone();
                match items[selected] {
                    LevelItem::Edit => MyLevelsOutcome::Edit(name),
                    LevelItem::Play => MyLevelsOutcome::Play(name),
                    LevelItem::Export => MyLevelsOutcome::Export(name),
                    LevelItem::Publish => MyLevelsOutcome::Publish(name),
                    LevelItem::Delete => {
                        // Nothing is lost by one press: deleting asks again, "keep" first.
                        self.open = Open::ConfirmDelete { index, selected: 0 };
                        MyLevelsOutcome::Stay
                    }
                    LevelItem::Back => {
                        self.open = Open::List;
                        MyLevelsOutcome::Stay
                    }
                }
            }
            Open::ConfirmDelete {
                index,
                mut selected,
            } => {
                let confirmed = menus::navigate(actions, &mut selected, 2);
                self.open = Open::ConfirmDelete { index, selected };
                if actions.pressed(Action::MenuBack) || (confirmed && selected == 0) {
                    self.open = Open::Level { index, selected: 0 };
                    return MyLevelsOutcome::Stay;
                }
                if confirmed {
                    return MyLevelsOutcome::Delete(self.entries[index].name.clone());
                }
                MyLevelsOutcome::Stay
            }
        }
    }

    fn entry_label(entry: &ShelfEntry) -> String {
        match &entry.title {
            Ok(title) => format!("{}   ({})", limits::printable(title), entry.name),
            Err(_) => format!("{}   (does not load)", entry.name),
        }
    }

    pub fn draw(&self, place: &str) {
        draw_title_screen_backdrop();
        let (title, lines) = match &self.open {
            Open::List => {
                let mut items = vec!["New level".to_owned()];
                if self.files_in_and_out {
                    items.push("Import a level file (.ron)".to_owned());
                }
                items.extend(self.entries.iter().map(Self::entry_label));
                let mut lines = menus::menu_lines(&items, self.selected);
                // A long shelf scrolls: the fixed items, then a window around the cursor.
                let first_level = self.first_level_item();
                if self.entries.len() > VISIBLE_LEVELS {
                    let at = self.selected.saturating_sub(first_level);
                    let start = at
                        .saturating_sub(VISIBLE_LEVELS / 2)
                        .min(self.entries.len() - VISIBLE_LEVELS);
                    let mut shown: Vec<(String, bool)> = lines[..first_level].to_vec();
                    shown.extend_from_slice(
                        &lines[first_level + start..first_level + start + VISIBLE_LEVELS],
                    );
                    shown.push((
                        format!(
                            "  ({} of {} levels shown)",
                            VISIBLE_LEVELS,
                            self.entries.len()
                        ),
                        false,
                    ));
                    lines = shown;
                }
                if self.entries.is_empty() {
                    lines.push((String::new(), false));
                    lines.push(("No levels yet: make one.".to_owned(), false));
                }
                ("My levels".to_owned(), lines)
            }
            Open::Level { index, selected } => {
                let items: Vec<String> = self
                    .level_items()
                    .iter()
                    .map(|item| {
                        match item {
                            LevelItem::Edit => "Edit",
                            LevelItem::Play => "Play",
                            LevelItem::Export => "Export (download the .ron file)",
                            LevelItem::Publish => "Publish online",
                            LevelItem::Delete => "Delete",
                            LevelItem::Back => "Back",
                        }
                        .to_owned()
                    })
                    .collect();
                let entry = &self.entries[*index];
                let mut lines = menus::menu_lines(&items, *selected);
                if let Err(problem) = &entry.title {
                    lines.insert(0, (problem.clone(), false));
                }
                (Self::entry_label(entry), lines)
            }
            Open::ConfirmDelete { index, selected } => {
                let entry = &self.entries[*index];
                let items = [
                    "Keep it".to_owned(),
                    format!("Delete {} for good", entry.name),
                ];
                (
                    "Delete this level?".to_owned(),
                    menus::menu_lines(&items, *selected),
                )
            }
        };
        let mut lines = lines;
        lines.push((String::new(), false));
        lines.push((format!("kept in {place}"), false));
        if let Some(message) = &self.message {
            lines.push((message.clone(), true));
        }
        draw_panel(&title, &lines, palette::ROPE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::input::ActionFrame;

    fn shelf_with(names: &[&str]) -> LevelShelf {
        let mut shelf = LevelShelf::memory();
        for name in names {
            shelf
                .save(
                    name,
                    &crate::editor::new_level_text().replace("New level", name),
                )
                .unwrap();
        }
        shelf
    }

    #[test]
    fn new_import_and_a_level_menu() {
        let shelf = shelf_with(&["alpha", "beta"]);
        let mut screen = MyLevelsScreen::new(&shelf, true);
        assert_eq!(screen.entries().len(), 2);
        assert_eq!(screen.entries()[0].title.as_deref(), Ok("alpha"));
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::New
        );
        screen.update(&ActionFrame::only_pressed(Action::MenuDown));
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Import
        );
        screen.update(&ActionFrame::only_pressed(Action::MenuDown));
        screen.update(&ActionFrame::only_pressed(Action::MenuDown)); // beta
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Stay
        );
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Edit("beta".into())
        );
        screen.update(&ActionFrame::only_pressed(Action::MenuDown));
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Play("beta".into())
        );
        screen.update(&ActionFrame::only_pressed(Action::MenuDown));
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Export("beta".into())
        );
        screen.update(&ActionFrame::only_pressed(Action::MenuDown));
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Publish("beta".into())
        );
    }

    #[test]
    fn deleting_asks_twice_and_keep_is_first() {
        let shelf = shelf_with(&["alpha"]);
        let mut screen = MyLevelsScreen::new(&shelf, false);
        screen.update(&ActionFrame::only_pressed(Action::MenuDown)); // alpha (no import item here)
        screen.update(&ActionFrame::only_pressed(Action::MenuConfirm));
        screen.update(&ActionFrame::only_pressed(Action::MenuDown)); // Play
        screen.update(&ActionFrame::only_pressed(Action::MenuDown)); // Publish
        screen.update(&ActionFrame::only_pressed(Action::MenuDown)); // Delete (no export item here)
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Stay
        );
        // The first item keeps it.
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Stay
        );
        for _ in 0..3 {
            screen.update(&ActionFrame::only_pressed(Action::MenuDown)); // Play, Publish, Delete
        }
        screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)); // asked again
        screen.update(&ActionFrame::only_pressed(Action::MenuDown));
        assert_eq!(
            screen.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            MyLevelsOutcome::Delete("alpha".into())
        );
    }

    #[test]
    fn a_broken_level_is_listed_with_its_problem() {
        let mut shelf = shelf_with(&[]);
        shelf.save("broken", "(name: ").unwrap();
        let screen = MyLevelsScreen::new(&shelf, true);
        let entry = &screen.entries()[0];
        assert_eq!(entry.name, "broken");
        assert!(entry.title.as_ref().unwrap_err().contains("broken"));
        assert_eq!(
            MyLevelsScreen::new(&shelf, true).update(&ActionFrame::only_pressed(Action::MenuBack)),
            MyLevelsOutcome::Back
        );
    }
}
