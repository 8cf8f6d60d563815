//! The level select: the campaign's worlds and levels, the locked ones refused. It is always
//! over the title, where going back returns.

use super::online_board::BoardScreen;
use super::{Ctx, Screen, Transition};
use crate::app::input::Action;
use crate::app::menus::{LevelSelect, SelectOutcome};

pub struct LevelSelectPlace {
    select: LevelSelect,
}

impl LevelSelectPlace {
    /// Leaves the level in play (if any) for the level select, the cursor on it.
    pub fn open(ctx: &mut Ctx) -> LevelSelectPlace {
        ctx.leave_level();
        LevelSelectPlace {
            select: LevelSelect::at(ctx.level.index),
        }
    }
}

/// The board of the campaign's level `index`.
fn board_of(ctx: &Ctx, index: usize) -> Transition {
    let Some(file) = ctx.data.levels.get(index) else {
        return Transition::Stay;
    };
    let Ok(text) = &file.text else {
        return Transition::Stay;
    };
    if !crate::online::BUILT {
        return Transition::Stay;
    }
    let hash = tether_online_proto::level_hash(text);
    let title = crate::app::menus::level_label(&ctx.data, index);
    Transition::Push(Box::new(BoardScreen::new(&file.name, &hash, &title)))
}

impl Screen for LevelSelectPlace {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        // R (gamepad Y), "Restart" elsewhere: the board of the level under the cursor.
        if ctx.input.actions.pressed(Action::Restart) {
            return board_of(ctx, self.select.cursor);
        }
        match self
            .select
            .update(&ctx.input.actions, &ctx.data, &ctx.saves.progress)
        {
            SelectOutcome::Stay => Transition::Stay,
            SelectOutcome::Play(index) => Transition::Replace(ctx.load_level(index)),
            SelectOutcome::Back => Transition::Pop,
        }
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        self.select.draw(&ctx.data, &ctx.saves.progress);
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("level select".into())
    }
}
