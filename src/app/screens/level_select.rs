//! The level select: the campaign's worlds and levels, the locked ones refused. It is always
//! over the title, where going back returns.

use super::{Ctx, Screen, Transition};
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

impl Screen for LevelSelectPlace {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
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
