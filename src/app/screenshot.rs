//! Saves the current frame as a PNG (used by the render smoke test under Xvfb).

use std::path::Path;

use macroquad::texture::get_screen_data;

/// Captures the back buffer; call after drawing and before `next_frame`.
pub fn save_screen(path: &Path) {
    get_screen_data().export_png(&path.to_string_lossy());
}
