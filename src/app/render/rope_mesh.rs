//! The rope as one mesh: a quad per segment plus a circle cap at every joint, so the rope has a
//! constant width in world units, round bends, and costs one draw call however long it is.

use macroquad::math::{Vec2 as MqVec2, Vec3, Vec4};
use macroquad::models::{draw_mesh, Mesh, Vertex};

use crate::app::palette::Rgb;

/// Triangles in each joint's circle cap.
const CAP_SEGMENTS: usize = 10;
/// A mesh's u16 indices limit one draw to 65 535 vertices.
const MAX_VERTICES: usize = u16::MAX as usize;

/// Builds the rope mesh for `points` (world units) with `half_width`.
pub fn rope_mesh(points: &[MqVec2], half_width: f32, color: Rgb) -> Mesh {
    let color = [color.0, color.1, color.2, 255];
    let vertex = |p: MqVec2| Vertex {
        position: Vec3::new(p.x, p.y, 0.0),
        uv: MqVec2::ZERO,
        color,
        normal: Vec4::ZERO,
    };
    let per_point = 4 + CAP_SEGMENTS + 1;
    let usable = points.len().min(MAX_VERTICES / per_point);
    let points = &points[..usable];
    let mut vertices = Vec::with_capacity(points.len() * per_point);
    let mut indices: Vec<u16> = Vec::with_capacity(points.len() * (6 + 3 * CAP_SEGMENTS));
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let dir = (b - a).try_normalize().unwrap_or(MqVec2::X);
        let side = MqVec2::new(-dir.y, dir.x) * half_width;
        let base = vertices.len() as u16;
        vertices.extend([
            vertex(a + side),
            vertex(a - side),
            vertex(b - side),
            vertex(b + side),
        ]);
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    for &p in points {
        let center = vertices.len() as u16;
        vertices.push(vertex(p));
        for k in 0..CAP_SEGMENTS {
            let angle = k as f32 / CAP_SEGMENTS as f32 * std::f32::consts::TAU;
            vertices.push(vertex(
                p + MqVec2::new(angle.cos(), angle.sin()) * half_width,
            ));
        }
        for k in 0..CAP_SEGMENTS as u16 {
            let next = (k + 1) % CAP_SEGMENTS as u16;
            indices.extend([center, center + 1 + k, center + 1 + next]);
        }
    }
    Mesh {
        vertices,
        indices,
        texture: None,
    }
}

pub fn draw_rope(points: &[MqVec2], half_width: f32, color: Rgb) {
    if points.len() >= 2 {
        draw_mesh(&rope_mesh(points, half_width, color));
    }
}
