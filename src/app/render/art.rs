//! What drawing keeps between frames: the generated textures, the level's static meshes (built
//! once per level), the player's animation and the effects. It learns about the simulation only
//! from events and by reading the world after each tick; it never changes either.

use std::sync::Arc;

use macroquad::texture::Texture2D;

use super::background;
use super::bodies::{self, BodyMesh};
use super::effects::Effects;
use super::materials::LevelMeshes;
use super::player_sprite::PlayerAnim;
use super::textures::Textures;
use crate::sim::{Event, LevelDef, Tuning, World, TICK_DT_S};

/// Frames between two draw-cost reports when `TETHER_DRAW_STATS` is set.
const STATS_EVERY_FRAMES: u64 = 60;

/// Draw cost of recent frames, for docs/performance.md's drawing figures.
#[derive(Default)]
struct DrawStats {
    enabled: bool,
    frames: u64,
    /// Seconds each frame of the current window took to build.
    window_s: Vec<f64>,
}

pub struct Art {
    textures: Option<Textures>,
    level: Option<(Arc<LevelDef>, LevelMeshes, u32)>,
    /// The level's moving bodies, each in its own frame.
    bodies: Vec<BodyMesh>,
    pub anim: PlayerAnim,
    pub effects: Effects,
    stats: DrawStats,
}

impl Default for Art {
    fn default() -> Self {
        Art::new()
    }
}

impl Art {
    pub fn new() -> Art {
        let enabled = std::env::var_os("TETHER_DRAW_STATS").is_some();
        if enabled {
            macroquad::telemetry::capture_frame();
        }
        Art {
            textures: None,
            level: None,
            bodies: Vec::new(),
            anim: PlayerAnim::default(),
            effects: Effects::new(),
            stats: DrawStats {
                enabled,
                ..DrawStats::default()
            },
        }
    }

    /// A level (re)starts: nothing carries over from the last attempt.
    pub fn reset(&mut self) {
        self.anim = PlayerAnim::default();
        self.effects = Effects::new();
    }

    /// After each tick: the tick's events, then one tick of animation.
    pub fn on_tick(&mut self, events: &[Event], world: &World) {
        for event in events {
            self.anim.on_event(event);
            self.effects.on_event(event, world);
        }
        self.anim.tick(world, TICK_DT_S);
        self.effects.tick(world, TICK_DT_S);
    }

    pub fn textures(&mut self) -> &Textures {
        self.textures.get_or_insert_with(Textures::new)
    }

    /// Builds the level's static meshes on first use after a level change (with their textures)
    /// and returns the level's background seed.
    pub fn prepare_level(&mut self, level: &Arc<LevelDef>, tuning: &Tuning) -> u32 {
        let stale = !matches!(&self.level, Some((l, _, _)) if Arc::ptr_eq(l, level));
        if stale {
            let mut meshes = LevelMeshes::build(level);
            let textures = self.textures.get_or_insert_with(Textures::new);
            for (material, builder) in &mut meshes.textured {
                for mesh in &mut builder.meshes {
                    mesh.texture = Some(textures.material(*material));
                }
            }
            self.bodies = bodies::build(level, tuning.rope.radius_m);
            for body in &mut self.bodies {
                body.set_texture(&textures.material(body.material()));
            }
            self.level = Some((Arc::clone(level), meshes, background::seed_of(&level.name)));
        }
        self.level.as_ref().map_or(0, |(_, _, seed)| *seed)
    }

    /// Draws the prepared level: hazard glow, then each material's mesh, then rims and spikes.
    /// One mesh per material (more only past 65 535 vertices), so a few draw calls in all.
    pub fn draw_level(&self) {
        let Some((_, meshes, _)) = &self.level else {
            return;
        };
        let textured = meshes.textured.iter().map(|(_, b)| b);
        for builder in std::iter::once(&meshes.glow)
            .chain(textured)
            .chain(std::iter::once(&meshes.details))
        {
            for mesh in &builder.meshes {
                macroquad::models::draw_mesh(mesh);
            }
        }
    }

    /// What the objects in front of the solids draw with: the rope fibre's texture and the
    /// moving bodies' meshes.
    pub fn front_parts(&mut self) -> (Texture2D, &[BodyMesh]) {
        let fibre = self.textures().fibre.clone();
        (fibre, &self.bodies)
    }

    /// Records how long building this frame's drawing took; with `TETHER_DRAW_STATS` set, prints
    /// that and the GL draw calls macroquad issued for a captured frame, every few seconds.
    pub fn record_frame(&mut self, build_s: f64) {
        let stats = &mut self.stats;
        if !stats.enabled {
            return;
        }
        stats.frames += 1;
        stats.window_s.push(build_s);
        if stats.frames.is_multiple_of(STATS_EVERY_FRAMES) {
            let calls = macroquad::telemetry::drawcalls();
            let mut ms: Vec<f64> = stats.window_s.drain(..).map(|s| s * 1000.0).collect();
            ms.sort_unstable_by(f64::total_cmp);
            let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
            // The first frames include one-off work (textures, the level's meshes, glyphs
            // rasterised at a new text size): the median is the steady cost.
            crate::app::log_line(&format!(
                "draw stats: {} GL draw calls in the captured frame ({} indices); building a \
                 frame's drawing took {:.3} ms median, {:.3} ms p90, {:.3} ms max over frames \
                 {}..{}; {} particles",
                calls.len(),
                calls.iter().map(|c| c.indices_count).sum::<usize>(),
                at(0.5),
                at(0.9),
                at(1.0),
                stats.frames + 1 - STATS_EVERY_FRAMES,
                stats.frames,
                self.effects.particle_count(),
            ));
            macroquad::telemetry::capture_frame();
        }
    }
}
