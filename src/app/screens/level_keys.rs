//! The keys read on every screen of a level (play, the menus over it, its error): Tab to the
//! editor, restart, next and previous level.

use super::{editor, Ctx, Kind, Transition};
use crate::app::input::Action;

/// Tab or F2 on a level that can be edited (a file, a link, one of "My levels"): to the
/// editor (in the editor, the same keys play the level).
pub fn editor_key(ctx: &mut Ctx) -> Option<Transition> {
    use macroquad::input::{is_key_pressed, KeyCode};
    let pressed = is_key_pressed(KeyCode::Tab) || is_key_pressed(KeyCode::F2);
    (pressed && ctx.level_is_editable()).then(|| editor::enter(ctx))
}

/// The keys that change the level on the screens of a level: restart, next, previous.
pub fn level_keys(ctx: &mut Ctx) -> Option<Transition> {
    let actions = ctx.input.actions;
    let screen = if actions.pressed(Action::Restart) {
        ctx.load_level(ctx.level.index)
    } else if actions.pressed(Action::NextLevel) {
        ctx.change_level(1)
    } else if actions.pressed(Action::PrevLevel) {
        ctx.change_level(-1)
    } else {
        return None;
    };
    Some(Transition::ReplaceFrom(Kind::Play, screen))
}
