//! The level, the player, the hook and its rope, the effects and the aiming reticle, in world
//! units, over the parallax background.

use macroquad::camera::set_camera;
use macroquad::math::{vec2, Vec2 as MqVec2};
use macroquad::models::draw_mesh;
use macroquad::shapes::{draw_circle, draw_circle_lines, draw_line, draw_triangle};
use macroquad::window::{clear_background, screen_height, screen_width};

use super::art::Art;
use super::objects;
use super::player_sprite::draw_player;
use super::rope_mesh::{rope_mesh, smooth};
use super::{background, mq, sim_vec, Snapshot};
use crate::app::camera::CameraState;
use crate::app::palette;
use crate::sim::geometry::groups;
use crate::sim::hook::{AimPreview, AimTarget, Hook};
use crate::sim::{AttachKind, World, TICK_DT_S};

/// The rope is drawn at least this wide (half width, metres) so its fibres show at the usual
/// zoom; the simulation's radius stays what collides.
const MIN_ROPE_DRAW_HALF_WIDTH_M: f32 = 0.085;
/// Size of the hook's drawing, metres.
const HOOK_SIZE_M: f32 = 0.36;

/// Clears the screen to the title's skyline (for screens without a world).
pub fn clear() {
    clear_background(palette::BACKGROUND.color());
    background::draw(
        background::seed_of("Tether"),
        crate::sim::math::Vec2::ZERO,
        18.0,
    );
}

pub fn draw_world(
    world: &World,
    now: &Snapshot,
    camera: &CameraState,
    aim: Option<&AimPreview>,
    art: &mut Art,
    ghost: Option<(&crate::app::ghost::Ghost, f32)>,
) {
    let time_s = world.tick() as f32 * TICK_DT_S;
    let seed = art.prepare_level(world.level(), world.tuning());
    background::draw(seed, camera.center, camera.view_height_m);
    let aspect = screen_width() / screen_height().max(1.0);
    set_camera(&camera.to_camera2d_shaken(aspect));

    objects::draw_behind(world, time_s);
    art.draw_level();
    objects::draw_front(world, now, art.front_parts(), time_s);

    // The ghost runs behind the player.
    if let Some((ghost, alpha)) = ghost {
        ghost.draw(alpha);
    }
    let player = mq(now.player_pos);
    let half_width = world.tuning().rope.radius_m.max(MIN_ROPE_DRAW_HALF_WIDTH_M);
    let fibre = art.textures().fibre.clone();
    let mut rope_end_dir = None;
    let on_vine = world.held_vine().is_some();
    if now.rope_nodes.len() >= 2 && on_vine {
        // The vine is drawn with the objects; the player's arms still reach up along it.
        let n = now.rope_nodes.len();
        rope_end_dir = Some(mq(now.rope_nodes[n - 2]) - mq(now.rope_nodes[n - 1]));
    } else if now.rope_nodes.len() >= 2 {
        let nodes: Vec<MqVec2> = now.rope_nodes.iter().map(|&p| mq(p)).collect();
        let curve = smooth(&nodes);
        draw_mesh(&rope_mesh(&curve, half_width, Some(fibre)));
        let n = nodes.len();
        rope_end_dir = Some(nodes[n - 2] - nodes[n - 1]);
        let kind = match world.hook() {
            Hook::Attached { kind, .. } => *kind,
            _ => AttachKind::Surface,
        };
        draw_hook_attached(world, nodes[0], nodes[1], kind);
    } else if let Some(hook) = now.hook_pos {
        let hook = mq(hook);
        draw_mesh(&rope_mesh(&[player, hook], half_width * 0.7, Some(fibre)));
        let dir = (hook - player).normalize_or_zero();
        draw_hook(hook, dir, 0.6);
    }
    draw_player(&art.anim, world, player, rope_end_dir, 1.0);
    art.effects.draw();
    if let Some(aim) = aim {
        draw_reticle(aim, player);
    }
    macroquad::camera::set_default_camera();
    art.effects
        .draw_screen_overlay(screen_width(), screen_height());
}

/// The hook at the anchor, turned to the surface it bit (its normal, found with the same ray
/// query the hook uses) or around the ring it holds.
fn draw_hook_attached(world: &World, anchor: MqVec2, next: MqVec2, kind: AttachKind) {
    let away = (next - anchor).normalize_or_zero();
    if kind == AttachKind::GrapplePoint {
        let r = world.tuning().hook.grapple_point_radius_m;
        draw_circle_lines(anchor.x, anchor.y, r * 0.55, 0.07, palette::HOOK.color());
        draw_hook(anchor + away * r * 0.5, -away, 0.8);
        return;
    }
    let from = sim_vec(anchor + away * 0.4);
    let normal = world
        .geometry()
        .cast_ray(from, sim_vec(-away * 0.8), groups::SOLID)
        .map(|hit| mq(hit.normal))
        .filter(|n| n.length_squared() > 0.5)
        .unwrap_or(away);
    draw_hook(anchor, -normal, 1.0);
}

/// A grappling hook with its claws at `tip`, pointing along `dir`.
fn draw_hook(tip: MqVec2, dir: MqVec2, scale: f32) {
    let dir = dir.try_normalize().unwrap_or(MqVec2::Y);
    let side = vec2(-dir.y, dir.x);
    let s = HOOK_SIZE_M * scale;
    let shaft_end = tip - dir * s;
    let dark = palette::HOOK_DARK.color();
    let light = palette::HOOK.color();
    draw_line(shaft_end.x, shaft_end.y, tip.x, tip.y, 0.09 * scale, light);
    draw_circle(shaft_end.x, shaft_end.y, 0.07 * scale, dark);
    for sign in [-1.0, 1.0] {
        // Each claw curves back from the tip.
        let a = tip - dir * s * 0.15;
        let b = a + side * sign * s * 0.45 - dir * s * 0.05;
        let c = b - dir * s * 0.35 + side * sign * s * 0.05;
        draw_line(a.x, a.y, b.x, b.y, 0.07 * scale, light);
        draw_line(b.x, b.y, c.x, c.y, 0.06 * scale, light);
        draw_triangle(c, c - side * sign * s * 0.15, c + dir * s * 0.12, dark);
    }
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
