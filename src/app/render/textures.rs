//! The textures the drawing shares: one repeating pattern per material and the rope's fibre.

use macroquad::miniquad::TextureWrap;
use macroquad::texture::{FilterMode, Texture2D};

use super::materials::{self, Material, ALL_MATERIALS};
use super::rope_mesh;

pub struct Textures {
    materials: Vec<(Material, Texture2D)>,
    pub fibre: Texture2D,
}

impl Textures {
    pub(super) fn new() -> Textures {
        let repeat = |texture: &Texture2D| {
            texture.set_filter(FilterMode::Linear);
            let gl = unsafe { macroquad::window::get_internal_gl() };
            gl.quad_context.texture_set_wrap(
                texture.raw_miniquad_id(),
                TextureWrap::Repeat,
                TextureWrap::Repeat,
            );
        };
        let materials = ALL_MATERIALS
            .iter()
            .map(|&m| {
                let n = materials::PATTERN_PX as u16;
                let texture = Texture2D::from_rgba8(n, n, &materials::pattern_rgba(m));
                repeat(&texture);
                (m, texture)
            })
            .collect();
        let fibre = Texture2D::from_rgba8(
            rope_mesh::FIBRE_W_PX as u16,
            rope_mesh::FIBRE_H_PX as u16,
            &rope_mesh::fibre_rgba(),
        );
        repeat(&fibre);
        Textures { materials, fibre }
    }

    pub fn material(&self, material: Material) -> Texture2D {
        self.materials
            .iter()
            .find(|(m, _)| *m == material)
            .map(|(_, t)| t.clone())
            .expect("a texture per material")
    }
}
