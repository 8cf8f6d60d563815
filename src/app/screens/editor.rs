//! The level editor as a screen: its test play is play pushed over it, and leaving the test
//! play pops back to it as it was (view, selection, history).

use std::sync::Arc;

use super::{Ctx, Kind, Screen, Transition};
use crate::app::editor_screen::{EditorOutcome, EditorScreen};
use crate::sim::level::RonError;
use crate::sim::{LevelDef, World};

pub struct EditingScreen {
    editor: EditorScreen,
}

impl EditingScreen {
    /// Opens the editor on the level in play. A file that does not parse cannot be edited:
    /// its problem stays on screen until it is fixed (none is returned, a notice says why).
    pub fn open(ctx: &mut Ctx) -> Option<EditingScreen> {
        let file = ctx.level_file();
        let label = match (&ctx.level.watch, &ctx.level.shelf_level) {
            (Some(watch), _) => watch.path().display().to_string(),
            (None, Some(name)) => ctx.shelf.place_of(name),
            (None, None) => file.name.clone(),
        };
        // Read without the checks: a level with problems opens, and the editor shows them.
        let level = file
            .text
            .as_ref()
            .ok()
            .and_then(|text| RonError::parse::<LevelDef>(text, &label).ok());
        let Some(level) = level else {
            ctx.notify("the file must parse before it can be edited: fix it and save, it reloads");
            return None;
        };
        leave_play(ctx);
        let mut editor = EditorScreen::open(level, label, Arc::clone(&ctx.data.tuning));
        if !ctx.options.editor_script.is_empty() {
            editor.set_script(std::mem::take(&mut ctx.options.editor_script));
        }
        Some(EditingScreen { editor })
    }

    /// The editor says something in its status bar.
    pub fn say(&mut self, message: impl Into<String>) {
        self.editor.say(message);
    }

    pub fn mark_not_kept(&mut self) {
        self.editor.mark_not_kept();
    }

    /// The editor asked to save: into "My levels" or the level file.
    fn save(&mut self, ctx: &mut Ctx, text: &str) {
        let title = self.editor.level_name();
        let saved = match ctx.level.shelf_level.clone() {
            Some(name) => ctx.save_to_shelf(&name, text, &title),
            None => ctx.write_level_file(text, &title),
        };
        match saved {
            Ok(message) => {
                self.editor.mark_saved();
                self.editor.say(message);
            }
            Err(problem) => self
                .editor
                .say(format!("not saved: {problem} (the level is still here)")),
        }
    }

    /// The editor asked to play its level (from the spawn, or from the cursor).
    fn test_play(&mut self, ctx: &mut Ctx, level: LevelDef, from_cursor: bool) -> Transition {
        let label = self.editor.file_label().to_owned();
        if let Err(err) = World::from_level(level.clone(), Arc::clone(&ctx.data.tuning), &label) {
            let first = err
                .to_string()
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned();
            self.editor.say(format!("cannot test: {first}"));
            return Transition::Stay;
        }
        ctx.level.testing_from_cursor = from_cursor;
        ctx.level_file_mut().text = Ok(crate::editor::to_ron(&level));
        Transition::Push(ctx.load_level(ctx.level.index))
    }
}

/// The play (or menu over it) ends for the editor: its recording is written, its attempt
/// dropped.
fn leave_play(ctx: &mut Ctx) {
    ctx.save_recording();
    if let Some(session) = &mut ctx.level.session {
        session.attempt = None;
    }
}

/// Tab from a level screen: back to the editor the test play was started from, or the
/// editor opened on the level.
pub fn enter(ctx: &mut Ctx) -> Transition {
    if ctx.editor_open {
        leave_play(ctx);
        return Transition::PopTo(Kind::Editor);
    }
    match EditingScreen::open(ctx) {
        Some(screen) => Transition::reset(Box::new(screen)),
        None => Transition::Stay,
    }
}

impl Screen for EditingScreen {
    fn update(&mut self, ctx: &mut Ctx, frame_s: f32) -> Transition {
        match self.editor.update(frame_s) {
            EditorOutcome::Stay => Transition::Stay,
            EditorOutcome::Leave => ctx.leave_editor(),
            EditorOutcome::Save { text } => {
                self.save(ctx, &text);
                Transition::Stay
            }
            EditorOutcome::TestPlay { level, from_cursor } => {
                self.test_play(ctx, *level, from_cursor)
            }
        }
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        self.editor.draw(&mut ctx.art, macroquad::time::get_time());
    }

    fn kind(&self) -> Kind {
        Kind::Editor
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("editor".into())
    }

    fn reads_devices_itself(&self) -> bool {
        true
    }

    fn returned(&mut self, ctx: &mut Ctx) {
        if let Some((message, saved)) = ctx.level.editor_news.take() {
            if saved {
                self.editor.mark_saved();
            }
            self.editor.say(message);
        }
    }

    fn level_reloaded(&mut self, _ctx: &mut Ctx, level: &LevelDef) -> Transition {
        // Someone saved the file in a text editor while the level editor is open: take their
        // version unless that would throw away unsaved edits here.
        if self.editor.is_dirty() {
            self.editor
                .say("the file changed on disk: Ctrl+S here would overwrite that change");
        } else {
            self.editor.replace_level(level.clone());
            self.editor.mark_saved();
        }
        Transition::Stay
    }

    fn editor_script_done(&self) -> Option<bool> {
        self.editor.has_script().then(|| self.editor.script_done())
    }
}
