//! The rope as one mesh: a smooth curve through the simulated nodes (Catmull-Rom; the nodes are
//! the truth, the curve is only drawing), laid out as a strip of quads with a round cap at each
//! end. Texture coordinates run along its length (u, metres / repeat) and across it (v, 0..1), so
//! a small generated image gives it twisted fibres and shading. One draw call however long.

use macroquad::math::{vec2, Vec2 as MqVec2, Vec3, Vec4};
use macroquad::models::{Mesh, Vertex};
use macroquad::texture::Texture2D;

use crate::app::palette::{self, Rgb};

/// Curve points drawn per simulated segment.
pub const SUBDIVISIONS: usize = 4;
/// Triangles in each end's half-circle cap.
const CAP_SEGMENTS: usize = 8;
/// A mesh's u16 indices limit one draw to 65 535 vertices.
const MAX_VERTICES: usize = u16::MAX as usize;
/// Metres of rope one repeat of the fibre image covers.
pub const FIBRE_REPEAT_M: f32 = 0.36;
/// The fibre image: pixels along the rope and across it.
pub const FIBRE_W_PX: usize = 32;
pub const FIBRE_H_PX: usize = 16;

/// The fibre image's pixel (`x` along, `y` across): the rope's own orange, diagonal twist lines
/// and darker edges with a highlight just above the middle, so it reads as round and twisted.
pub fn fibre_pixel(x: usize, y: usize) -> Rgb {
    let (x, y) = (x % FIBRE_W_PX, y % FIBRE_H_PX);
    if y == 0 || y == FIBRE_H_PX - 1 {
        return palette::ROPE_DARK;
    }
    // Three strands per repeat, each line slanting across the rope.
    let slant = (x * 2 + y * 3) % (FIBRE_W_PX * 2 / 3);
    if slant < 3 {
        return palette::ROPE_DARK;
    }
    if y == 4 && slant > 6 && slant < 16 {
        return palette::ROPE_LIGHT;
    }
    palette::ROPE
}

pub fn fibre_rgba() -> Vec<u8> {
    let mut bytes = Vec::with_capacity(FIBRE_W_PX * FIBRE_H_PX * 4);
    for y in 0..FIBRE_H_PX {
        for x in 0..FIBRE_W_PX {
            let c = fibre_pixel(x, y);
            bytes.extend([c.0, c.1, c.2, 255]);
        }
    }
    bytes
}

/// A Catmull-Rom curve through `points` with `SUBDIVISIONS` points per segment; it passes
/// through every node, so the drawn rope never leaves where the simulation put it.
pub fn smooth(points: &[MqVec2]) -> Vec<MqVec2> {
    if points.len() < 3 {
        return points.to_vec();
    }
    let n = points.len();
    let at = |i: isize| points[i.clamp(0, n as isize - 1) as usize];
    let mut out = Vec::with_capacity((n - 1) * SUBDIVISIONS + 1);
    for i in 0..n - 1 {
        let i = i as isize;
        let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
        for k in 0..SUBDIVISIONS {
            let t = k as f32 / SUBDIVISIONS as f32;
            let (t2, t3) = (t * t, t * t * t);
            out.push(
                0.5 * (2.0 * p1
                    + (p2 - p0) * t
                    + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
                    + (3.0 * p1 - p0 - 3.0 * p2 + p3) * t3),
            );
        }
    }
    out.push(points[n - 1]);
    out
}

fn vertex(p: MqVec2, uv: MqVec2) -> Vertex {
    Vertex {
        position: Vec3::new(p.x, p.y, 0.0),
        uv,
        color: [255, 255, 255, 255],
        normal: Vec4::ZERO,
    }
}

/// Builds the rope mesh along `points` (world units; already smoothed if wanted).
pub fn rope_mesh(points: &[MqVec2], half_width: f32, texture: Option<Texture2D>) -> Mesh {
    let usable = points
        .len()
        .min((MAX_VERTICES - 2 * (CAP_SEGMENTS + 2)) / 2);
    let points = &points[..usable];
    let mut vertices = Vec::with_capacity(points.len() * 2 + 2 * (CAP_SEGMENTS + 2));
    let mut indices: Vec<u16> = Vec::with_capacity(points.len() * 6 + 6 * CAP_SEGMENTS);
    let n = points.len();
    let tangent = |i: usize| {
        let a = points[i.saturating_sub(1)];
        let b = points[(i + 1).min(n - 1)];
        (b - a).try_normalize().unwrap_or(MqVec2::X)
    };
    let mut u = 0.0;
    for i in 0..n {
        if i > 0 {
            u += (points[i] - points[i - 1]).length() / FIBRE_REPEAT_M;
        }
        let t = tangent(i);
        let side = vec2(-t.y, t.x) * half_width;
        vertices.push(vertex(points[i] + side, vec2(u, 0.0)));
        vertices.push(vertex(points[i] - side, vec2(u, 1.0)));
        if i > 0 {
            let b = (2 * i) as u16;
            indices.extend([b - 2, b - 1, b + 1, b - 2, b + 1, b]);
        }
    }
    // Round caps: half circles facing out of each end.
    for (i, out_dir, u_end) in [(0, -tangent(0), 0.0), (n - 1, tangent(n - 1), u)] {
        let center_index = vertices.len() as u16;
        let side = vec2(-out_dir.y, out_dir.x);
        vertices.push(vertex(points[i], vec2(u_end, 0.5)));
        for k in 0..=CAP_SEGMENTS {
            let a = k as f32 / CAP_SEGMENTS as f32 * std::f32::consts::PI;
            let dir = side * a.cos() + out_dir * a.sin();
            let v = 0.5 - 0.5 * a.cos();
            vertices.push(vertex(points[i] + dir * half_width, vec2(u_end, v)));
        }
        for k in 0..CAP_SEGMENTS as u16 {
            indices.extend([center_index, center_index + 1 + k, center_index + 2 + k]);
        }
    }
    Mesh {
        vertices,
        indices,
        texture,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_passes_through_every_node() {
        let nodes = [
            vec2(0.0, 0.0),
            vec2(1.0, -1.0),
            vec2(2.0, -1.5),
            vec2(3.5, -1.0),
        ];
        let curve = smooth(&nodes);
        assert_eq!(curve.len(), (nodes.len() - 1) * SUBDIVISIONS + 1);
        for (i, node) in nodes.iter().enumerate() {
            assert!((curve[i * SUBDIVISIONS] - *node).length() < 1e-5);
        }
        // Points between nodes are new (a smooth curve, not the polyline repeated).
        assert!((curve[1] - nodes[0]).length() > 1e-3);
    }

    #[test]
    fn the_mesh_is_a_strip_with_two_caps_and_u_runs_along_the_length() {
        let points = [
            vec2(0.0, 0.0),
            vec2(FIBRE_REPEAT_M, 0.0),
            vec2(2.0 * FIBRE_REPEAT_M, 0.0),
        ];
        let mesh = rope_mesh(&points, 0.1, None);
        assert_eq!(mesh.vertices.len(), 6 + 2 * (CAP_SEGMENTS + 2));
        assert_eq!(mesh.indices.len(), 12 + 6 * CAP_SEGMENTS);
        assert!((mesh.vertices[4].uv.x - 2.0).abs() < 1e-5);
        // Every vertex lies within half a width of the polyline.
        for v in &mesh.vertices {
            assert!(v.position.y.abs() <= 0.1 + 1e-5);
        }
    }

    #[test]
    fn the_rope_keeps_its_own_colour_on_most_of_its_surface() {
        // The render smoke tests find the rope on screen by this colour.
        let main = (0..FIBRE_H_PX)
            .flat_map(|y| (0..FIBRE_W_PX).map(move |x| fibre_pixel(x, y)))
            .filter(|&c| c == palette::ROPE)
            .count();
        assert!(main * 2 > FIBRE_W_PX * FIBRE_H_PX, "{main}");
    }
}
