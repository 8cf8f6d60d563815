//! Why the level cannot be played, in play's place: the keys to another level, and for a level
//! file being fixed, where it is wrong (it loads as soon as it is valid).

use super::editor::EditingScreen;
use super::level_keys::{editor_key, level_keys};
use super::play::PlayScreen;
use super::{Ctx, Kind, Screen, Transition};
use crate::app::palette;
use crate::app::render::hud::draw_panel;
use crate::sim::LevelDef;

/// Under a level file's problem when no version of it has loaded yet.
#[cfg(not(target_arch = "wasm32"))]
const FIX_FILE_FOOTER: &str =
    "fix the file and save it: it loads as soon as it is valid   (Tab: level editor)";

pub struct LevelErrorScreen {
    message: String,
}

impl LevelErrorScreen {
    pub fn new(message: String) -> LevelErrorScreen {
        LevelErrorScreen { message }
    }
}

impl Screen for LevelErrorScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        if let Some(transition) = editor_key(ctx) {
            return transition;
        }
        level_keys(ctx).unwrap_or(Transition::Stay)
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        crate::app::render::scene::clear();
        // Level files are a desktop feature: the browser build leaves their panel out.
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(problem) = &ctx.level.problem {
            problem.draw(None, macroquad::time::get_time(), FIX_FILE_FOOTER, 0.0);
            return;
        }
        #[cfg(target_arch = "wasm32")]
        let _ = ctx;
        draw_panel(
            "This level cannot be played",
            &[
                (self.message.clone(), true),
                (String::new(), false),
                (
                    "N: next level   P: previous level   R: try again".into(),
                    false,
                ),
            ],
            palette::ERROR_TEXT,
        );
    }

    fn kind(&self) -> Kind {
        Kind::LevelError
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some(format!(
            "level error: {}",
            self.message.lines().next().unwrap_or_default()
        ))
    }

    fn level_reloaded(&mut self, ctx: &mut Ctx, _level: &LevelDef) -> Transition {
        // `tether edit` of a file that did not parse: now it does.
        if ctx.options.open_editor && !ctx.editor_open {
            if let Some(editor) = EditingScreen::open(ctx) {
                return Transition::reset(Box::new(editor));
            }
        }
        Transition::Replace(Box::new(PlayScreen::default()))
    }
}
