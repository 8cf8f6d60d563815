//! The controls screen (bindings), opened from the title or over play from the pause menu;
//! going back pops to the menu it came from, on its item.

use super::{Ctx, Screen, Transition};
use crate::app::controls_screen::{ControlsOutcome, ControlsScreen};

pub struct ControlsPlace {
    screen: ControlsScreen,
    /// Opened over play (drawn over the level), not over the title.
    over_play: bool,
}

impl ControlsPlace {
    pub fn new(over_play: bool) -> ControlsPlace {
        ControlsPlace {
            screen: ControlsScreen::default(),
            over_play,
        }
    }
}

impl Screen for ControlsPlace {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        let input = &ctx.input;
        match self
            .screen
            .update(&input.actions, &input.raw, &mut ctx.settings.bindings)
        {
            ControlsOutcome::Stay => Transition::Stay,
            ControlsOutcome::Changed => {
                ctx.save_settings();
                Transition::Stay
            }
            ControlsOutcome::Back => Transition::Pop,
        }
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        if !self.over_play {
            crate::app::render::hud::draw_title_screen_backdrop();
        }
        self.screen.draw(&ctx.settings.bindings);
    }

    fn is_overlay(&self) -> bool {
        self.over_play
    }

    fn wants_next_press(&self) -> bool {
        self.screen.capturing
    }
}
