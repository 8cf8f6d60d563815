//! The browser build's stand-in for the editor (see the module's comment): a type with no
//! values. `open` says the editor is not there; every other method can never be called.

use std::sync::Arc;

use super::input::ScriptStep;
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
