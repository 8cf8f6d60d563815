//! The title screen: play (or continue), the level select, the settings, "My levels", quit.

use super::assists::AssistsPlace;
use super::controls::ControlsPlace;
use super::level_select::LevelSelectPlace;
use super::online_levels::OnlineLevelsScreen;
use super::online_settings::OnlineSettingsScreen;
use super::{Ctx, Screen, Transition};
use crate::app::menus::{self, TitleItem};

impl Transition {
    /// Every screen gives way to the title, its cursor on `item`: how a screen the title opened
    /// goes back to it without naming the title's type (the title names the screens it opens).
    pub fn to_title(item: TitleItem) -> Transition {
        Transition::reset(Box::new(TitleScreen::at(item)))
    }
}

#[derive(Default)]
pub struct TitleScreen {
    selected: usize,
}

impl TitleScreen {
    /// The title with the cursor on `item`.
    pub fn at(item: TitleItem) -> TitleScreen {
        TitleScreen {
            selected: menus::title_items()
                .iter()
                .position(|&i| i == item)
                .unwrap_or(0),
        }
    }

    fn choose(&self, ctx: &mut Ctx, item: TitleItem) -> Transition {
        match item {
            TitleItem::Play => {
                let next = menus::next_to_play(&ctx.data, &ctx.saves.progress);
                Transition::Replace(ctx.load_level(next))
            }
            TitleItem::LevelSelect => Transition::Push(Box::new(LevelSelectPlace::open(ctx))),
            TitleItem::Ghost => {
                ctx.cycle_ghost_mode();
                Transition::Stay
            }
            TitleItem::Controls => Transition::Push(Box::new(ControlsPlace::new(false))),
            TitleItem::Assists => Transition::Push(Box::new(AssistsPlace::new(false))),
            TitleItem::MyLevels => ctx.open_my_levels(None),
            // Not offered in a build without online (`title_items`).
            TitleItem::OnlineLevels | TitleItem::Online if !crate::online::BUILT => {
                Transition::Stay
            }
            TitleItem::OnlineLevels => Transition::reset(Box::new(OnlineLevelsScreen::open(ctx))),
            TitleItem::Online => Transition::Push(Box::new(OnlineSettingsScreen::default())),
            TitleItem::Quit => Transition::Quit,
        }
    }
}

/// Leaves the level in play for the level select, over the title (where it goes back to).
pub fn to_level_select(ctx: &mut Ctx) -> Transition {
    let select = LevelSelectPlace::open(ctx);
    Transition::Reset(vec![
        Box::new(TitleScreen::at(TitleItem::LevelSelect)),
        Box::new(select),
    ])
}

fn item_text(ctx: &Ctx, item: TitleItem) -> String {
    let progress = &ctx.saves.progress;
    match item {
        TitleItem::Play if progress.levels.is_empty() => "Play".into(),
        TitleItem::Play => format!(
            "Continue: {}",
            menus::level_label(&ctx.data, menus::next_to_play(&ctx.data, progress))
        ),
        TitleItem::LevelSelect => "Level select".into(),
        TitleItem::Ghost => format!("Ghost: {}", ctx.settings.comfort.ghost.label()),
        TitleItem::Controls => "Controls".into(),
        TitleItem::Assists => "Assists".into(),
        TitleItem::MyLevels => "My levels (level editor)".into(),
        TitleItem::OnlineLevels => "Online levels".into(),
        TitleItem::Online => match &ctx.online.profile {
            profile if !profile.enabled => "Online: off".into(),
            profile => match &profile.name {
                Some(name) => format!("Online: {}", crate::sim::limits::printable(name)),
                None => "Online: no name yet".into(),
            },
        },
        TitleItem::Quit => "Quit".into(),
    }
}

impl Screen for TitleScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        let items = menus::title_items();
        if menus::navigate(&ctx.input.actions, &mut self.selected, items.len()) {
            return self.choose(ctx, items[self.selected]);
        }
        Transition::Stay
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        let items: Vec<String> = menus::title_items()
            .iter()
            .map(|item| item_text(ctx, *item))
            .collect();
        menus::draw_title_menu(&items, self.selected, ctx.notice_text());
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("title".into())
    }
}
