//! Checkpoints: a flag on a pole over a faint zone; a reached one flies high.

use macroquad::math::vec2;
use macroquad::shapes::{draw_circle, draw_line, draw_triangle};

use super::draw_rect_def;
use crate::app::palette;
use crate::sim::World;

pub fn draw(world: &World, time_s: f32) {
    for (i, rect) in world.level().checkpoints.iter().enumerate() {
        let reached = world.checkpoints().reached.get(i).copied().unwrap_or(false);
        let color = if reached {
            palette::CHECKPOINT_REACHED
        } else {
            palette::CHECKPOINT
        };
        draw_rect_def(&rect.rect(), color.with_alpha(0.12));
        let base = vec2((rect.min.0 + rect.max.0) * 0.5, rect.min.1);
        let pole_h = 1.8;
        draw_line(
            base.x,
            base.y,
            base.x,
            base.y + pole_h,
            0.1,
            palette::HOOK_DARK.color(),
        );
        draw_circle(base.x, base.y + pole_h, 0.09, palette::HOOK.color());
        // The flag ripples; a reached one flies high, an open one hangs half-way.
        let top = base.y + if reached { pole_h - 0.05 } else { pole_h * 0.6 };
        let segments = 6;
        let (w, h) = (1.0, 0.55);
        for k in 0..segments {
            let x0 = k as f32 / segments as f32;
            let x1 = (k + 1) as f32 / segments as f32;
            let wave = |x: f32| (time_s * 5.0 - x * 6.0).sin() * 0.07 * x;
            let taper = |x: f32| h * (1.0 - 0.5 * x);
            let a = vec2(base.x + x0 * w, top + wave(x0));
            let b = vec2(base.x + x1 * w, top + wave(x1));
            let c = color.color();
            draw_triangle(a, b, b - vec2(0.0, taper(x1)), c);
            draw_triangle(a, b - vec2(0.0, taper(x1)), a - vec2(0.0, taper(x0)), c);
        }
    }
}
