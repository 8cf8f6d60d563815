//! Cloth: banners and flags as one mesh each, two triangles per intact cell, flat-shaded by how
//! much the cell is squeezed (a fold reads darker) and by which side faces us (a cell turned
//! over shows the darker back of the cloth); nets as their threads. Stripes run down banners so
//! their sway reads at a glance.

use macroquad::math::Vec3;
use macroquad::models::{draw_mesh, Mesh, Vertex};
use macroquad::shapes::draw_line;

use crate::app::palette::{self, Rgb};
use crate::app::render::Snapshot;
use crate::sim::math::Vec2;
use crate::sim::objects::cloth::ClothLook;
use crate::sim::World;

/// Columns per stripe on a banner.
const STRIPE_COLUMNS: usize = 4;
/// Width of a net's threads, metres.
const NET_THREAD_M: f32 = 0.025;

fn shade(color: Rgb, brightness: f32) -> [u8; 4] {
    let f = |c: u8| (c as f32 * brightness).clamp(0.0, 255.0) as u8;
    [f(color.0), f(color.1), f(color.2), 255]
}

pub fn draw(world: &World, now: &Snapshot) {
    for ((def, cloth), positions) in world
        .level()
        .cloths
        .iter()
        .zip(world.cloths())
        .zip(&now.cloths)
    {
        let (columns, rows) = (cloth.columns(), cloth.rows());
        if positions.len() != columns * rows {
            continue;
        }
        let at = |c: usize, r: usize| positions[c * rows + r];
        if def.look == ClothLook::Net {
            let color = palette::NET.color();
            let line = |a: Vec2, b: Vec2| draw_line(a.x, a.y, b.x, b.y, NET_THREAD_M, color);
            for c in 0..columns - 1 {
                for r in 0..rows - 1 {
                    if cloth.cell_intact(c, r) {
                        line(at(c, r), at(c + 1, r));
                        line(at(c, r), at(c, r + 1));
                        line(at(c + 1, r), at(c + 1, r + 1));
                        line(at(c, r + 1), at(c + 1, r + 1));
                    }
                }
            }
            continue;
        }
        let (front, stripe) = match def.look {
            ClothLook::Flag => (palette::FLAG, palette::FLAG_STRIPE),
            _ => (palette::BANNER, palette::BANNER_STRIPE),
        };
        let rest_area = def.spacing_m * def.spacing_m * 0.5;
        let mut mesh = Mesh {
            vertices: Vec::with_capacity(columns * rows * 6),
            indices: Vec::with_capacity(columns * rows * 6),
            texture: None,
        };
        for c in 0..columns - 1 {
            let base = if (c / STRIPE_COLUMNS).is_multiple_of(2) {
                front
            } else {
                stripe
            };
            for r in 0..rows - 1 {
                if !cloth.cell_intact(c, r) {
                    continue;
                }
                let corners = [at(c, r), at(c + 1, r), at(c + 1, r + 1), at(c, r + 1)];
                for tri in [[0, 1, 3], [1, 2, 3]] {
                    let [a, b, d] = tri.map(|k| corners[k]);
                    // As built the grid's triangles wind clockwise (x right, rows down):
                    // counter-clockwise means the cell has turned over.
                    let twice_area = (b - a).perp_dot(d - a);
                    let facing_us = twice_area <= 0.0;
                    let squeeze = (twice_area.abs() * 0.5 / rest_area).clamp(0.0, 1.0);
                    let brightness = if facing_us {
                        0.55 + 0.45 * squeeze
                    } else {
                        0.35 + 0.25 * squeeze
                    };
                    let color = shade(base, brightness);
                    let first = mesh.vertices.len() as u16;
                    for p in [a, b, d] {
                        mesh.vertices.push(Vertex {
                            position: Vec3::new(p.x, p.y, 0.0),
                            uv: macroquad::math::Vec2::ZERO,
                            color,
                            normal: macroquad::math::Vec4::ZERO,
                        });
                    }
                    mesh.indices.extend([first, first + 1, first + 2]);
                }
            }
        }
        draw_mesh(&mesh);
    }
}
