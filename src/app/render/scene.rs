//! The level, the player, the hook and its rope, and the aiming reticle, in world units.

use macroquad::math::{vec2, Vec2 as MqVec2};
use macroquad::shapes::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines, draw_triangle,
};
use macroquad::window::{clear_background, screen_height, screen_width};

use super::rope_mesh::draw_rope;
use super::{mq, Snapshot};
use crate::app::camera::CameraState;
use crate::app::palette::{self, Rgb};
use crate::sim::hook::{AimPreview, AimTarget};
use crate::sim::level::{RectDef, ShapeDef};
use crate::sim::math::rotation_from_deg;
use crate::sim::World;

/// Width of outlines, in metres.
const OUTLINE_M: f32 = 0.06;
/// Spacing of the background grid, in metres.
const GRID_M: f32 = 2.0;

/// Clears the screen to the background colour (for screens without a world).
pub fn clear() {
    clear_background(palette::BACKGROUND.color());
}

pub fn draw_world(world: &World, now: &Snapshot, camera: &CameraState, aim: Option<&AimPreview>) {
    clear_background(palette::BACKGROUND.color());
    draw_grid(camera);
    let level = &world.level;
    for (i, rect) in level.checkpoints.iter().enumerate() {
        let reached = world.checkpoint.is_some_and(|c| c >= i);
        let color = if reached {
            palette::CHECKPOINT_REACHED
        } else {
            palette::CHECKPOINT
        };
        draw_rect_def(rect, color.with_alpha(0.25));
        let flag_base = vec2((rect.min.0 + rect.max.0) * 0.5, rect.min.1);
        draw_line(
            flag_base.x,
            flag_base.y,
            flag_base.x,
            flag_base.y + 1.6,
            0.08,
            color.color(),
        );
        draw_triangle(
            flag_base + vec2(0.0, 1.6),
            flag_base + vec2(0.9, 1.35),
            flag_base + vec2(0.0, 1.1),
            color.color(),
        );
    }
    draw_rect_def(&level.goal, palette::GOAL.with_alpha(0.35));
    draw_rectangle_lines(
        level.goal.min.0,
        level.goal.min.1,
        level.goal.max.0 - level.goal.min.0,
        level.goal.max.1 - level.goal.min.1,
        OUTLINE_M * 2.0,
        palette::GOAL.color(),
    );
    for hazard in &level.hazards {
        draw_shape(hazard, palette::HAZARD, palette::HAZARD);
    }
    for solid in &level.solids {
        let (fill, edge) = if solid.hookable {
            (palette::SOLID_HOOKABLE, palette::SOLID_HOOKABLE_EDGE)
        } else {
            (palette::SOLID_PLAIN, palette::SOLID_PLAIN_EDGE)
        };
        draw_shape(&solid.shape, fill, edge);
    }
    let point_radius = world.tuning.hook.grapple_point_radius_m;
    for point in &level.grapple_points {
        draw_circle(
            point.0,
            point.1,
            point_radius,
            palette::GRAPPLE_POINT.color(),
        );
        draw_circle_lines(
            point.0,
            point.1,
            point_radius * 1.6,
            OUTLINE_M,
            palette::GRAPPLE_POINT.with_alpha(0.6),
        );
    }

    let player = mq(now.player_pos);
    let rope_half_width = world.tuning.rope.radius_m.max(0.05);
    if now.rope_nodes.len() >= 2 {
        let points: Vec<MqVec2> = now.rope_nodes.iter().map(|&p| mq(p)).collect();
        draw_rope(&points, rope_half_width, palette::ROPE);
        let anchor = points[0];
        draw_circle(
            anchor.x,
            anchor.y,
            rope_half_width * 2.5,
            palette::HOOK.color(),
        );
    } else if let Some(hook) = now.hook_pos {
        let hook = mq(hook);
        draw_rope(&[player, hook], rope_half_width * 0.7, palette::ROPE);
        draw_circle(hook.x, hook.y, rope_half_width * 2.5, palette::HOOK.color());
    }
    draw_player(world, player);
    if let Some(aim) = aim {
        draw_reticle(aim, player);
    }
}

fn draw_grid(camera: &CameraState) {
    let aspect = screen_width() / screen_height().max(1.0);
    let half_h = camera.view_height_m * 0.5 + GRID_M;
    let half_w = half_h * aspect + GRID_M;
    let c = camera.center;
    let color = palette::BACKGROUND_GRID.color();
    let mut x = ((c.x - half_w) / GRID_M).floor() * GRID_M;
    while x < c.x + half_w {
        draw_line(x, c.y - half_h, x, c.y + half_h, 0.03, color);
        x += GRID_M;
    }
    let mut y = ((c.y - half_h) / GRID_M).floor() * GRID_M;
    while y < c.y + half_h {
        draw_line(c.x - half_w, y, c.x + half_w, y, 0.03, color);
        y += GRID_M;
    }
}

fn draw_rect_def(rect: &RectDef, color: macroquad::color::Color) {
    draw_rectangle(
        rect.min.0,
        rect.min.1,
        rect.max.0 - rect.min.0,
        rect.max.1 - rect.min.1,
        color,
    );
}

/// Corners of a shape's outline, for polygons and (rotated) boxes.
fn outline(shape: &ShapeDef) -> Option<Vec<MqVec2>> {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => {
            let rot = rotation_from_deg(*rotation_deg);
            let (c, s) = (rot.re, rot.im);
            let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
            Some(
                corners
                    .iter()
                    .map(|&(sx, sy)| {
                        let (lx, ly) = (sx * half_extents.0, sy * half_extents.1);
                        vec2(center.0 + lx * c - ly * s, center.1 + lx * s + ly * c)
                    })
                    .collect(),
            )
        }
        ShapeDef::Polygon { points } => Some(points.iter().map(|p| vec2(p.0, p.1)).collect()),
        ShapeDef::Circle { .. } => None,
    }
}

fn draw_shape(shape: &ShapeDef, fill: Rgb, edge: Rgb) {
    if let ShapeDef::Circle { center, radius } = shape {
        draw_circle(center.0, center.1, *radius, fill.color());
        draw_circle_lines(center.0, center.1, *radius, OUTLINE_M, edge.color());
        return;
    }
    let Some(points) = outline(shape) else { return };
    for i in 1..points.len() - 1 {
        draw_triangle(points[0], points[i], points[i + 1], fill.color());
    }
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        draw_line(a.x, a.y, b.x, b.y, OUTLINE_M, edge.color());
    }
}

fn draw_player(world: &World, pos: MqVec2) {
    let t = &world.tuning.player;
    let (w, h) = (t.half_width_m, t.half_height_m);
    draw_rectangle(
        pos.x - w,
        pos.y - h,
        2.0 * w,
        2.0 * h,
        palette::PLAYER.color(),
    );
    let eye_x = pos.x + world.player.facing as f32 * w * 0.45;
    draw_circle(
        eye_x,
        pos.y + h * 0.35,
        w * 0.18,
        palette::PLAYER_EYE.color(),
    );
}

fn draw_reticle(aim: &AimPreview, player: MqVec2) {
    let color = match aim.target {
        AimTarget::GrapplePoint(_) | AimTarget::Hookable => palette::RETICLE_OK,
        AimTarget::NotHookable => palette::RETICLE_NO,
        AimTarget::OutOfRange => palette::RETICLE_OUT_OF_RANGE,
    };
    let end = mq(aim.end);
    // A faint aim line shows the range; the reticle marks where the hook would land.
    draw_line(
        player.x,
        player.y,
        end.x,
        end.y,
        0.03,
        color.with_alpha(0.25),
    );
    let r = 0.35;
    draw_circle_lines(end.x, end.y, r, 0.06, color.color());
    if aim.target.attaches() {
        draw_circle(end.x, end.y, 0.1, color.color());
    } else {
        // A cross: this spot will not hold the hook.
        draw_line(
            end.x - r * 0.6,
            end.y - r * 0.6,
            end.x + r * 0.6,
            end.y + r * 0.6,
            0.06,
            color.color(),
        );
        draw_line(
            end.x - r * 0.6,
            end.y + r * 0.6,
            end.x + r * 0.6,
            end.y - r * 0.6,
            0.06,
            color.color(),
        );
    }
}
