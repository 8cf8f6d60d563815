//! Winches: the drum (its spokes turn as it reels), the rope (the same textured strip as the
//! player's), and what hangs from it: a weight, or a platform on a two-line bridle.

use macroquad::math::vec2;
use macroquad::models::draw_mesh;
use macroquad::shapes::{draw_circle, draw_circle_lines, draw_line};

use crate::app::palette;
use crate::app::render::rope_mesh::{rope_mesh, smooth};
use crate::app::render::{mq, Snapshot};
use crate::sim::geometry::Body;
use crate::sim::math::{Pose, Vec2};
use crate::sim::objects::winch::LoadDef;
use crate::sim::World;
use macroquad::texture::Texture2D;

/// Radius of a drum's drawing, metres.
const DRUM_RADIUS_M: f32 = 0.4;
/// Half width of a winch rope's drawing: a little thinner than the player's.
const ROPE_HALF_WIDTH_M: f32 = 0.07;

fn load_pose(now: &Snapshot, index: usize) -> Option<Pose> {
    let body = Body::WinchLoad(index as u16);
    now.bodies.iter().find(|(b, _)| *b == body).map(|(_, p)| *p)
}

/// Ropes, drums and bridles: behind the loads.
pub fn draw_ropes(world: &World, now: &Snapshot, fibre: &Texture2D) {
    let rope_radius_m = world.tuning().rope.radius_m;
    for (i, def) in world.level().winches.iter().enumerate() {
        if let Some(nodes) = now.level_ropes.get(i).filter(|n| n.len() >= 2) {
            let points: Vec<_> = nodes.iter().map(|&p| mq(p)).collect();
            draw_mesh(&rope_mesh(
                &smooth(&points),
                ROPE_HALF_WIDTH_M,
                Some(fibre.clone()),
            ));
        }
        if let (LoadDef::Platform { half_extents, .. }, Some(pose)) = (&def.load, load_pose(now, i))
        {
            let (_, offset, _) = def.load.collider(rope_radius_m);
            let top_y = offset.translation.y + half_extents.1;
            let end = mq(pose.translation);
            for side in [-1.0, 1.0] {
                let corner =
                    mq(pose.transform_point(Vec2::new(side * half_extents.0 * 0.85, top_y)));
                draw_line(
                    end.x,
                    end.y,
                    corner.x,
                    corner.y,
                    0.05,
                    palette::ROPE_DARK.color(),
                );
            }
        }
        let drum = mq(def.at.v());
        draw_circle(drum.x, drum.y, DRUM_RADIUS_M, palette::STEEL_DARK.color());
        draw_circle_lines(
            drum.x,
            drum.y,
            DRUM_RADIUS_M,
            0.07,
            palette::STEEL_LIGHT.color(),
        );
        // The spokes turn by the rope wound: a reeling winch visibly works.
        let length_m = world.winches().get(i).map_or(0.0, |w| w.rope.length_m);
        let turn = length_m / DRUM_RADIUS_M;
        for k in 0..3 {
            let a = turn + k as f32 * std::f32::consts::TAU / 3.0;
            let tip = drum + vec2(a.cos(), a.sin()) * DRUM_RADIUS_M * 0.85;
            draw_line(
                drum.x,
                drum.y,
                tip.x,
                tip.y,
                0.06,
                palette::STEEL_LIGHT.color(),
            );
        }
        draw_circle(drum.x, drum.y, 0.08, palette::STEEL_RIVET.color());
    }
}

/// Hanging weights: a steel ball with a highlight, in front of the rope.
pub fn draw_weights(world: &World, now: &Snapshot) {
    let rope_radius_m = world.tuning().rope.radius_m;
    for (i, def) in world.level().winches.iter().enumerate() {
        let (LoadDef::Weight { radius_m, .. }, Some(pose)) = (&def.load, load_pose(now, i)) else {
            continue;
        };
        let (_, offset, _) = def.load.collider(rope_radius_m);
        let c = mq(pose.transform_point(offset.translation));
        draw_circle(c.x, c.y, *radius_m, palette::STEEL_DARK.color());
        draw_circle(c.x, c.y, radius_m * 0.86, palette::STEEL.color());
        draw_circle(
            c.x - radius_m * 0.3,
            c.y + radius_m * 0.3,
            radius_m * 0.25,
            palette::STEEL_LIGHT.color(),
        );
        let end = mq(pose.translation);
        draw_line(
            end.x,
            end.y,
            c.x,
            c.y + radius_m * 0.8,
            0.06,
            palette::STEEL_DARK.color(),
        );
    }
}
