//! Vines: a green stem through the simulated nodes (smoothed like the rope) with leaves along
//! it, alternating sides. A held vine is drawn whole: the part above the hand (the player's
//! rope) and the part below.

use macroquad::math::{vec2, Vec2 as MqVec2};
use macroquad::models::draw_mesh;
use macroquad::shapes::draw_triangle;

use crate::app::palette;
use crate::app::render::rope_mesh::{rope_mesh, smooth};
use crate::app::render::{mq, Snapshot};

/// Half width of the stem, metres.
const STEM_HALF_WIDTH_M: f32 = 0.06;
/// Distance between leaves along the stem, and a leaf's length, metres.
const LEAF_SPACING_M: f32 = 0.45;
const LEAF_LENGTH_M: f32 = 0.28;

pub fn draw(now: &Snapshot) {
    for nodes in now.vine_ropes.iter().filter(|n| n.len() >= 2) {
        let points: Vec<MqVec2> = nodes.iter().map(|&p| mq(p)).collect();
        let curve = smooth(&points);
        let mut stem = rope_mesh(&curve, STEM_HALF_WIDTH_M, None);
        let c = palette::VINE;
        let color = [c.0, c.1, c.2, 255];
        for v in &mut stem.vertices {
            v.color = color;
        }
        draw_mesh(&stem);
        draw_leaves(&curve);
    }
}

fn draw_leaves(curve: &[MqVec2]) {
    let leaf = palette::VINE_LEAF.color();
    let mut next_m = LEAF_SPACING_M * 0.5;
    let mut along_m = 0.0;
    let mut side = 1.0;
    for w in curve.windows(2) {
        let (a, b) = (w[0], w[1]);
        let length = (b - a).length();
        if length <= 1e-6 {
            continue;
        }
        let dir = (b - a) / length;
        while next_m <= along_m + length {
            let base = a + dir * (next_m - along_m);
            let normal = vec2(-dir.y, dir.x) * side;
            // A leaf: a thin triangle pointing out and a little down the stem.
            let tip = base + (normal * 0.8 + dir * 0.6) * LEAF_LENGTH_M;
            let width = dir * LEAF_LENGTH_M * 0.3;
            draw_triangle(base - width, base + width, tip, leaf);
            side = -side;
            next_m += LEAF_SPACING_M;
        }
        along_m += length;
    }
}
