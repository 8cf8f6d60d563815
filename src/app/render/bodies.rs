//! Moving bodies: platforms on a path or turning about a pivot, the platforms winches carry and
//! rotten beams. Each is a textured mesh built once in the body's own frame (the level as
//! written, or the rope's end for a winch load) and moved each frame by the body's interpolated
//! pose; `Art` keeps them for the level.

use macroquad::models::{draw_mesh, Mesh};
use macroquad::texture::Texture2D;

use crate::app::render::materials::{add_shape, solid_material, Material, MeshBuilder};
use crate::sim::geometry::Body;
use crate::sim::level::{LevelDef, ShapeDef, P};
use crate::sim::math::{Pose, Vec2};
use crate::sim::objects::fragile::FragileAnchorDef;
use crate::sim::objects::winch::LoadDef;

/// One moving body's drawing in its own frame.
pub struct BodyMesh {
    pub body: Body,
    material: Material,
    textured: MeshBuilder,
    details: MeshBuilder,
}

impl BodyMesh {
    fn of(body: Body, shape: &ShapeDef, material: Material) -> BodyMesh {
        let mut mesh = BodyMesh {
            body,
            material,
            textured: MeshBuilder::default(),
            details: MeshBuilder::default(),
        };
        add_shape(&mut mesh.textured, &mut mesh.details, shape, material);
        mesh
    }

    /// What the body is made of: the texture `set_texture` wants.
    pub fn material(&self) -> Material {
        self.material
    }

    pub fn set_texture(&mut self, texture: &Texture2D) {
        for mesh in &mut self.textured.meshes {
            mesh.texture = Some(texture.clone());
        }
    }

    /// Draws the body at `pose`: the same vertices moved, the texture riding with them.
    pub fn draw(&self, pose: Pose) {
        for mesh in self.textured.meshes.iter().chain(&self.details.meshes) {
            let mut moved = Mesh {
                vertices: mesh.vertices.clone(),
                indices: mesh.indices.clone(),
                texture: mesh.texture.clone(),
            };
            for v in &mut moved.vertices {
                let p = pose.transform_point(Vec2::new(v.position.x, v.position.y));
                v.position.x = p.x;
                v.position.y = p.y;
            }
            draw_mesh(&moved);
        }
    }
}

/// The meshes of every moving body of `level`, platforms first, then winch platforms, then
/// rotten beams (drawn through their body so that a broken one is simply left out).
pub fn build(level: &LevelDef, rope_radius_m: f32) -> Vec<BodyMesh> {
    let platforms = level.platforms.iter().enumerate().map(|(i, p)| {
        BodyMesh::of(
            Body::Platform(i as u16),
            &p.shape,
            solid_material(p.hookable),
        )
    });
    let loads = level.winches.iter().enumerate().filter_map(|(i, w)| {
        let LoadDef::Platform {
            half_extents,
            hookable,
            ..
        } = &w.load
        else {
            return None;
        };
        let (_, offset, _) = w.load.collider(rope_radius_m);
        let shape = ShapeDef::Box {
            center: P(offset.translation.x, offset.translation.y),
            half_extents: *half_extents,
            rotation_deg: 0.0,
        };
        Some(BodyMesh::of(
            Body::WinchLoad(i as u16),
            &shape,
            solid_material(*hookable),
        ))
    });
    let beams = level
        .fragile
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match &f.anchor {
            FragileAnchorDef::Beam { shape } => {
                Some(BodyMesh::of(Body::Fragile(i as u16), shape, Material::Wood))
            }
            FragileAnchorDef::Ring { .. } => None,
        });
    platforms.chain(loads).chain(beams).collect()
}

/// Draws each moving body's mesh at its pose in `poses` (bodies without one are not drawn).
pub fn draw_bodies(meshes: &[BodyMesh], poses: &[(Body, Pose)]) {
    for mesh in meshes {
        if let Some((_, pose)) = poses.iter().find(|(b, _)| *b == mesh.body) {
            mesh.draw(*pose);
        }
    }
}
