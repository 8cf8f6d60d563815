//! The assists screen, opened from the title or over play from the pause menu; going back pops
//! to the menu it came from, on its item.

use super::{Ctx, Screen, Transition};
use crate::app::assists_screen::{AssistsOutcome, AssistsScreen};

pub struct AssistsPlace {
    screen: AssistsScreen,
    /// Opened over play (drawn over the level), not over the title.
    over_play: bool,
}

impl AssistsPlace {
    pub fn new(over_play: bool) -> AssistsPlace {
        AssistsPlace {
            screen: AssistsScreen::default(),
            over_play,
        }
    }
}

/// The assists changed: play aims with them, and a run being recorded keeps every assist it
/// used at any time.
fn assists_changed(ctx: &mut Ctx) {
    let now = ctx.settings.assists;
    ctx.input.play.strong_aim_assist = now.strong_aim_assist;
    let recording = ctx
        .level
        .session
        .as_mut()
        .and_then(|s| s.recording.as_mut());
    if let Some(recording) = recording {
        let kept = &mut recording.assists;
        kept.game_speed_percent = kept.game_speed_percent.min(now.game_speed_percent);
        kept.strong_aim_assist |= now.strong_aim_assist;
        kept.trajectory_preview |= now.trajectory_preview;
    }
    ctx.save_settings();
}

impl Screen for AssistsPlace {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        let settings = &mut ctx.settings;
        match self.screen.update(
            &ctx.input.actions,
            &mut settings.assists,
            &mut settings.comfort,
        ) {
            AssistsOutcome::Stay => Transition::Stay,
            AssistsOutcome::Changed => {
                assists_changed(ctx);
                Transition::Stay
            }
            AssistsOutcome::Back => Transition::Pop,
        }
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        if !self.over_play {
            crate::app::render::hud::draw_title_screen_backdrop();
        }
        self.screen
            .draw(&ctx.settings.assists, &ctx.settings.comfort);
    }

    fn is_overlay(&self) -> bool {
        self.over_play
    }
}
