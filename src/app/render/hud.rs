//! Screen-space text: level name, timer, and the overlays (pause, level complete, level error).

use super::text::{draw_text, measure_text};
use macroquad::camera::set_default_camera;
use macroquad::color::Color;
use macroquad::shapes::{draw_rectangle, draw_rectangle_lines};
use macroquad::window::{screen_height, screen_width};

use crate::app::palette;

/// Distance of HUD text from the screen's edges, in pixels.
const HUD_MARGIN_PX: f32 = 16.0;

pub use crate::campaign::format_time;

/// How much larger than at 1280×720 text and panels are drawn: they follow the window, so the
/// text stays readable on a small window and is not tiny on a 4K one.
pub fn ui_scale() -> f32 {
    (screen_height() / 720.0)
        .min(screen_width() / 960.0)
        .clamp(0.5, 4.0)
}

pub fn scaled(size: u16) -> u16 {
    (size as f32 * ui_scale()).round().max(8.0) as u16
}

/// Text with a soft dark shadow, so it reads over any background. `size` is already scaled.
pub fn draw_text_shadowed(text: &str, x: f32, y: f32, size: u16, color: Color) {
    let off = (size as f32 / 14.0).max(1.0);
    draw_text(
        text,
        x + off,
        y + off,
        size as f32,
        Color::new(0.0, 0.0, 0.0, 0.6 * color.a),
    );
    draw_text(text, x, y, size as f32, color);
}

/// The level's label ("1-3 Chain") at the top left; the time, deaths and `extra` lines (best
/// time, medal to beat, splits) at the top right.
pub fn draw_hud(level_label: &str, ticks: u64, deaths: u32, extra: &[(String, palette::Rgb)]) {
    set_default_camera();
    let k = ui_scale();
    let margin = HUD_MARGIN_PX * k;
    let title = level_label;
    let size = scaled(26);
    let dims = measure_text(title, None, size, 1.0);
    draw_rectangle(
        margin * 0.5,
        margin * 0.5,
        dims.width + margin,
        dims.height + margin,
        palette::PANEL.with_alpha(0.6),
    );
    draw_rectangle(
        margin * 0.5,
        margin * 0.5,
        3.0 * k,
        dims.height + margin,
        palette::ROPE.color(),
    );
    draw_text_shadowed(
        title,
        margin,
        margin + dims.offset_y,
        size,
        palette::TEXT.color(),
    );
    draw_right_aligned(&format_time(ticks), 32.0 * k, scaled(30), palette::TEXT);
    let mut y = 58.0 * k;
    if deaths > 0 {
        draw_right_aligned(
            &format!("deaths {deaths}"),
            y,
            scaled(22),
            palette::TEXT_DIM,
        );
        y += 24.0 * k;
    }
    for (line, color) in extra {
        draw_right_aligned(line, y, scaled(20), *color);
        y += 23.0 * k;
    }
}

/// Text against the right edge of the screen (with the HUD's margin), baseline at `y`.
fn draw_right_aligned(text: &str, y: f32, size: u16, color: palette::Rgb) {
    let dims = measure_text(text, None, size, 1.0);
    draw_text_shadowed(
        text,
        screen_width() - dims.width - HUD_MARGIN_PX * ui_scale(),
        y,
        size,
        color.color(),
    );
}

/// Text centred horizontally on the screen with its baseline at `y`; `size` is for a 720-pixel
/// high window and grows with it.
pub fn draw_centered(text: &str, y: f32, size: u16, color: palette::Rgb) {
    let size = scaled(size);
    let dims = measure_text(text, None, size, 1.0);
    draw_text_shadowed(
        text,
        (screen_width() - dims.width) * 0.5,
        y,
        size,
        color.color(),
    );
}

/// Clears the screen and draws the game's title over a generated skyline, with a rope hanging
/// from a ring: the start of the loading and click-to-start screens.
pub fn draw_title_screen() {
    draw_title_screen_backdrop();
    let k = ui_scale();
    let (w, h) = (screen_width(), screen_height());
    let size = scaled(96);
    let dims = measure_text("TETHER", None, size, 1.0);
    let (x, y) = ((w - dims.width) * 0.5, h * 0.36);
    // A ring above the title and a rope curving down to the first letter.
    let ring = macroquad::math::vec2(w * 0.5, y - dims.height - 40.0 * k);
    macroquad::shapes::draw_circle_lines(
        ring.x,
        ring.y,
        12.0 * k,
        5.0 * k,
        palette::GRAPPLE_POINT.color(),
    );
    let start = ring + macroquad::math::vec2(0.0, 12.0 * k);
    let end = macroquad::math::vec2(x + dims.width * 0.08, y - dims.height * 0.9);
    let mut prev = start;
    for i in 1..=16 {
        let t = i as f32 / 16.0;
        let sag = (t * std::f32::consts::PI).sin() * 30.0 * k;
        let p = start.lerp(end, t) + macroquad::math::vec2(0.0, sag);
        macroquad::shapes::draw_line(prev.x, prev.y, p.x, p.y, 5.0 * k, palette::ROPE.color());
        prev = p;
    }
    draw_text_shadowed("TETHER", x, y, size, palette::ROPE.color());
    draw_version_corner();
}

/// The game's and the simulation's versions, small in the bottom-right corner.
fn draw_version_corner() {
    let text = crate::version_text();
    let size = scaled(16);
    let width = measure_text(&text, None, size, 1.0).width;
    let x = screen_width() - width - HUD_MARGIN_PX * ui_scale();
    let y = screen_height() - HUD_MARGIN_PX * ui_scale();
    draw_text_shadowed(&text, x, y, size, palette::TEXT_DIM.color());
}

/// The title's skyline alone, for the menus.
pub fn draw_title_screen_backdrop() {
    set_default_camera();
    macroquad::window::clear_background(palette::BACKGROUND.color());
    super::background::draw(
        super::background::seed_of("Tether"),
        crate::sim::math::Vec2::ZERO,
        18.0,
    );
    set_default_camera();
}

/// A dimmed screen with a framed panel: a title and lines, centred.
pub fn draw_panel(title: &str, lines: &[(String, bool)], title_color: palette::Rgb) {
    set_default_camera();
    let (w, h) = (screen_width(), screen_height());
    draw_rectangle(0.0, 0.0, w, h, Color::new(0.0, 0.0, 0.0, 0.5));
    let k = ui_scale();
    let (title_size, line_size) = (scaled(48), scaled(26));
    let line_h = 32.0 * k;
    let char_w = measure_text("M", None, line_size, 1.0).width.max(1.0);
    let max_chars = ((w * 0.85 - 48.0 * k) / char_w).max(10.0) as usize;
    let wrapped: Vec<(String, bool)> = lines
        .iter()
        .flat_map(|(line, hi)| wrap(line, max_chars).into_iter().map(|l| (l, *hi)))
        .collect();
    let title_dims = measure_text(title, None, title_size, 1.0);
    let widest = wrapped
        .iter()
        .map(|(l, _)| measure_text(l, None, line_size, 1.0).width)
        .fold(title_dims.width, f32::max);
    let pad = 28.0 * k;
    let panel_w = (widest + 2.0 * pad).min(w * 0.95);
    let panel_h = title_dims.height + 24.0 * k + wrapped.len() as f32 * line_h + 2.0 * pad;
    let (px, py) = ((w - panel_w) * 0.5, (h - panel_h) * 0.5);
    draw_rectangle(px, py, panel_w, panel_h, palette::PANEL.with_alpha(0.94));
    draw_rectangle_lines(
        px,
        py,
        panel_w,
        panel_h,
        2.0 * k,
        palette::PANEL_EDGE.color(),
    );
    draw_rectangle(px, py, panel_w, 5.0 * k, title_color.color());
    let mut y = py + pad + title_dims.offset_y;
    draw_text_shadowed(
        title,
        (w - title_dims.width) * 0.5,
        y,
        title_size,
        title_color.color(),
    );
    y += 24.0 * k + line_h * 0.8;
    for (line, highlighted) in &wrapped {
        let color = if *highlighted {
            palette::TEXT
        } else {
            palette::TEXT_DIM
        };
        let dims = measure_text(line, None, line_size, 1.0);
        draw_text_shadowed(line, (w - dims.width) * 0.5, y, line_size, color.color());
        y += line_h;
    }
}

/// Splits long messages (level errors can be long) into lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    if text.is_empty() {
        // An empty line is a gap the caller asked for.
        return vec![String::new()];
    }
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
