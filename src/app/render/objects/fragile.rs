//! Fragile anchors: a rotten beam is a wooden body scored with dark cracks, which shakes more as
//! the rope's pull wears it toward breaking and is simply gone once it has (its body leaves the
//! snapshot; the crumble is a burst of effects); a cracked ring is a dull ring with a split in
//! it. The pieces of a broken rope whip about, fading, until they are drawn in.

use macroquad::models::draw_mesh;
use macroquad::shapes::{draw_circle, draw_circle_lines, draw_line};

use crate::app::palette;
use crate::app::render::materials::textured_outline;
use crate::app::render::rope_mesh::{rope_mesh, smooth};
use crate::app::render::{mq, Snapshot};
use crate::sim::geometry::Body;
use crate::sim::math::{Pose, Vec2};
use crate::sim::objects::fragile::{FragileAnchorDef, LOOSE_ROPE_S};
use crate::sim::{World, TICK_DT_S};
use macroquad::texture::Texture2D;

/// How far a beam shakes just before it breaks, metres.
const MAX_SHAKE_M: f32 = 0.05;
/// Half width of a loose rope's drawing, metres.
const LOOSE_ROPE_HALF_WIDTH_M: f32 = 0.06;

/// How far along its rating's time each fragile anchor's strain is, 0 to 1.
fn wear(world: &World, index: usize) -> f32 {
    let (Some(def), Some(strain)) = (world.level().fragile.get(index), world.fragile().get(index))
    else {
        return 0.0;
    };
    let ticks = (def.after_s / TICK_DT_S).max(1.0);
    (strain.ticks as f32 / ticks).min(1.0)
}

/// The pose of every rotten beam still standing: still, or shaking as it wears.
pub fn beam_poses(world: &World) -> impl Iterator<Item = (Body, Pose)> + '_ {
    world
        .level()
        .fragile
        .iter()
        .enumerate()
        .filter(|(i, f)| {
            matches!(f.anchor, FragileAnchorDef::Beam { .. }) && world.fragile_intact(*i)
        })
        .map(|(i, _)| {
            let shake = wear(world, i) * MAX_SHAKE_M;
            let phase = world.tick() as f32 * 1.9 + i as f32;
            let offset = Vec2::new(phase.sin(), (phase * 1.3).cos()) * shake;
            (Body::Fragile(i as u16), Pose::from_translation(offset))
        })
}

/// Cracks across each standing rotten beam, so it reads as rotten before anyone hooks it.
pub fn draw_cracks(world: &World, now: &Snapshot) {
    let crack = palette::WOOD_SEAM.color();
    for (i, def) in world.level().fragile.iter().enumerate() {
        let FragileAnchorDef::Beam { shape } = &def.anchor else {
            continue;
        };
        let Some((_, pose)) = now
            .bodies
            .iter()
            .find(|(b, _)| *b == Body::Fragile(i as u16))
        else {
            continue;
        };
        let outline: Vec<_> = textured_outline(shape).iter().map(|&(p, _)| p).collect();
        let n = outline.len();
        if n < 3 {
            continue;
        }
        let offset = mq(pose.translation);
        let center = outline
            .iter()
            .fold(macroquad::math::Vec2::ZERO, |a, &p| a + p)
            / n as f32;
        // A jagged line from one edge's middle to the opposite one's, and a branch.
        let a = (outline[0] + outline[1]) * 0.5;
        let b = (outline[n / 2] + outline[(n / 2 + 1) % n]) * 0.5;
        let mid = center + (b - a).perp() * 0.08;
        let width = 0.05 + 0.04 * wear(world, i);
        for (p, q) in [(a, mid), (mid, b), (mid, mid + (outline[1] - center) * 0.5)] {
            let (p, q) = (p + offset, q + offset);
            draw_line(p.x, p.y, q.x, q.y, width, crack);
        }
    }
}

/// Cracked rings: a dull ring with a split, glowing when in reach like the sound ones.
pub fn draw_rings(world: &World, time_s: f32) {
    let r = world.tuning().hook.grapple_point_radius_m;
    for (i, def) in world.level().fragile.iter().enumerate() {
        let (FragileAnchorDef::Ring { at }, true) = (&def.anchor, world.fragile_intact(i)) else {
            continue;
        };
        let shake = wear(world, i) * MAX_SHAKE_M;
        let p = mq(at.v()) + macroquad::math::vec2((time_s * 60.0 + i as f32).sin() * shake, 0.0);
        draw_circle(p.x, p.y, r * 1.05, palette::GRAPPLE_POINT_DARK.color());
        draw_circle_lines(p.x, p.y, r * 0.8, r * 0.35, palette::CRACKED_RING.color());
        // The split: a dark wedge across the ring at its upper right.
        let dir = macroquad::math::vec2(0.6, 0.8);
        let (inner, outer) = (p + dir * r * 0.5, p + dir * r * 1.05);
        draw_line(
            inner.x,
            inner.y,
            outer.x,
            outer.y,
            r * 0.22,
            palette::HOOK_DARK.color(),
        );
        draw_circle(p.x, p.y, r * 0.25, palette::HOOK_DARK.color());
    }
}

/// Pieces of broken ropes, fading out over their last half second.
pub fn draw_loose_ropes(world: &World, now: &Snapshot, fibre: &Texture2D) {
    for (nodes, loose) in now.loose_ropes.iter().zip(world.loose_ropes()) {
        if nodes.len() < 2 {
            continue;
        }
        let left_s = loose.ticks_left as f32 * TICK_DT_S;
        let alpha = (left_s / (LOOSE_ROPE_S / 3.0)).min(1.0);
        let points: Vec<_> = nodes.iter().map(|&p| mq(p)).collect();
        let mut mesh = rope_mesh(
            &smooth(&points),
            LOOSE_ROPE_HALF_WIDTH_M,
            Some(fibre.clone()),
        );
        for v in &mut mesh.vertices {
            v.color[3] = (v.color[3] as f32 * alpha) as u8;
        }
        draw_mesh(&mesh);
    }
}
