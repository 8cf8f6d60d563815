//! The browser game's stand-in for the editor and "My levels" (see the module's comment): types
//! with no values. `open` says they are not there; every other method can never be called.

use std::sync::Arc;

use super::input::ScriptStep;
use crate::app::input::ActionFrame;
use crate::app::level_shelf::LevelShelf;
use crate::app::render::art::Art;
use crate::sim::{LevelDef, Tuning};

/// What the editor asks of the game after a frame (never, in this build).
pub enum EditorOutcome {
    Stay,
    TestPlay {
        level: Box<LevelDef>,
        from_cursor: bool,
    },
    Save {
        text: String,
    },
    Leave,
}

pub enum EditorScreen {}

impl EditorScreen {
    /// Whether this build has the editor.
    pub const AVAILABLE: bool = false;

    pub fn open(_: LevelDef, _: String, _: Arc<Tuning>) -> Option<EditorScreen> {
        None
    }
    pub fn is_dirty(&self) -> bool {
        match *self {}
    }
    pub fn mark_saved(&mut self) {
        match *self {}
    }
    pub fn mark_not_kept(&mut self) {
        match *self {}
    }
    pub fn level_name(&self) -> String {
        match *self {}
    }
    pub fn file_label(&self) -> &str {
        match *self {}
    }
    pub fn set_script(&mut self, _: Vec<ScriptStep>) {
        match *self {}
    }
    pub fn has_script(&self) -> bool {
        match *self {}
    }
    pub fn script_done(&self) -> bool {
        match *self {}
    }
    pub fn say(&mut self, _: impl Into<String>) {
        match *self {}
    }
    pub fn replace_level(&mut self, _: LevelDef) {
        match *self {}
    }
    pub fn update(&mut self, _: f32) -> EditorOutcome {
        match *self {}
    }
    pub fn draw(&self, _: &mut Art, _: f64) {
        match *self {}
    }
}

/// What "My levels" asks of the game (never, in this build).
pub enum MyLevelsOutcome {
    Stay,
    Back,
    New,
    Import,
    Edit(String),
    Play(String),
    Export(String),
    Delete(String),
}

pub enum MyLevelsScreen {}

impl MyLevelsScreen {
    pub fn open(_: &LevelShelf, _: bool, _: Option<&str>) -> Option<MyLevelsScreen> {
        None
    }
    pub fn refresh_at(&mut self, _: &LevelShelf, _: Option<&str>) {
        match *self {}
    }
    pub fn entries(&self) -> &[ShelfEntry] {
        match *self {}
    }
    pub fn update(&mut self, _: &ActionFrame) -> MyLevelsOutcome {
        match *self {}
    }
    pub fn draw(&self, _: &str) {
        match *self {}
    }
    pub fn set_message(&mut self, _: String) {
        match *self {}
    }
}

/// One kept level (never listed in this build).
pub struct ShelfEntry {
    pub name: String,
}
