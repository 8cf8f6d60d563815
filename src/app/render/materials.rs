//! The level's materials: wood (hookable) with planks and grain, steel (the hook bounces off) with
//! riveted plates, and hazards with warning stripes and spikes. Each reads by its pattern and
//! shape as well as its colour, so the three stay apart for colour-blind players and in grey.
//!
//! The patterns are small tiling images made here in code (pure functions, tested), mapped onto
//! every shape by texture coordinates: a box's coordinates follow its rotation so planks run
//! along it; circles and polygons take world coordinates. All shapes of one material go into one
//! mesh built once per level, so the level costs a few draw calls however many solids it has.

use macroquad::math::{vec2, Vec2 as MqVec2, Vec3, Vec4};
use macroquad::models::{Mesh, Vertex};

use crate::app::palette::{self, Rgb};
use crate::sim::level::{LevelDef, ShapeDef};
use crate::sim::math::rotation_from_deg;

/// Side of each pattern image in pixels (a power of two: WebGL 1 repeats only those).
pub const PATTERN_PX: usize = 64;
/// Metres of world one pattern image covers before it repeats.
pub const TILE_M: f32 = 2.0;
/// Triangles around a circle.
const CIRCLE_SEGMENTS: usize = 28;
/// A mesh's u16 indices limit one mesh to this many vertices; more starts a new mesh.
const MAX_VERTICES: usize = u16::MAX as usize;
/// Width of the darker rim drawn around every solid, in metres.
const RIM_M: f32 = 0.08;
/// Spikes along hazard edges: base width and height, in metres.
const SPIKE_BASE_M: f32 = 0.4;
const SPIKE_HEIGHT_M: f32 = 0.3;
/// Width of the soft glow around hazards, in metres.
const HAZARD_GLOW_M: f32 = 0.35;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    Wood,
    Steel,
    Hazard,
}

pub const ALL_MATERIALS: [Material; 3] = [Material::Wood, Material::Steel, Material::Hazard];

impl Material {
    /// The colours its pattern is made of, lightest role first; a test checks a shape shows them.
    pub fn tones(self) -> &'static [Rgb] {
        match self {
            Material::Wood => &[palette::WOOD, palette::WOOD_GRAIN, palette::WOOD_SEAM],
            Material::Steel => &[
                palette::STEEL,
                palette::STEEL_LIGHT,
                palette::STEEL_DARK,
                palette::STEEL_RIVET,
            ],
            Material::Hazard => &[palette::HAZARD, palette::HAZARD_DARK],
        }
    }

    /// The colour of its outline rim.
    pub fn rim(self) -> Rgb {
        match self {
            Material::Wood => palette::WOOD_SEAM,
            Material::Steel => palette::STEEL_DARK,
            Material::Hazard => palette::HAZARD_DARK,
        }
    }
}

/// The colour of the pattern's pixel (`x`, `y`), both taken modulo the image size.
pub fn pattern_pixel(material: Material, x: usize, y: usize) -> Rgb {
    let n = PATTERN_PX;
    let (x, y) = (x % n, y % n);
    match material {
        Material::Wood => {
            // Planks a quarter of the tile high, joints staggered from row to row.
            let plank_h = n / 4;
            let row = y / plank_h;
            let joint_x = (row * 23 + 7) % n;
            if y % plank_h == 0 || x == joint_x {
                return palette::WOOD_SEAM;
            }
            // Grain: thin wavy lines along the plank, their phase different per plank.
            let fx = x as f32 / n as f32 * std::f32::consts::TAU;
            let wave = (fx * 2.0 + row as f32 * 1.7).sin() * 1.6 + (fx * 5.0).sin() * 0.5;
            let line = (y as f32 + wave + row as f32 * 2.3).rem_euclid(5.0);
            if line < 1.0 {
                palette::WOOD_GRAIN
            } else {
                palette::WOOD
            }
        }
        Material::Steel => {
            // Square plates half a tile wide with a bevel and a rivet near each corner.
            let plate = n / 2;
            let (px, py) = (x % plate, y % plate);
            for (rx, ry) in [
                (4, 4),
                (plate - 5, 4),
                (4, plate - 5),
                (plate - 5, plate - 5),
            ] {
                let (dx, dy) = (px as i32 - rx as i32, py as i32 - ry as i32);
                let d2 = dx * dx + dy * dy;
                if d2 <= 2 {
                    return palette::STEEL_RIVET;
                }
                if d2 <= 5 && dx + dy > 0 {
                    return palette::STEEL_DARK;
                }
            }
            // A bevel: one light and one dark edge per plate, so plates read as raised.
            if px == 0 || py == 0 {
                palette::STEEL_LIGHT
            } else if px == plate - 1 || py == plate - 1 {
                palette::STEEL_DARK
            } else {
                palette::STEEL
            }
        }
        Material::Hazard => {
            // Diagonal warning stripes.
            if ((x + y) / (n / 8)).is_multiple_of(2) {
                palette::HAZARD
            } else {
                palette::HAZARD_DARK
            }
        }
    }
}

/// The whole pattern image as RGBA bytes, row by row.
pub fn pattern_rgba(material: Material) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(PATTERN_PX * PATTERN_PX * 4);
    for y in 0..PATTERN_PX {
        for x in 0..PATTERN_PX {
            let c = pattern_pixel(material, x, y);
            bytes.extend([c.0, c.1, c.2, 255]);
        }
    }
    bytes
}

/// The pattern pixel shown at texture coordinates `uv` (repeating, nearest pixel).
pub fn sample(material: Material, uv: MqVec2) -> Rgb {
    let n = PATTERN_PX as f32;
    let x = (uv.x.rem_euclid(1.0) * n) as usize;
    let y = (uv.y.rem_euclid(1.0) * n) as usize;
    pattern_pixel(material, x, y)
}

/// The material a level's solid is drawn in.
pub fn solid_material(hookable: bool) -> Material {
    if hookable {
        Material::Wood
    } else {
        Material::Steel
    }
}

/// Triangles of one material, textured, in as many meshes as the u16 indices need.
#[derive(Default)]
pub struct MeshBuilder {
    pub meshes: Vec<Mesh>,
}

impl MeshBuilder {
    /// Room for `vertex_count` more vertices in the last mesh, starting a new one if needed.
    fn reserve(&mut self, vertex_count: usize) -> &mut Mesh {
        let full = self
            .meshes
            .last()
            .is_none_or(|m| m.vertices.len() + vertex_count > MAX_VERTICES);
        if full {
            self.meshes.push(Mesh {
                vertices: Vec::new(),
                indices: Vec::new(),
                texture: None,
            });
        }
        self.meshes.last_mut().expect("pushed above")
    }

    /// A convex fan: `points` with their texture coordinates, one colour.
    pub fn fan(&mut self, points: &[(MqVec2, MqVec2)], color: [u8; 4]) {
        if points.len() < 3 {
            return;
        }
        let mesh = self.reserve(points.len());
        let base = mesh.vertices.len() as u16;
        for &(p, uv) in points {
            mesh.vertices.push(vertex(p, uv, color));
        }
        for i in 1..points.len() as u16 - 1 {
            mesh.indices.extend([base, base + i, base + i + 1]);
        }
    }

    /// A quad from `a` to `b` (in order around), untextured use.
    fn quad(&mut self, corners: [MqVec2; 4], colors: [[u8; 4]; 4]) {
        let mesh = self.reserve(4);
        let base = mesh.vertices.len() as u16;
        for (p, c) in corners.into_iter().zip(colors) {
            mesh.vertices.push(vertex(p, MqVec2::ZERO, c));
        }
        mesh.indices
            .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
}

fn vertex(p: MqVec2, uv: MqVec2, color: [u8; 4]) -> Vertex {
    Vertex {
        position: Vec3::new(p.x, p.y, 0.0),
        uv,
        color,
        normal: Vec4::ZERO,
    }
}

fn rgba(c: Rgb, alpha: u8) -> [u8; 4] {
    [c.0, c.1, c.2, alpha]
}

/// The outline of a shape (counter-clockwise or as written) and, for each corner, its texture
/// coordinates: a box's follow its rotation (origin at its lower-left corner) so planks and
/// plates line up with its edges; others take world coordinates.
pub fn textured_outline(shape: &ShapeDef) -> Vec<(MqVec2, MqVec2)> {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => {
            let rot = rotation_from_deg(*rotation_deg);
            let (c, s) = (rot.re, rot.im);
            let (hx, hy) = (half_extents.0, half_extents.1);
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|&(sx, sy): &(f32, f32)| {
                    let (lx, ly) = (sx * hx, sy * hy);
                    let world = vec2(center.0 + lx * c - ly * s, center.1 + lx * s + ly * c);
                    (world, vec2(lx + hx, ly + hy) / TILE_M)
                })
                .collect()
        }
        ShapeDef::Circle { center, radius } => (0..CIRCLE_SEGMENTS)
            .map(|k| {
                let a = k as f32 / CIRCLE_SEGMENTS as f32 * std::f32::consts::TAU;
                let p = vec2(center.0 + radius * a.cos(), center.1 + radius * a.sin());
                (p, p / TILE_M)
            })
            .collect(),
        ShapeDef::Polygon { points } => points
            .iter()
            .map(|p| (vec2(p.0, p.1), vec2(p.0, p.1) / TILE_M))
            .collect(),
    }
}

/// Whether the outline winds counter-clockwise (y up).
fn counter_clockwise(points: &[MqVec2]) -> bool {
    let mut twice_area = 0.0;
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        twice_area += a.x * b.y - b.x * a.y;
    }
    twice_area >= 0.0
}

/// Outward unit normal of the edge `a → b` of an outline with the given winding.
fn outward(a: MqVec2, b: MqVec2, ccw: bool) -> MqVec2 {
    let d = (b - a).normalize_or_zero();
    let right = vec2(d.y, -d.x);
    if ccw {
        right
    } else {
        -right
    }
}

/// Everything static in a level, ready to draw: one textured mesh list per material, and the
/// untextured details (rims, spikes, glow) in another.
pub struct LevelMeshes {
    pub textured: Vec<(Material, MeshBuilder)>,
    pub details: MeshBuilder,
    /// Glow under the hazards, drawn before them.
    pub glow: MeshBuilder,
}

impl LevelMeshes {
    pub fn build(level: &LevelDef) -> LevelMeshes {
        let mut textured: Vec<(Material, MeshBuilder)> = ALL_MATERIALS
            .iter()
            .map(|&m| (m, MeshBuilder::default()))
            .collect();
        let mut details = MeshBuilder::default();
        let mut glow = MeshBuilder::default();
        let mut add = |shape: &ShapeDef, material: Material, details: &mut MeshBuilder| {
            let index = ALL_MATERIALS
                .iter()
                .position(|&m| m == material)
                .unwrap_or(0);
            add_shape(&mut textured[index].1, details, shape, material);
        };
        for hazard in level.hazards.iter().map(|h| &h.0) {
            add(hazard, Material::Hazard, &mut details);
            let points: Vec<MqVec2> = textured_outline(hazard).iter().map(|&(p, _)| p).collect();
            spikes(&mut details, &points);
            hazard_glow(&mut glow, &points);
        }
        for solid in &level.solids {
            add(&solid.shape, solid_material(solid.hookable), &mut details);
        }
        LevelMeshes {
            textured,
            details,
            glow,
        }
    }
}

/// A shape's textured fan into `textured` (the material's mesh) and its rim into `details`.
pub fn add_shape(
    textured: &mut MeshBuilder,
    details: &mut MeshBuilder,
    shape: &ShapeDef,
    material: Material,
) {
    let outline = textured_outline(shape);
    textured.fan(&outline, [255, 255, 255, 255]);
    let points: Vec<MqVec2> = outline.iter().map(|&(p, _)| p).collect();
    rim(details, &points, material.rim());
}

/// A band just inside the outline, so every solid has a crisp edge in a darker tone.
fn rim(out: &mut MeshBuilder, points: &[MqVec2], color: Rgb) {
    let ccw = counter_clockwise(points);
    let c = rgba(color, 255);
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        let inward = -outward(a, b, ccw) * RIM_M;
        out.quad([a, b, b + inward, a + inward], [c; 4]);
    }
}

/// Spikes pointing out of every edge of a hazard.
fn spikes(out: &mut MeshBuilder, points: &[MqVec2]) {
    let ccw = counter_clockwise(points);
    let tip = rgba(palette::SPIKE_TIP, 255);
    let base = rgba(palette::SPIKE, 255);
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        let length = (b - a).length();
        let count = (length / SPIKE_BASE_M).floor().max(1.0) as usize;
        let along = (b - a) / count as f32;
        let normal = outward(a, b, ccw);
        for k in 0..count {
            let p0 = a + along * k as f32;
            let p1 = p0 + along;
            let apex = (p0 + p1) * 0.5 + normal * SPIKE_HEIGHT_M;
            let mesh = out.reserve(3);
            let first = mesh.vertices.len() as u16;
            mesh.vertices.extend([
                vertex(p0, MqVec2::ZERO, base),
                vertex(p1, MqVec2::ZERO, base),
                vertex(apex, MqVec2::ZERO, tip),
            ]);
            mesh.indices.extend([first, first + 1, first + 2]);
        }
    }
}

/// A soft band fading outwards around a hazard: it glows.
fn hazard_glow(out: &mut MeshBuilder, points: &[MqVec2]) {
    let ccw = counter_clockwise(points);
    let inner = rgba(palette::HAZARD, 110);
    let outer = rgba(palette::HAZARD, 0);
    let reach = SPIKE_HEIGHT_M + HAZARD_GLOW_M;
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        let n = outward(a, b, ccw) * reach;
        out.quad([a, b, b + n, a + n], [inner, inner, outer, outer]);
        // Round the corner at `b` with a wedge to the next edge's normal.
        let c = points[(i + 2) % points.len()];
        let n2 = outward(b, c, ccw) * reach;
        let mesh = out.reserve(3);
        let first = mesh.vertices.len() as u16;
        mesh.vertices.extend([
            vertex(b, MqVec2::ZERO, inner),
            vertex(b + n, MqVec2::ZERO, outer),
            vertex(b + n2, MqVec2::ZERO, outer),
        ]);
        mesh.indices.extend([first, first + 1, first + 2]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pattern_uses_only_its_own_tones_and_all_of_them() {
        for material in ALL_MATERIALS {
            let mut seen = vec![false; material.tones().len()];
            for y in 0..PATTERN_PX {
                for x in 0..PATTERN_PX {
                    let c = pattern_pixel(material, x, y);
                    let i = material.tones().iter().position(|&t| t == c);
                    let i = i.unwrap_or_else(|| panic!("{material:?}: stray colour {c:?}"));
                    seen[i] = true;
                }
            }
            assert!(seen.iter().all(|&s| s), "{material:?}: tones seen {seen:?}");
        }
    }

    #[test]
    fn materials_share_no_tone() {
        for a in ALL_MATERIALS {
            for b in ALL_MATERIALS {
                if a != b {
                    for t in a.tones() {
                        assert!(!b.tones().contains(t), "{a:?} and {b:?} share {t:?}");
                    }
                }
            }
        }
    }
}
