//! Grapple rings.

use macroquad::shapes::{draw_circle, draw_circle_lines};

use crate::app::palette;
use crate::app::render::mq;
use crate::sim::World;

/// Grapple rings: a ring on a dark hub; those within the rope's reach glow and pulse.
pub fn draw(world: &World, time_s: f32) {
    let r = world.tuning().hook.grapple_point_radius_m;
    let reach = world.max_rope_length_m();
    for (i, point) in world.level().grapple_points.iter().enumerate() {
        let p = mq(point.v());
        let in_reach = (point.v() - world.player().pos).length() <= reach;
        if in_reach {
            let pulse = 0.5 + 0.5 * (time_s * 4.0 + i as f32).sin();
            for k in 1..=4 {
                let rr = r * (1.2 + 0.35 * k as f32 + 0.2 * pulse);
                draw_circle(p.x, p.y, rr, palette::GRAPPLE_POINT.with_alpha(0.07));
            }
        }
        draw_circle(p.x, p.y, r * 1.05, palette::GRAPPLE_POINT_DARK.color());
        let ring = if in_reach {
            palette::GRAPPLE_POINT.color()
        } else {
            palette::GRAPPLE_POINT.with_alpha(0.55)
        };
        draw_circle_lines(p.x, p.y, r * 0.8, r * 0.35, ring);
        draw_circle(p.x, p.y, r * 0.25, palette::HOOK_DARK.color());
    }
}
