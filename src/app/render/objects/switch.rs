//! Switches: a plate along the bottom of the zone, pressed down and lit while held.

use crate::app::palette;
use crate::sim::level::RectDef;
use crate::sim::level::P;
use crate::sim::World;

use super::draw_rect_def;

/// Plate height, metres, up and pressed.
const PLATE_UP_M: f32 = 0.16;
const PLATE_DOWN_M: f32 = 0.06;

pub fn draw(world: &World) {
    for (i, switch) in world.level().switches.iter().enumerate() {
        let pressed = world.switches_pressed().get(i).copied().unwrap_or(false);
        let rect = switch.rect();
        let (color, height) = if pressed {
            (palette::SWITCH_PRESSED, PLATE_DOWN_M)
        } else {
            (palette::SWITCH, PLATE_UP_M)
        };
        draw_rect_def(&rect, color.with_alpha(if pressed { 0.14 } else { 0.07 }));
        let inset = ((rect.max.0 - rect.min.0) * 0.08).min(0.2);
        let base = RectDef {
            min: P(rect.min.0, rect.min.1),
            max: P(rect.max.0, rect.min.1 + PLATE_DOWN_M * 0.6),
        };
        draw_rect_def(&base, palette::STEEL_DARK.color());
        let plate = RectDef {
            min: P(rect.min.0 + inset, rect.min.1),
            max: P(rect.max.0 - inset, rect.min.1 + height),
        };
        draw_rect_def(&plate, color.color());
    }
}
