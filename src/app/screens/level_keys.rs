//! The keys read on every screen of a level (play, the menus over it, its error): Tab to the
//! editor, restart, next and previous level.

use super::{Ctx, Kind, Transition};
use crate::app::input::Action;

/// Tab or F2: from play of a level file to the editor (and, in the editor, back to play).
pub fn editor_key_pressed() -> bool {
    use macroquad::input::{is_key_pressed, KeyCode};
    is_key_pressed(KeyCode::Tab) || is_key_pressed(KeyCode::F2)
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
