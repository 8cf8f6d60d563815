//! Text drawing with the default font that never leaves a deleted texture in the frame's batch.
//!
//! macroquad keeps the default font's glyphs in one atlas texture. When a glyph (a character at
//! a pixel size) is first drawn or measured and does not fit, the atlas is grown: the next glyph
//! drawn makes a larger texture and deletes the old one at once. Two things still name the old
//! one then: the draw calls batched before it in the frame (earlier texts, and the same text's
//! earlier characters), and miniquad's cache of what is bound to texture unit 0, which it
//! restores after setting up the new texture (miniquad 0.4.11 does not clear it on delete).
//! WebGL ignores a deleted texture ("glBindTexture called with an already deleted texture ID N!"
//! in the browser's console: texture 31, the atlas going from 1024 to 2048 pixels, when the
//! browser test redraws at a pixel ratio of 2). So before text with a glyph not seen before is
//! measured or drawn: an empty draw with the white texture, then the batch is drawn (flushed),
//! which leaves the white texture in unit 0, and all of the text's glyphs are cached. The atlas
//! may grow then, with nothing that names the old texture. Every draw and measure of text in
//! the game goes through here.

use std::cell::RefCell;
use std::collections::HashSet;

use macroquad::color::Color;
use macroquad::text::TextDimensions;

thread_local! {
    /// Glyphs measured or drawn so far: (character, pixel size as macroquad rasterises it).
    static SEEN_GLYPHS: RefCell<HashSet<(char, u16)>> = RefCell::new(HashSet::new());
}

/// The pixel size macroquad rasterises `font_size` at (it scales by the screen's DPI).
fn raster_size(font_size: u16) -> u16 {
    (font_size as f32 * macroquad::miniquad::window::dpi_scale()).ceil() as u16
}

/// If `text` at `font_size` has a glyph the atlas may not hold yet: draws what is batched, then
/// caches all of the text's glyphs (measuring caches them, and never replaces the texture).
fn cache_new_glyphs(text: &str, font_size: u16) {
    let size = raster_size(font_size);
    let new = SEEN_GLYPHS.with(|seen| {
        let mut seen = seen.borrow_mut();
        let mut new = false;
        for character in text.chars() {
            new |= seen.insert((character, size));
        }
        new
    });
    if new {
        macroquad::shapes::draw_rectangle(0.0, 0.0, 0.0, 0.0, Color::new(0.0, 0.0, 0.0, 0.0));
        // SAFETY: flushing the batch is one of the internal context's documented uses; no
        // other reference to it is alive here.
        unsafe { macroquad::window::get_internal_gl() }.flush();
        macroquad::text::measure_text(text, None, font_size, 1.0);
    }
}

/// `macroquad::text::draw_text`, safe against the atlas growing mid-frame.
pub fn draw_text(
    text: impl AsRef<str>,
    x: f32,
    y: f32,
    font_size: f32,
    color: Color,
) -> TextDimensions {
    let text = text.as_ref();
    cache_new_glyphs(text, font_size as u16);
    macroquad::text::draw_text(text, x, y, font_size, color)
}

/// `macroquad::text::measure_text` with the default font (measuring caches the glyphs too).
pub fn measure_text(
    text: impl AsRef<str>,
    font: Option<&macroquad::text::Font>,
    font_size: u16,
    font_scale: f32,
) -> TextDimensions {
    let text = text.as_ref();
    cache_new_glyphs(text, font_size);
    macroquad::text::measure_text(text, font, font_size, font_scale)
}
