//! The level-complete screen, pushed over play: the time, the medal, what to do next. While
//! replays are watched it moves on to the next level by itself, and after the last one the
//! all-complete panel takes its place.

use super::level_keys::{editor_key, level_keys};
use super::online_board::BoardScreen;
use super::online_levels::OnlineLevelsScreen;
use super::rate::RateScreen;
use super::title::to_level_select;
use super::{editor, Ctx, Kind, Screen, Transition};
use crate::app::input::Action;
use crate::app::menus;
use crate::app::palette;
use crate::app::render::hud::{draw_panel, format_time};
use crate::campaign::splits::format_delta;
use crate::campaign::FinishReport;

/// How long the level-complete screen shows before the next level loads (watching replays; in
/// play the player chooses).
const COMPLETE_SCREEN_S: f32 = 2.5;

/// The level-complete menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CompleteItem {
    Next,
    Retry,
    LevelSelect,
    /// A test play from the editor that reached the goal from the spawn: keep it as the level's
    /// solution replay (its proof of play in CI).
    SaveSolution,
    BackToEditor,
    /// Back to "My levels" after playing one of them.
    MyLevels,
    /// An online level: rate it and vote its difficulty.
    Rate,
    /// Back to Online levels after playing one.
    OnlineLevels,
    /// The level's board on Tether Online.
    Board,
}

impl CompleteItem {
    fn text(self) -> &'static str {
        match self {
            CompleteItem::Next => "Next level",
            CompleteItem::Retry => "Retry",
            CompleteItem::LevelSelect => "Level select",
            CompleteItem::SaveSolution => "Save this run as the level's solution",
            CompleteItem::BackToEditor => "Back to the editor",
            CompleteItem::MyLevels => "My levels",
            CompleteItem::Rate => "Rate this level",
            CompleteItem::OnlineLevels => "Online levels",
            CompleteItem::Board => "Board",
        }
    }
}

pub struct CompleteScreen {
    shown_s: f32,
    ticks: u64,
    /// What the finish changed (none while watching a replay: then the screen moves on).
    report: Option<FinishReport>,
    selected: usize,
}

impl CompleteScreen {
    pub fn new(ticks: u64, report: Option<FinishReport>) -> CompleteScreen {
        CompleteScreen {
            shown_s: 0.0,
            ticks,
            report,
            selected: 0,
        }
    }

    /// The player's choice of a next step.
    fn choose(&self, ctx: &mut Ctx, confirmed: bool) -> Transition {
        let actions = ctx.input.actions;
        let items = complete_items(ctx);
        let chosen = items[self.selected.min(items.len() - 1)];
        let index = ctx.level.index;
        if !confirmed {
            if actions.pressed(Action::Restart) {
                return Transition::ReplaceFrom(Kind::Play, ctx.load_level(index));
            }
            if actions.pressed(Action::MenuBack) {
                return to_level_select(ctx);
            }
            return Transition::Stay;
        }
        match chosen {
            CompleteItem::Next => Transition::ReplaceFrom(Kind::Play, ctx.load_level(index + 1)),
            CompleteItem::Retry => Transition::ReplaceFrom(Kind::Play, ctx.load_level(index)),
            CompleteItem::LevelSelect => to_level_select(ctx),
            CompleteItem::SaveSolution => {
                ctx.save_solution();
                Transition::PopTo(Kind::Editor)
            }
            CompleteItem::BackToEditor => editor::enter(ctx),
            CompleteItem::MyLevels => {
                let name = ctx.level.shelf_level.clone();
                ctx.open_my_levels(name.as_deref())
            }
            // Not offered in a build without online (`complete_items`).
            CompleteItem::Rate | CompleteItem::OnlineLevels | CompleteItem::Board
                if !crate::online::BUILT =>
            {
                Transition::Stay
            }
            CompleteItem::Rate => match ctx.level.online_level.clone() {
                Some(hash) => Transition::Push(Box::new(RateScreen::new(hash))),
                None => Transition::Stay,
            },
            CompleteItem::OnlineLevels => {
                Transition::reset(Box::new(OnlineLevelsScreen::open(ctx)))
            }
            CompleteItem::Board => match BoardScreen::of_level(ctx) {
                Some(board) => Transition::Push(Box::new(board)),
                None => Transition::Stay,
            },
        }
    }

    /// Watching replays: on to the next level by itself after a while.
    fn move_on(&mut self, ctx: &mut Ctx, frame_s: f32) -> Transition {
        if let Some(transition) = level_keys(ctx) {
            return transition;
        }
        self.shown_s += frame_s;
        if self.shown_s < COMPLETE_SCREEN_S || ctx.auto.exits_when_replay_ends() {
            return Transition::Stay;
        }
        let next = ctx.level.index + 1;
        if next < ctx.levels().levels.len() {
            Transition::ReplaceFrom(Kind::Play, ctx.load_level(next))
        } else {
            Transition::Replace(Box::new(AllCompleteScreen))
        }
    }
}

fn complete_items(ctx: &Ctx) -> Vec<CompleteItem> {
    if ctx.level.online_level.is_some() {
        return vec![
            CompleteItem::Rate,
            CompleteItem::Board,
            CompleteItem::Retry,
            CompleteItem::OnlineLevels,
        ];
    }
    if ctx.level.shelf_level.is_some() && !ctx.editor_open {
        return vec![CompleteItem::Retry, CompleteItem::MyLevels];
    }
    let mut items = Vec::new();
    if ctx.editor_open {
        // A run is kept as the solution beside a level file (its proof in CI); "My levels"
        // keep no solutions.
        if ctx.level.finished_run.is_some() && ctx.level.watch.is_some() {
            items.push(CompleteItem::SaveSolution);
        }
        items.push(CompleteItem::Retry);
        items.push(CompleteItem::BackToEditor);
        return items;
    }
    if ctx.level.index + 1 < ctx.levels().levels.len() {
        items.push(CompleteItem::Next);
    }
    items.push(CompleteItem::Retry);
    items.push(CompleteItem::LevelSelect);
    if crate::online::BUILT && ctx.online.profile.enabled {
        items.push(CompleteItem::Board);
    }
    items
}

/// The level-complete screen's lines about the run: medal, new best, the difference to the best.
fn report_lines(report: &FinishReport) -> Vec<(String, bool)> {
    let mut lines = Vec::new();
    if !report.counted {
        lines.push(("invincible runs set no time or medal".into(), false));
        return lines;
    }
    if let Some(medal) = report.medal {
        lines.push((format!("{} medal", medal.name()), true));
    }
    match (report.new_best, report.delta_to_best()) {
        (true, Some(delta)) => lines.push((format!("new best! {}", format_delta(delta)), true)),
        (true, None) => lines.push(("first finish".into(), false)),
        (false, Some(delta)) => {
            lines.push((format!("{} to your best", format_delta(delta)), false))
        }
        (false, None) => {}
    }
    lines
}

impl Screen for CompleteScreen {
    fn update(&mut self, ctx: &mut Ctx, frame_s: f32) -> Transition {
        if let Some(transition) = editor_key(ctx) {
            return transition;
        }
        if self.report.is_none() {
            return self.move_on(ctx, frame_s);
        }
        let count = complete_items(ctx).len();
        let confirmed = menus::navigate(&ctx.input.actions, &mut self.selected, count);
        self.choose(ctx, confirmed)
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        let assists = ctx.shown_assists();
        let mut lines = vec![(format!("time {}", format_time(self.ticks)), true)];
        if assists.any() {
            lines.push((format!("with assists: {}", assists.describe()), false));
        }
        if let Some(online) = ctx.online.last_run_line() {
            lines.push((online, false));
        }
        match &self.report {
            Some(report) => {
                lines.extend(report_lines(report));
                lines.push((String::new(), false));
                let items: Vec<String> = complete_items(ctx)
                    .iter()
                    .map(|item| item.text().to_owned())
                    .collect();
                lines.extend(menus::menu_lines(&items, self.selected));
            }
            None => lines.push((
                if ctx.level.index + 1 < ctx.levels().levels.len() {
                    "next level coming up"
                } else {
                    "that was the last level"
                }
                .into(),
                false,
            )),
        }
        let title_color = self
            .report
            .as_ref()
            .and_then(|r| r.medal)
            .map_or(palette::GOAL, menus::medal_color);
        draw_panel("Level complete", &lines, title_color);
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn level_reloaded(&mut self, _ctx: &mut Ctx, _level: &crate::sim::LevelDef) -> Transition {
        // The level file changed: its new version is played from the start.
        Transition::PopTo(Kind::Play)
    }

    fn name(&self, ctx: &Ctx) -> Option<String> {
        Some(format!(
            "complete {} ticks={} medal={}",
            ctx.level_file().name,
            self.ticks,
            self.report
                .as_ref()
                .and_then(|r| r.medal)
                .map_or("none", |m| m.name())
        ))
    }
}

/// After the last level of a watched run of replays.
pub struct AllCompleteScreen;

impl Screen for AllCompleteScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        level_keys(ctx).unwrap_or(Transition::Stay)
    }

    fn level_reloaded(&mut self, _ctx: &mut Ctx, _level: &crate::sim::LevelDef) -> Transition {
        Transition::PopTo(Kind::Play)
    }

    fn draw(&self, _ctx: &mut Ctx, _on_top: bool) {
        draw_panel(
            "All levels complete",
            &[("N / P: pick a level   R: play this one again".into(), true)],
            palette::GOAL,
        );
    }

    fn is_overlay(&self) -> bool {
        true
    }
}
