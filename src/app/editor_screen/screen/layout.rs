//! Where the editor's parts are on screen this frame: the palette, the world and the panel.

use super::*;

/// Where the editor's parts are on screen this frame.
pub(super) struct Layout {
    pub(super) scale: f32,
    pub(super) width: f32,
    pub(super) height: f32,
}

impl Layout {
    pub(super) fn now() -> Layout {
        Layout {
            scale: crate::app::render::hud::ui_scale(),
            width: screen_width(),
            height: screen_height(),
        }
    }

    pub(super) fn palette_width(&self) -> f32 {
        PALETTE_WIDTH_PX * self.scale
    }

    pub(super) fn panel_left(&self) -> f32 {
        self.width - PANEL_WIDTH_PX * self.scale
    }

    pub(super) fn top(&self) -> f32 {
        STATUS_BAR_PX * self.scale
    }

    /// Where the middle of the level's area is across the screen, in normalized device units.
    pub fn center_offset_x_ndc(&self) -> f32 {
        let middle_px = self.palette_width() + self.world_width() * 0.5;
        middle_px / self.width.max(1.0) * 2.0 - 1.0
    }

    /// Width of the level's area between the palette and the panel, in pixels.
    pub(super) fn world_width(&self) -> f32 {
        (self.panel_left() - self.palette_width()).max(0.0)
    }

    pub(super) fn in_world(&self, (x, y): (f32, f32)) -> bool {
        x > self.palette_width() && x < self.panel_left() && y > self.top() && y < self.height
    }

    /// The kinds on the palette, top to bottom (the goal is moved, never made).
    pub(super) fn palette_kinds() -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(|k| !k.is_single())
    }

    pub(super) fn palette_button_top(&self, i: usize) -> f32 {
        self.top() + (8.0 + PALETTE_ROW_PX * i as f32) * self.scale
    }

    pub(super) fn palette_hit(&self, (x, y): (f32, f32)) -> Option<Kind> {
        if x > self.palette_width() || y < self.top() {
            return None;
        }
        Layout::palette_kinds().enumerate().find_map(|(i, kind)| {
            let top = self.palette_button_top(i);
            (y >= top && y < top + PALETTE_ROW_PX * self.scale).then_some(kind)
        })
    }

    pub(super) fn palette_button_center(&self, label: &str) -> Option<(f32, f32)> {
        Layout::palette_kinds()
            .position(|k| k.label() == label)
            .map(|i| {
                (
                    self.palette_width() * 0.5,
                    self.palette_button_top(i) + PALETTE_ROW_PX * self.scale * 0.5,
                )
            })
    }

    /// The top of the panel's first field row.
    pub(super) fn panel_rows_top(&self) -> f32 {
        self.top() + 52.0 * self.scale
    }

    pub(super) fn panel_hit(&self, (x, y): (f32, f32)) -> Option<usize> {
        if x < self.panel_left() || y < self.panel_rows_top() {
            return None;
        }
        Some(((y - self.panel_rows_top()) / (PANEL_ROW_PX * self.scale)) as usize)
    }

    pub(super) fn panel_row_center(&self, row: usize) -> (f32, f32) {
        (
            self.panel_left() + 40.0 * self.scale,
            self.panel_rows_top() + (row as f32 + 0.5) * PANEL_ROW_PX * self.scale,
        )
    }
}
