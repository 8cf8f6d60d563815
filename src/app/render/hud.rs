//! Screen-space text: level name, timer, and the overlays (pause, level complete, level error).

use macroquad::camera::set_default_camera;
use macroquad::shapes::draw_rectangle;
use macroquad::text::{draw_text, measure_text};
use macroquad::window::{screen_height, screen_width};

use crate::app::palette;
use crate::sim::TICKS_PER_SECOND;

/// Distance of HUD text from the screen's edges, in pixels.
const HUD_MARGIN_PX: f32 = 16.0;

/// `m:ss.cc` for a tick count.
pub fn format_time(ticks: u64) -> String {
    let centis = ticks * 100 / TICKS_PER_SECOND as u64;
    format!(
        "{}:{:02}.{:02}",
        centis / 6000,
        (centis / 100) % 60,
        centis % 100
    )
}

pub fn draw_hud(
    level_name: &str,
    level_number: usize,
    level_count: usize,
    ticks: u64,
    deaths: u32,
) {
    set_default_camera();
    draw_text(
        format!("{level_number}/{level_count}  {level_name}"),
        HUD_MARGIN_PX,
        30.0,
        28.0,
        palette::TEXT.color(),
    );
    draw_right_aligned(&format_time(ticks), 32.0, 32, palette::TEXT);
    if deaths > 0 {
        draw_right_aligned(&format!("deaths {deaths}"), 58.0, 22, palette::TEXT_DIM);
    }
}

/// Text against the right edge of the screen (with the HUD's margin), baseline at `y`.
fn draw_right_aligned(text: &str, y: f32, size: u16, color: palette::Rgb) {
    let dims = measure_text(text, None, size, 1.0);
    draw_text(
        text,
        screen_width() - dims.width - HUD_MARGIN_PX,
        y,
        size as f32,
        color.color(),
    );
}

/// Text centred horizontally on the screen with its baseline at `y`.
pub fn draw_centered(text: &str, y: f32, size: u16, color: palette::Rgb) {
    let dims = measure_text(text, None, size, 1.0);
    draw_text(
        text,
        (screen_width() - dims.width) * 0.5,
        y,
        size as f32,
        color.color(),
    );
}

/// Clears the screen and draws the game's title: the start of the loading and click-to-start
/// screens.
pub fn draw_title_screen() {
    set_default_camera();
    macroquad::window::clear_background(palette::BACKGROUND.color());
    draw_centered("TETHER", screen_height() * 0.4, 64, palette::ROPE);
}

/// A dimmed panel with a title and lines, centred.
pub fn draw_panel(title: &str, lines: &[(String, bool)], title_color: palette::Rgb) {
    set_default_camera();
    draw_rectangle(
        0.0,
        0.0,
        screen_width(),
        screen_height(),
        macroquad::color::Color::new(0.0, 0.0, 0.0, 0.55),
    );
    let cx = screen_width() * 0.5;
    let mut y = screen_height() * 0.35;
    let dims = measure_text(title, None, 48, 1.0);
    draw_text(title, cx - dims.width * 0.5, y, 48.0, title_color.color());
    y += 56.0;
    for (line, highlighted) in lines {
        let color = if *highlighted {
            palette::TEXT
        } else {
            palette::TEXT_DIM
        };
        for part in wrap(line, 90) {
            let dims = measure_text(&part, None, 26, 1.0);
            draw_text(&part, cx - dims.width * 0.5, y, 26.0, color.color());
            y += 32.0;
        }
    }
}

/// Splits long messages (level errors can be long) into lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for raw in text.lines() {
        let mut line = String::new();
        for word in raw.split(' ') {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines
}
