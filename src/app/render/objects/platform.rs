//! Moving platforms' marks: the track a path platform follows and the pivot a turning one
//! turns about. The platforms themselves are meshes of `render::bodies`, kept by `Art`.

use macroquad::shapes::{draw_circle, draw_line};

use crate::app::palette;
use crate::app::render::mq;
use crate::sim::objects::platform::MotionDef;
use crate::sim::World;

/// Width of the faint line along a platform's path, metres.
const TRACK_WIDTH_M: f32 = 0.06;

/// Each path platform's track, faint behind it, so a player can read where it will go; a
/// turning platform's pivot as a bolt.
pub fn draw_tracks(world: &World) {
    let color = palette::TRACK.with_alpha(0.35);
    for platform in &world.level().platforms {
        match &platform.motion {
            MotionDef::Path {
                points, ping_pong, ..
            } => {
                let Some(first) = points.first() else {
                    continue;
                };
                let center = platform.written_center();
                let stops: Vec<_> = points
                    .iter()
                    .map(|p| mq(center + p.v() - first.v()))
                    .collect();
                let closing =
                    (!ping_pong && stops.len() > 2).then(|| [stops[stops.len() - 1], stops[0]]);
                for pair in stops.windows(2).map(|w| [w[0], w[1]]).chain(closing) {
                    draw_line(
                        pair[0].x,
                        pair[0].y,
                        pair[1].x,
                        pair[1].y,
                        TRACK_WIDTH_M,
                        color,
                    );
                }
                for stop in &stops {
                    draw_circle(stop.x, stop.y, TRACK_WIDTH_M * 1.6, color);
                }
            }
            MotionDef::Rotate { .. } => {}
        }
    }
}

/// The bolt a turning platform turns about, drawn over the platform.
pub fn draw_pivots(world: &World) {
    for platform in &world.level().platforms {
        if let MotionDef::Rotate { pivot, .. } = &platform.motion {
            draw_circle(pivot.0, pivot.1, 0.16, palette::STEEL_DARK.color());
            draw_circle(pivot.0, pivot.1, 0.08, palette::STEEL_RIVET.color());
        }
    }
}
