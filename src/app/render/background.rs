//! The background: a sky gradient and three parallax layers (far stars, mountains, near hills
//! with pines), generated in code from the level's name, so each level has its own skyline and
//! a theme picked from a few, with nothing to download. The layers scroll slower than the world,
//! which gives depth.

use macroquad::camera::set_default_camera;
use macroquad::math::{vec2, Vec2 as MqVec2, Vec3, Vec4};
use macroquad::models::{draw_mesh, Mesh, Vertex};
use macroquad::window::{screen_height, screen_width};

use crate::app::palette::Rgb;
use crate::sim::math::Vec2;

/// Columns each ridge is sampled at across the screen.
const COLUMNS: usize = 96;

/// One look: sky from top to horizon, then each layer's colour from far to near.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub sky_top: Rgb,
    pub sky_horizon: Rgb,
    pub stars: Rgb,
    pub far: Rgb,
    pub near: Rgb,
}

pub const THEMES: [Theme; 3] = [
    // Dusk: violet sky over blue mountains.
    Theme {
        sky_top: Rgb(14, 16, 34),
        sky_horizon: Rgb(58, 44, 84),
        stars: Rgb(200, 196, 230),
        far: Rgb(38, 36, 66),
        near: Rgb(24, 26, 46),
    },
    // Night forest: teal.
    Theme {
        sky_top: Rgb(10, 20, 30),
        sky_horizon: Rgb(30, 70, 80),
        stars: Rgb(190, 230, 230),
        far: Rgb(22, 48, 58),
        near: Rgb(14, 32, 38),
    },
    // Ember: a warm haze over dark rock.
    Theme {
        sky_top: Rgb(24, 14, 22),
        sky_horizon: Rgb(96, 48, 44),
        stars: Rgb(240, 200, 170),
        far: Rgb(60, 32, 38),
        near: Rgb(34, 20, 26),
    },
];

/// A stable number from a name (FNV-1a), to pick the theme and seed the skyline.
pub fn seed_of(name: &str) -> u32 {
    name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

pub fn theme_for(seed: u32) -> Theme {
    THEMES[(seed % THEMES.len() as u32) as usize]
}

/// Which of the `THEMES` (and of the music's world backings) a level uses.
pub fn theme_index(level_name: &str) -> usize {
    (seed_of(level_name) % THEMES.len() as u32) as usize
}

/// A hash of an integer cell to 0..1.
fn hash01(seed: u32, i: i32) -> f32 {
    let mut x = seed ^ (i as u32).wrapping_mul(0x27d4_eb2d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x2c1b_3c6d);
    x ^= x >> 12;
    x = x.wrapping_mul(0x297a_2d39);
    x ^= x >> 15;
    (x >> 8) as f32 / (1u32 << 24) as f32
}

/// Smooth value noise in 0..1 along x.
fn noise(seed: u32, x: f32) -> f32 {
    let i = x.floor();
    let f = x - i;
    let t = f * f * (3.0 - 2.0 * f);
    let (a, b) = (hash01(seed, i as i32), hash01(seed, i as i32 + 1));
    a + (b - a) * t
}

/// Height (0..1 of its band) of a ridge at layer position `x`.
pub fn ridge(seed: u32, x: f32, jagged: bool) -> f32 {
    let base = noise(seed, x * 0.35) * 0.6 + noise(seed ^ 0x5555, x * 0.9) * 0.3;
    let detail = if jagged {
        // Mountains: sharp peaks from a folded noise.
        (noise(seed ^ 0xaaaa, x * 2.2) - 0.5).abs() * 0.25
    } else {
        noise(seed ^ 0x3333, x * 2.0) * 0.1
    };
    (base + detail).clamp(0.0, 1.0)
}

fn vertex(p: MqVec2, c: Rgb, alpha: u8) -> Vertex {
    Vertex {
        position: Vec3::new(p.x, p.y, 0.0),
        uv: MqVec2::ZERO,
        color: [c.0, c.1, c.2, alpha],
        normal: Vec4::ZERO,
    }
}

/// A band filled from a ridge line down to the bottom of the screen.
fn ridge_mesh(tops: &[MqVec2], bottom: f32, top_color: Rgb, bottom_color: Rgb) -> Mesh {
    let mut vertices = Vec::with_capacity(tops.len() * 2);
    let mut indices = Vec::with_capacity(tops.len() * 6);
    for (i, &top) in tops.iter().enumerate() {
        vertices.push(vertex(top, top_color, 255));
        vertices.push(vertex(vec2(top.x, bottom), bottom_color, 255));
        if i > 0 {
            let b = (2 * i) as u16;
            indices.extend([b - 2, b - 1, b + 1, b - 2, b + 1, b]);
        }
    }
    Mesh {
        vertices,
        indices,
        texture: None,
    }
}

fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let m = |x: u8, y: u8| (x as f32 + (y as f32 - x as f32) * t).round() as u8;
    Rgb(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// Everything the background draws for one frame, in screen pixels, as meshes (the draw is
/// separate so a test can build it without a window).
pub fn build(
    seed: u32,
    camera_center: Vec2,
    view_height_m: f32,
    width: f32,
    height: f32,
) -> Vec<Mesh> {
    let theme = theme_for(seed);
    let px_per_m = height / view_height_m.max(1.0);
    let mut meshes = Vec::with_capacity(4);
    // Sky: a vertical gradient.
    meshes.push(Mesh {
        vertices: vec![
            vertex(vec2(0.0, 0.0), theme.sky_top, 255),
            vertex(vec2(width, 0.0), theme.sky_top, 255),
            vertex(vec2(width, height), theme.sky_horizon, 255),
            vertex(vec2(0.0, height), theme.sky_horizon, 255),
        ],
        indices: vec![0, 1, 2, 0, 2, 3],
        texture: None,
    });
    meshes.push(stars(seed, &theme, camera_center, px_per_m, width, height));
    // Mountains and hills: the horizon rises and falls a little with the camera.
    for (layer, parallax, band, jagged, color, below) in [
        (1u32, 0.15_f32, 0.45_f32, true, theme.far, theme.near),
        (2, 0.35, 0.3, false, theme.near, theme.sky_top),
    ] {
        let horizon =
            height * (0.55 + 0.12 * layer as f32) + camera_center.y * px_per_m * parallax * 0.3;
        let layer_seed = seed.wrapping_add(layer * 0x9e37);
        // Layer position per screen pixel: farther layers span more of their noise per screen.
        let scale = 1.0 / (px_per_m * (1.5 + layer as f32));
        let offset = camera_center.x * parallax * px_per_m * scale;
        let tops: Vec<MqVec2> = (0..=COLUMNS)
            .map(|i| {
                let x = width * i as f32 / COLUMNS as f32;
                let h = ridge(layer_seed, offset + x * scale, jagged);
                vec2(x, horizon - h * band * height)
            })
            .collect();
        meshes.push(ridge_mesh(&tops, height, color, mix(color, below, 0.6)));
        if !jagged {
            meshes.push(pines(layer_seed, &tops, offset, scale, color));
        }
    }
    meshes
}

/// Stars: fixed cells, barely moving (parallax 0.05), twinkle-free so screenshots agree.
fn stars(
    seed: u32,
    theme: &Theme,
    camera_center: Vec2,
    px_per_m: f32,
    width: f32,
    height: f32,
) -> Mesh {
    let mut stars = Mesh {
        vertices: Vec::new(),
        indices: Vec::new(),
        texture: None,
    };
    let cell_px = 48.0;
    let shift = vec2(camera_center.x, -camera_center.y) * px_per_m * 0.05;
    let (cols, rows) = (
        (width / cell_px) as i32 + 2,
        (height * 0.7 / cell_px) as i32 + 2,
    );
    let first = vec2((shift.x / cell_px).floor(), (shift.y / cell_px).floor());
    for r in 0..rows {
        for c in 0..cols {
            let (ci, ri) = (first.x as i32 + c, first.y as i32 + r);
            let h = hash01(
                seed ^ 0x1234,
                ci.wrapping_mul(7919) ^ ri.wrapping_mul(104_729),
            );
            if h > 0.45 {
                continue;
            }
            let jitter = vec2(hash01(seed, ci * 31 + ri), hash01(seed, ri * 17 - ci));
            let p = (vec2(ci as f32, ri as f32) + jitter) * cell_px - shift;
            let s = 1.0 + 1.5 * h / 0.45;
            let alpha = (90.0 + 150.0 * (1.0 - p.y / height).clamp(0.0, 1.0)) as u8;
            let base = stars.vertices.len() as u16;
            for corner in [vec2(-s, 0.0), vec2(0.0, -s), vec2(s, 0.0), vec2(0.0, s)] {
                stars.vertices.push(vertex(p + corner, theme.stars, alpha));
            }
            stars
                .indices
                .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    stars
}

/// Pine silhouettes along the near ridge.
fn pines(seed: u32, tops: &[MqVec2], offset: f32, scale: f32, color: Rgb) -> Mesh {
    let mut mesh = Mesh {
        vertices: Vec::new(),
        indices: Vec::new(),
        texture: None,
    };
    let spacing_px = 26.0;
    let width = tops.last().map_or(0.0, |p| p.x);
    let first = (offset / scale / spacing_px).floor() as i32;
    let count = (width / spacing_px) as i32 + 2;
    for k in first..first + count {
        let h = hash01(seed ^ 0x7777, k);
        if h > 0.5 {
            continue;
        }
        let x = k as f32 * spacing_px - offset / scale + hash01(seed, k) * spacing_px * 0.5;
        if x < 0.0 || x > width {
            continue;
        }
        let column = ((x / width) * (tops.len() - 1) as f32) as usize;
        let ground = tops[column.min(tops.len() - 1)].y + 4.0;
        let tall = 30.0 + 50.0 * h;
        let half = tall * 0.22;
        let base = mesh.vertices.len() as u16;
        mesh.vertices.extend([
            vertex(vec2(x - half, ground), color, 255),
            vertex(vec2(x + half, ground), color, 255),
            vertex(vec2(x, ground - tall), color, 255),
        ]);
        mesh.indices.extend([base, base + 1, base + 2]);
    }
    mesh
}

/// Draws the background over the whole screen (sets the default camera; the caller sets its
/// own camera again afterwards).
pub fn draw(seed: u32, camera_center: Vec2, view_height_m: f32) {
    set_default_camera();
    for mesh in build(
        seed,
        camera_center,
        view_height_m,
        screen_width(),
        screen_height(),
    ) {
        if !mesh.indices.is_empty() {
            draw_mesh(&mesh);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skyline_follows_the_level_and_scrolls_slower_than_the_world() {
        let a = build(seed_of("A"), Vec2::ZERO, 18.0, 1280.0, 720.0);
        let again = build(seed_of("A"), Vec2::ZERO, 18.0, 1280.0, 720.0);
        let moved = build(seed_of("A"), Vec2::new(10.0, 0.0), 18.0, 1280.0, 720.0);
        let ridge_y =
            |m: &Vec<Mesh>| -> Vec<f32> { m[2].vertices.iter().map(|v| v.position.y).collect() };
        assert_eq!(ridge_y(&a), ridge_y(&again));
        assert_ne!(ridge_y(&a), ridge_y(&moved));
        // Moving 10 m shifts the far ridge by 15% of that in pixels (40 px per metre here).
        let shift_px = 10.0 * 40.0 * 0.15;
        let scale = 1.0 / (40.0 * 2.5);
        let seed = seed_of("A").wrapping_add(0x9e37);
        let expected =
            720.0 * 0.67 - ridge(seed, shift_px * scale + 640.0 * scale, true) * 0.45 * 720.0;
        assert!((moved[2].vertices[2 * (COLUMNS / 2)].position.y - expected).abs() < 0.5);
    }
}
