//! The pause menu, pushed over play (and drawn over it).

use super::assists::AssistsPlace;
use super::controls::ControlsPlace;
use super::level_keys::editor_key;
use super::online_levels::OnlineLevelsScreen;
use super::title::{to_level_select, TitleScreen};
use super::{Ctx, Kind, Screen, Transition};
use crate::app::input::Action;
use crate::app::menus;
use crate::app::palette;
use crate::app::render::hud::draw_panel;

/// The pause menu, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PauseItem {
    Resume,
    Restart,
    LevelSelect,
    Ghost,
    Controls,
    Assists,
    Quit,
}

const PAUSE_ITEMS: [PauseItem; 7] = [
    PauseItem::Resume,
    PauseItem::Restart,
    PauseItem::LevelSelect,
    PauseItem::Ghost,
    PauseItem::Controls,
    PauseItem::Assists,
    PauseItem::Quit,
];

#[derive(Default)]
pub struct PauseScreen {
    selected: usize,
}

/// Whether this pause item leads back to "My levels" (one of them is being played: its list
/// is where it came from, in place of the level select and the title).
fn goes_to_my_levels(ctx: &Ctx, item: PauseItem) -> bool {
    ctx.level.shelf_level.is_some() && matches!(item, PauseItem::LevelSelect | PauseItem::Quit)
}

/// Whether this pause item leads back to Online levels (an online level is being played).
fn goes_to_online_levels(ctx: &Ctx, item: PauseItem) -> bool {
    crate::online::BUILT
        && ctx.level.online_level.is_some()
        && matches!(item, PauseItem::LevelSelect | PauseItem::Quit)
}

fn item_text(ctx: &Ctx, item: PauseItem) -> String {
    match item {
        PauseItem::Resume => "Resume".into(),
        PauseItem::Restart => "Restart".into(),
        _ if goes_to_my_levels(ctx, item) => "My levels".into(),
        _ if goes_to_online_levels(ctx, item) => "Online levels".into(),
        PauseItem::LevelSelect => "Level select".into(),
        PauseItem::Ghost => format!("Ghost: {}", ctx.settings.comfort.ghost.label()),
        PauseItem::Controls => "Controls".into(),
        PauseItem::Assists => "Assists".into(),
        PauseItem::Quit => "Quit to title".into(),
    }
}

fn choose(ctx: &mut Ctx, item: PauseItem) -> Transition {
    if goes_to_my_levels(ctx, item) {
        let name = ctx.level.shelf_level.clone();
        return ctx.open_my_levels(name.as_deref());
    }
    if goes_to_online_levels(ctx, item) {
        return Transition::reset(Box::new(OnlineLevelsScreen::open(ctx)));
    }
    match item {
        PauseItem::Resume => Transition::Pop,
        PauseItem::Restart => Transition::ReplaceFrom(Kind::Play, ctx.load_level(ctx.level.index)),
        PauseItem::LevelSelect => to_level_select(ctx),
        PauseItem::Ghost => {
            // The new ghost starts with the next attempt; this one keeps its own.
            ctx.cycle_ghost_mode();
            Transition::Stay
        }
        PauseItem::Controls => Transition::Push(Box::new(ControlsPlace::new(true))),
        PauseItem::Assists => Transition::Push(Box::new(AssistsPlace::new(true))),
        PauseItem::Quit => {
            ctx.leave_level();
            Transition::reset(Box::new(TitleScreen::default()))
        }
    }
}

impl Screen for PauseScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        if let Some(transition) = editor_key(ctx) {
            return transition;
        }
        let actions = ctx.input.actions;
        let confirmed = menus::navigate(&actions, &mut self.selected, PAUSE_ITEMS.len());
        if actions.pressed(Action::MenuBack) {
            return Transition::Pop;
        }
        if confirmed {
            return choose(ctx, PAUSE_ITEMS[self.selected]);
        }
        Transition::Stay
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        let items: Vec<String> = PAUSE_ITEMS
            .iter()
            .map(|item| item_text(ctx, *item))
            .collect();
        draw_panel(
            "Paused",
            &menus::menu_lines(&items, self.selected),
            palette::TEXT,
        );
    }

    fn is_overlay(&self) -> bool {
        true
    }
}
