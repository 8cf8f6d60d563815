//! The screens around play that the campaign brings: the title menu, the level select (worlds,
//! locks, best times and medals), and the list navigation they share with the pause and
//! level-complete menus. Each screen turns actions into an outcome and draws itself; the game loop
//! acts on the outcome.

use super::render::text::measure_text;
use macroquad::camera::set_default_camera;
use macroquad::color::Color;
use macroquad::shapes::{draw_circle, draw_rectangle, draw_rectangle_lines};
use macroquad::window::{screen_height, screen_width};

use super::assets::GameData;
use super::input::{Action, ActionFrame};
use super::palette::{self, Rgb};
use super::render::hud::{draw_text_shadowed, format_time, scaled, ui_scale};
use crate::campaign::{Medal, MedalTimes, Progress};

/// Moves `selected` through `count` items with the menu's up and down; true when the player
/// confirms the item.
pub fn navigate(actions: &ActionFrame, selected: &mut usize, count: usize) -> bool {
    if count == 0 {
        return false;
    }
    if actions.pressed(Action::MenuDown) {
        *selected = (*selected + 1) % count;
    }
    if actions.pressed(Action::MenuUp) {
        *selected = (*selected + count - 1) % count;
    }
    *selected = (*selected).min(count - 1);
    actions.pressed(Action::MenuConfirm)
}

/// Menu lines for `draw_panel`, the selected one marked.
pub fn menu_lines(items: &[String], selected: usize) -> Vec<(String, bool)> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let marker = if i == selected { "> " } else { "  " };
            (format!("{marker}{item}"), i == selected)
        })
        .collect()
}

pub fn medal_color(medal: Medal) -> Rgb {
    match medal {
        Medal::Bronze => palette::MEDAL_BRONZE,
        Medal::Silver => palette::MEDAL_SILVER,
        Medal::Gold => palette::MEDAL_GOLD,
        Medal::Author => palette::MEDAL_AUTHOR,
    }
}

/// What the level select asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectOutcome {
    Stay,
    /// Play the level at this position of the campaign.
    Play(usize),
    Back,
}

/// The level select: one row per world, a tile per level. Left and right move along a world,
/// up and down between worlds (to the same column, or the world's last level).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelSelect {
    /// The level under the cursor, by position in the campaign.
    pub cursor: usize,
    /// Why the last confirm did nothing (a locked level), shown until the cursor moves.
    pub refused: Option<String>,
}

impl LevelSelect {
    pub fn at(cursor: usize) -> LevelSelect {
        LevelSelect {
            cursor,
            refused: None,
        }
    }

    pub fn update(
        &mut self,
        actions: &ActionFrame,
        data: &GameData,
        progress: &Progress,
    ) -> SelectOutcome {
        if actions.pressed(Action::MenuBack) {
            return SelectOutcome::Back;
        }
        let count = data.levels.len();
        if count == 0 {
            return SelectOutcome::Stay;
        }
        let before = self.cursor;
        let world_of = |i: usize| data.levels[i].world;
        let world_start = |w: usize| data.levels.iter().position(|l| l.world == w).unwrap_or(0);
        let world_len = |w: usize| data.levels.iter().filter(|l| l.world == w).count();
        if actions.pressed(Action::MenuRight) && self.cursor + 1 < count {
            self.cursor += 1;
        }
        if actions.pressed(Action::MenuLeft) && self.cursor > 0 {
            self.cursor -= 1;
        }
        let vertical = i32::from(actions.pressed(Action::MenuDown))
            - i32::from(actions.pressed(Action::MenuUp));
        if vertical != 0 {
            let world = world_of(self.cursor);
            let column = self.cursor - world_start(world);
            let worlds = data.world_names.len().max(1);
            let target = (world as i32 + vertical).clamp(0, worlds as i32 - 1) as usize;
            if target != world && world_len(target) > 0 {
                self.cursor = world_start(target) + column.min(world_len(target) - 1);
            }
        }
        if self.cursor != before {
            self.refused = None;
        }
        if actions.pressed(Action::MenuConfirm) {
            let files: Vec<String> = data.levels.iter().map(|l| l.name.clone()).collect();
            if progress.is_unlocked(&files, self.cursor) {
                return SelectOutcome::Play(self.cursor);
            }
            self.refused = Some(format!(
                "Locked: finish {} first",
                level_label(data, self.cursor.saturating_sub(1))
            ));
        }
        SelectOutcome::Stay
    }

    pub fn draw(&self, data: &GameData, progress: &Progress) {
        super::render::hud::draw_title_screen_backdrop();
        set_default_camera();
        let k = ui_scale();
        let (w, h) = (screen_width(), screen_height());
        draw_rectangle(0.0, 0.0, w, h, Color::new(0.0, 0.0, 0.0, 0.35));
        let files: Vec<String> = data.levels.iter().map(|l| l.name.clone()).collect();
        let heading = scaled(44);
        let dims = measure_text("Choose a level", None, heading, 1.0);
        draw_text_shadowed(
            "Choose a level",
            (w - dims.width) * 0.5,
            60.0 * k,
            heading,
            palette::TEXT.color(),
        );
        let tile = 64.0 * k;
        let gap = 14.0 * k;
        let row_h = tile + 58.0 * k;
        let columns = data
            .levels
            .iter()
            .fold(vec![0usize; data.world_names.len()], |mut c, l| {
                if let Some(n) = c.get_mut(l.world) {
                    *n += 1;
                }
                c
            });
        let widest = columns.iter().copied().max().unwrap_or(1) as f32;
        let grid_w = widest * tile + (widest - 1.0) * gap;
        let x0 = (w - grid_w) * 0.5;
        let mut y = 110.0 * k;
        let mut index = 0;
        for (world, name) in data.world_names.iter().enumerate() {
            draw_text_shadowed(
                &format!("{}  {name}", world + 1),
                x0,
                y + 22.0 * k,
                scaled(24),
                palette::TEXT_DIM.color(),
            );
            let top = y + 32.0 * k;
            let mut column = 0;
            while index < data.levels.len() && data.levels[index].world == world {
                let x = x0 + column as f32 * (tile + gap);
                self.draw_tile(data, progress, &files, index, x, top, tile, column + 1);
                index += 1;
                column += 1;
            }
            y += row_h;
        }
        self.draw_details(data, progress, &files, y + 10.0 * k);
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_tile(
        &self,
        data: &GameData,
        progress: &Progress,
        files: &[String],
        index: usize,
        x: f32,
        y: f32,
        size: f32,
        number: usize,
    ) {
        let k = ui_scale();
        let level = &data.levels[index];
        let unlocked = progress.is_unlocked(files, index);
        let record = progress.record(&level.name);
        let fill = if unlocked {
            palette::PANEL
        } else {
            palette::BACKGROUND
        };
        draw_rectangle(x, y, size, size, fill.with_alpha(0.92));
        let selected = index == self.cursor;
        let edge = if selected {
            palette::ROPE
        } else if record.is_some_and(|r| r.finished) {
            palette::GOAL
        } else {
            palette::PANEL_EDGE
        };
        draw_rectangle_lines(
            x,
            y,
            size,
            size,
            if selected { 4.0 * k } else { 2.0 * k },
            edge.color(),
        );
        let label = if unlocked {
            format!("{}-{number}", level.world + 1)
        } else {
            "locked".to_owned()
        };
        let size_text = scaled(if unlocked { 24 } else { 15 });
        let dims = measure_text(&label, None, size_text, 1.0);
        let text_color = if unlocked {
            palette::TEXT
        } else {
            palette::LOCKED
        };
        draw_text_shadowed(
            &label,
            x + (size - dims.width) * 0.5,
            y + size * 0.5 + dims.height * 0.3,
            size_text,
            text_color.color(),
        );
        if let Some(medal) = record.and_then(|r| r.medal) {
            draw_circle(
                x + size - 11.0 * k,
                y + 11.0 * k,
                7.0 * k,
                medal_color(medal).color(),
            );
        }
        if let Some(best) = record.and_then(|r| r.best_ticks) {
            let text = format_time(best);
            let small = scaled(15);
            let dims = measure_text(&text, None, small, 1.0);
            draw_text_shadowed(
                &text,
                x + (size - dims.width) * 0.5,
                y + size + 18.0 * k,
                small,
                palette::TEXT_DIM.color(),
            );
        }
    }

    fn draw_details(&self, data: &GameData, progress: &Progress, files: &[String], y: f32) {
        let Some(level) = data.levels.get(self.cursor) else {
            return;
        };
        let k = ui_scale();
        let w = screen_width();
        let unlocked = progress.is_unlocked(files, self.cursor);
        let mut lines: Vec<(String, Rgb)> = vec![(level_label(data, self.cursor), palette::TEXT)];
        let record = progress.record(&level.name);
        match record.and_then(|r| r.best_ticks) {
            Some(best) => {
                let medal = record
                    .and_then(|r| r.medal)
                    .map_or(String::new(), |m| format!("   {} medal", m.name()));
                lines.push((
                    format!("best {}{medal}", format_time(best)),
                    record
                        .and_then(|r| r.medal)
                        .map_or(palette::TEXT_DIM, medal_color),
                ));
            }
            None if unlocked => lines.push(("not finished yet".into(), palette::TEXT_DIM)),
            None => {}
        }
        if let Some(author) = level.author_ticks {
            let times = MedalTimes::from_author(author);
            lines.push((
                format!(
                    "author {}   gold {}   silver {}   bronze {}",
                    format_time(times.author),
                    format_time(times.gold),
                    format_time(times.silver),
                    format_time(times.bronze)
                ),
                palette::TEXT_DIM,
            ));
        }
        if let Some(refused) = &self.refused {
            lines.push((refused.clone(), palette::ERROR_TEXT));
        } else if !unlocked {
            lines.push((
                format!(
                    "Locked: finish {} first",
                    level_label(data, self.cursor.saturating_sub(1))
                ),
                palette::LOCKED,
            ));
        }
        lines.push((
            "Arrows: choose   Enter: play   R: board   Esc: back".into(),
            palette::TEXT_DIM,
        ));
        let mut y = y + 20.0 * k;
        for (i, (line, color)) in lines.iter().enumerate() {
            let size = scaled(if i == 0 { 28 } else { 20 });
            let dims = measure_text(line, None, size, 1.0);
            draw_text_shadowed(line, (w - dims.width) * 0.5, y, size, color.color());
            y += 30.0 * k;
        }
    }
}

/// "1-3 Chain": the level's place in its world and its name.
pub fn level_label(data: &GameData, index: usize) -> String {
    let Some(level) = data.levels.get(index) else {
        return String::new();
    };
    let number = data.levels[..index]
        .iter()
        .filter(|l| l.world == level.world)
        .count()
        + 1;
    format!("{}-{number} {}", level.world + 1, level.title)
}

/// The title screen's items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TitleItem {
    /// The first level not finished yet (or the first level).
    Play,
    LevelSelect,
    Ghost,
    Controls,
    Assists,
    /// The author's own levels and the editor (in the browser game: the editor's page).
    MyLevels,
    /// Levels from everyone, on the online service.
    OnlineLevels,
    /// Online on/off, the name, the server, the recovery code.
    Online,
    Quit,
}

/// Items on the title screen: no Quit in the browser (a page is closed, not quit).
pub fn title_items() -> Vec<TitleItem> {
    let mut items = vec![
        TitleItem::Play,
        TitleItem::LevelSelect,
        TitleItem::Ghost,
        TitleItem::Controls,
        TitleItem::Assists,
        TitleItem::MyLevels,
    ];
    if crate::online::BUILT {
        items.extend([TitleItem::OnlineLevels, TitleItem::Online]);
    }
    if !cfg!(target_arch = "wasm32") {
        items.push(TitleItem::Quit);
    }
    items
}

/// Where "Play" goes: the first level of the campaign not finished yet, else the last level.
pub fn next_to_play(data: &GameData, progress: &Progress) -> usize {
    data.levels
        .iter()
        .position(|l| !progress.is_finished(&l.name))
        .unwrap_or(data.levels.len().saturating_sub(1))
}

/// The title screen with its menu under the title, and a notice (a save problem) if any.
pub fn draw_title_menu(items: &[String], selected: usize, notice: Option<&str>) {
    super::render::hud::draw_title_screen();
    let k = ui_scale();
    let (w, h) = (screen_width(), screen_height());
    // From the middle down, raised when the items would reach the notice's lines.
    let items_below_first_px = (items.len() as f32 - 1.0) * 40.0 * k;
    let mut y = (h * 0.5).min(h - 120.0 * k - items_below_first_px);
    for (i, item) in items.iter().enumerate() {
        let chosen = i == selected;
        let size = scaled(if chosen { 32 } else { 28 });
        let text = if chosen {
            format!("> {item} <")
        } else {
            item.clone()
        };
        let dims = measure_text(&text, None, size, 1.0);
        let color = if chosen { palette::ROPE } else { palette::TEXT };
        draw_text_shadowed(&text, (w - dims.width) * 0.5, y, size, color.color());
        y += 40.0 * k;
    }
    if let Some(notice) = notice {
        let size = scaled(18);
        for (i, line) in notice.split("; ").enumerate() {
            let dims = measure_text(line, None, size, 1.0);
            draw_text_shadowed(
                line,
                ((w - dims.width) * 0.5).max(8.0),
                h - 90.0 * k + i as f32 * 22.0 * k,
                size,
                palette::ERROR_TEXT.color(),
            );
        }
    }
}
