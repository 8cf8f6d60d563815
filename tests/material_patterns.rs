//! Each material's pattern appears where its solid is: for every solid and hazard of the real
//! levels (and of a level with rotated boxes, circles and polygons of each material), points
//! inside the shape are covered by that material's mesh, and the texture coordinates there show
//! the material's own pattern (its tones, including the ones that make the pattern: grain and
//! seams, plate edges, warning stripes), not a flat fill.

use macroquad::math::{vec2, Vec2};
use tether::app::palette::{self, Rgb};
use tether::app::render::materials::{sample, LevelMeshes, Material, TILE_M};
use tether::sim::level::ShapeDef;
use tether::sim::LevelDef;

/// Distance kept from a shape's edges when sampling (the rim is drawn there).
const MARGIN_M: f32 = 0.12;
/// Less than one pattern pixel (TILE_M / PATTERN_PX = 0.031 m), so one-pixel lines are hit.
const STEP_M: f32 = 0.02;

fn inside(shape: &ShapeDef, p: Vec2) -> bool {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => {
            let a = -rotation_deg.to_radians();
            let d = p - vec2(center.0, center.1);
            let l = vec2(d.x * a.cos() - d.y * a.sin(), d.x * a.sin() + d.y * a.cos());
            l.x.abs() < half_extents.0 - MARGIN_M && l.y.abs() < half_extents.1 - MARGIN_M
        }
        ShapeDef::Circle { center, radius } => {
            (p - vec2(center.0, center.1)).length() < radius - MARGIN_M
        }
        ShapeDef::Polygon { points } => {
            let pts: Vec<Vec2> = points.iter().map(|q| vec2(q.0, q.1)).collect();
            let mut sign = 0.0;
            for i in 0..pts.len() {
                let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
                let e = b - a;
                let cross = e.x * (p.y - a.y) - e.y * (p.x - a.x);
                let dist = cross / e.length();
                if sign == 0.0 {
                    sign = dist.signum();
                }
                if dist * sign < MARGIN_M {
                    return false;
                }
            }
            true
        }
    }
}

fn bounds(shape: &ShapeDef) -> (Vec2, Vec2) {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            ..
        } => {
            let r = half_extents.0.hypot(half_extents.1);
            (
                vec2(center.0 - r, center.1 - r),
                vec2(center.0 + r, center.1 + r),
            )
        }
        ShapeDef::Circle { center, radius } => (
            vec2(center.0 - radius, center.1 - radius),
            vec2(center.0 + radius, center.1 + radius),
        ),
        ShapeDef::Polygon { points } => {
            let mut lo = vec2(f32::MAX, f32::MAX);
            let mut hi = vec2(f32::MIN, f32::MIN);
            for q in points {
                lo = lo.min(vec2(q.0, q.1));
                hi = hi.max(vec2(q.0, q.1));
            }
            (lo, hi)
        }
    }
}

/// The texture coordinates the material's mesh gives point `p`, if it covers it.
fn uv_at(meshes: &LevelMeshes, material: Material, p: Vec2) -> Option<Vec2> {
    let (_, builder) = meshes.textured.iter().find(|(m, _)| *m == material)?;
    for mesh in &builder.meshes {
        for tri in mesh.indices.chunks(3) {
            let v: Vec<_> = tri.iter().map(|&i| mesh.vertices[i as usize]).collect();
            let (a, b, c) = (
                v[0].position.truncate(),
                v[1].position.truncate(),
                v[2].position.truncate(),
            );
            let det = (b - a).perp_dot(c - a);
            if det.abs() < 1e-9 {
                continue;
            }
            let wb = (p - a).perp_dot(c - a) / det;
            let wc = (b - a).perp_dot(p - a) / det;
            let wa = 1.0 - wb - wc;
            if wa >= -1e-4 && wb >= -1e-4 && wc >= -1e-4 {
                return Some(v[0].uv * wa + v[1].uv * wb + v[2].uv * wc);
            }
        }
    }
    None
}

/// The tones that show a material's pattern (not only its base colour).
fn pattern_tones(material: Material) -> Vec<Rgb> {
    match material {
        Material::Wood => vec![palette::WOOD, palette::WOOD_GRAIN, palette::WOOD_SEAM],
        Material::Steel => vec![palette::STEEL, palette::STEEL_LIGHT, palette::STEEL_DARK],
        Material::Hazard => vec![palette::HAZARD, palette::HAZARD_DARK],
    }
}

/// Samples a grid over the shape and checks coverage and pattern; returns the samples' count.
fn check_shape(meshes: &LevelMeshes, shape: &ShapeDef, material: Material, what: &str) -> usize {
    let (lo, hi) = bounds(shape);
    let mut seen: Vec<Rgb> = Vec::new();
    let mut count = 0;
    let mut y = lo.y;
    while y <= hi.y {
        let mut x = lo.x;
        while x <= hi.x {
            let p = vec2(x, y);
            if inside(shape, p) {
                count += 1;
                let uv = uv_at(meshes, material, p)
                    .unwrap_or_else(|| panic!("{what}: {material:?} mesh does not cover {p}"));
                let c = sample(material, uv);
                assert!(
                    material.tones().contains(&c),
                    "{what}: {c:?} at {p} is not a {material:?} tone"
                );
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
            x += STEP_M;
        }
        y += STEP_M;
    }
    assert!(count > 0, "{what}: no sample inside");
    for tone in pattern_tones(material) {
        assert!(
            seen.contains(&tone),
            "{what}: the {material:?} pattern's tone {tone:?} never shows (seen {seen:?})"
        );
    }
    count
}

fn check_level(level: &LevelDef, file: &str) {
    let meshes = LevelMeshes::build(level);
    for (i, solid) in level.solids.iter().enumerate() {
        // Hookable solids are wood, the others steel (spelled out here, not taken from the code
        // under test).
        let material = if solid.hookable {
            Material::Wood
        } else {
            Material::Steel
        };
        check_shape(
            &meshes,
            &solid.shape,
            material,
            &format!("{file}: solids[{i}]"),
        );
    }
    for (i, hazard) in level.hazards.iter().enumerate() {
        check_shape(
            &meshes,
            &hazard.0,
            Material::Hazard,
            &format!("{file}: hazards[{i}]"),
        );
    }
}

#[test]
fn every_level_solid_shows_its_material_pattern() {
    let index = std::fs::read_to_string("levels/index.ron").expect("levels/index.ron");
    let index = tether::sim::LevelIndex::from_ron(&index, "levels/index.ron").expect("index");
    assert!(index.level_count() > 0);
    for name in &index.files() {
        let path = format!("levels/{name}");
        let text = std::fs::read_to_string(&path).expect("level file");
        let level = LevelDef::from_ron(&text, &path).expect("valid level");
        check_level(&level, &path);
    }
}

#[test]
fn rotated_boxes_circles_and_polygons_get_their_material() {
    let text = r#"Level(
        name: "shapes",
        spawn: (0.0, 10.0),
        goal: (min: (50.0, 0.0), max: (52.0, 2.0)),
        solids: [
            (shape: Box(center: (0.0, 0.0), half_extents: (3.0, 1.0), rotation_deg: 30.0)),
            (shape: Box(center: (10.0, 0.0), half_extents: (3.0, 1.5), rotation_deg: -70.0), hookable: false),
            (shape: Circle(center: (20.0, 0.0), radius: 1.6)),
            (shape: Circle(center: (26.0, 0.0), radius: 1.6), hookable: false),
            (shape: Polygon(points: [(30.0, 0.0), (34.0, 0.0), (33.0, 3.0), (31.0, 3.0)])),
            (shape: Polygon(points: [(36.0, 0.0), (40.0, 0.0), (38.0, 3.5)]), hookable: false),
        ],
        hazards: [
            Box(center: (0.0, -6.0), half_extents: (2.0, 0.8), rotation_deg: 45.0),
            Circle(center: (10.0, -6.0), radius: 1.2),
            Polygon(points: [(20.0, -6.0), (23.0, -6.0), (21.5, -3.0)]),
        ],
    )"#;
    let level = LevelDef::from_ron(text, "shapes.ron").expect("valid");
    check_level(&level, "shapes.ron");
}

/// The pattern turns with a box: the same point in the box's own frame shows the same pixel,
/// whatever the rotation (planks run along a tilted beam, not across it).
#[test]
fn a_box_pattern_follows_its_rotation() {
    let make = |deg: f32| {
        let text = format!(
            "Level(name: \"r\", spawn: (0.0, 10.0), goal: (min: (50.0, 0.0), max: (52.0, 2.0)), \
             solids: [(shape: Box(center: (5.0, 5.0), half_extents: (3.0, 1.0), rotation_deg: {deg:.1}))])"
        );
        LevelMeshes::build(&LevelDef::from_ron(&text, "r.ron").expect("valid"))
    };
    let (flat, tilted) = (make(0.0), make(35.0));
    let a = 35.0_f32.to_radians();
    let mut differs_from_world_mapping = false;
    for i in 0..40 {
        for j in 0..10 {
            let local = vec2(-2.7 + i as f32 * 0.135, -0.7 + j as f32 * 0.14);
            let turned = vec2(
                local.x * a.cos() - local.y * a.sin(),
                local.x * a.sin() + local.y * a.cos(),
            );
            let p_flat = vec2(5.0, 5.0) + local;
            let p_tilted = vec2(5.0, 5.0) + turned;
            let uv_flat = uv_at(&flat, Material::Wood, p_flat).expect("covered");
            let uv_tilted = uv_at(&tilted, Material::Wood, p_tilted).expect("covered");
            assert!(
                (uv_flat - uv_tilted).length() < 1e-3,
                "{local}: {uv_flat} vs {uv_tilted}"
            );
            if sample(Material::Wood, uv_tilted) != sample(Material::Wood, p_tilted / TILE_M) {
                differs_from_world_mapping = true;
            }
        }
    }
    assert!(
        differs_from_world_mapping,
        "the tilted box's pattern should not be world-aligned"
    );
}
