//! Saves the current frame as a PNG (used by the render smoke test under Xvfb).

use std::path::Path;

use macroquad::texture::get_screen_data;

/// Captures the back buffer; call after drawing and before `next_frame`.
pub fn save_screen(path: &Path) {
    let mut image = get_screen_data();
    // Translucent drawing (glows, particles, overlays) leaves alpha below 1 in the back buffer;
    // the window shows it opaque, so the PNG must be too.
    for pixel in image.bytes.chunks_exact_mut(4) {
        pixel[3] = 255;
    }
    image.export_png(&path.to_string_lossy());
}
