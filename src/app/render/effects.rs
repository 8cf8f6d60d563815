//! Particles and flashes driven by the simulation's events: dust when running and landing,
//! sparks when the hook bites, a puff when it bounces off steel, a burst on death, a fade on
//! respawn, sparkles at checkpoints and the goal. They only read events and the world; nothing
//! here feeds back into the simulation. They advance on ticks (not frames), so a replay's
//! screenshot at a tick is the same every time.

use macroquad::math::{vec2, Vec2 as MqVec2};
use macroquad::shapes::{draw_circle, draw_rectangle};

use super::mq;
use crate::app::palette::{self, Rgb};
use crate::sim::event::BreakKind;
use crate::sim::{AttachKind, Event, World};

/// Most particles alive at once; older ones make room for new ones.
const MAX_PARTICLES: usize = 600;
/// Seconds the screen takes to fade back in after a respawn.
const RESPAWN_FADE_S: f32 = 0.35;
/// Running faster than this (m/s) on the ground kicks up dust.
const RUN_DUST_SPEED_M_PER_S: f32 = 4.0;
/// A puff of running dust every this many ticks (20 a second at 120 Hz).
const RUN_DUST_EVERY_TICKS: u64 = 6;
/// Impact speed (m/s) from which a landing raises dust.
const LANDING_DUST_M_PER_S: f32 = 4.0;
const GRAVITY_M_PER_S2: f32 = -14.0;

#[derive(Clone, Debug)]
struct Particle {
    pos: MqVec2,
    vel: MqVec2,
    age_s: f32,
    life_s: f32,
    size_m: f32,
    color: Rgb,
    /// How much gravity pulls it (dust floats, sparks fall).
    gravity: f32,
    /// Drawn as a square (sparks, death burst) or a round puff.
    square: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Effects {
    particles: Vec<Particle>,
    /// A small xorshift state: effects need variety, not the simulation's determinism, but
    /// seeding it the same way keeps screenshots reproducible.
    rng: u32,
    respawn_fade: f32,
    ticks: u64,
}

impl Effects {
    pub fn new() -> Effects {
        Effects {
            rng: 0x9e37_79b9,
            ..Effects::default()
        }
    }

    fn random(&mut self) -> f32 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.rng = x;
        (x >> 8) as f32 / (1u32 << 24) as f32
    }

    /// `count` particles around `at`, flying out within `spread` radians of `dir`.
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        count: usize,
        at: MqVec2,
        dir: MqVec2,
        spread: f32,
        speed: (f32, f32),
        life_s: f32,
        size_m: f32,
        color: Rgb,
        gravity: f32,
        square: bool,
    ) {
        let base = dir.y.atan2(dir.x);
        for _ in 0..count {
            let angle = base + (self.random() - 0.5) * spread;
            let v = speed.0 + (speed.1 - speed.0) * self.random();
            let life = life_s * (0.6 + 0.8 * self.random());
            let size = size_m * (0.6 + 0.8 * self.random());
            if self.particles.len() >= MAX_PARTICLES {
                self.particles.remove(0);
            }
            self.particles.push(Particle {
                pos: at,
                vel: vec2(angle.cos(), angle.sin()) * v,
                age_s: 0.0,
                life_s: life,
                size_m: size,
                color,
                gravity,
                square,
            });
        }
    }

    pub fn on_event(&mut self, event: &Event, world: &World) {
        let feet = mq(world.player.pos) - vec2(0.0, world.tuning.player.half_height_m);
        let tau = std::f32::consts::TAU;
        match *event {
            Event::Landed {
                impact_speed_m_per_s,
            } if impact_speed_m_per_s.abs() >= LANDING_DUST_M_PER_S => {
                let n = (impact_speed_m_per_s.abs() * 0.8) as usize + 4;
                for side in [-1.0, 1.0] {
                    self.emit(
                        n / 2,
                        feet,
                        vec2(side, 0.25),
                        0.6,
                        (1.0, 3.5),
                        0.45,
                        0.12,
                        palette::DUST,
                        0.1,
                        false,
                    );
                }
            }
            Event::Jumped => {
                self.emit(
                    5,
                    feet,
                    vec2(0.0, -1.0),
                    2.6,
                    (0.5, 2.0),
                    0.3,
                    0.09,
                    palette::DUST,
                    0.1,
                    false,
                );
            }
            Event::HookAttached { kind, at } => {
                let at = mq(at);
                let away = (mq(world.player.pos) - at).normalize_or_zero();
                match kind {
                    AttachKind::Surface => self.emit(
                        14,
                        at,
                        away,
                        2.2,
                        (3.0, 8.0),
                        0.3,
                        0.06,
                        palette::SPARK,
                        1.0,
                        true,
                    ),
                    AttachKind::GrapplePoint => self.emit(
                        12,
                        at,
                        away,
                        tau,
                        (2.0, 4.0),
                        0.35,
                        0.06,
                        palette::GRAPPLE_POINT,
                        0.3,
                        true,
                    ),
                    // A few leaves shaken loose where the hand caught the vine.
                    AttachKind::Vine(_) => self.emit(
                        6,
                        at,
                        away,
                        tau,
                        (0.5, 1.5),
                        0.6,
                        0.07,
                        palette::VINE_LEAF,
                        1.0,
                        false,
                    ),
                }
            }
            Event::HookBounced { at } => {
                let at = mq(at);
                let away = (mq(world.player.pos) - at).normalize_or_zero();
                self.emit(
                    10,
                    at,
                    away,
                    2.0,
                    (0.8, 2.5),
                    0.45,
                    0.16,
                    palette::STEEL_LIGHT,
                    -0.05,
                    false,
                );
                self.emit(
                    5,
                    at,
                    away,
                    1.2,
                    (3.0, 6.0),
                    0.2,
                    0.05,
                    palette::SPARK,
                    1.0,
                    true,
                );
            }
            Event::Died { at } => {
                let at = mq(at);
                self.emit(
                    30,
                    at,
                    MqVec2::Y,
                    tau,
                    (3.0, 9.0),
                    0.7,
                    0.12,
                    palette::PLAYER,
                    0.8,
                    true,
                );
                self.emit(
                    12,
                    at,
                    MqVec2::Y,
                    tau,
                    (1.0, 4.0),
                    0.6,
                    0.1,
                    palette::HAZARD,
                    0.5,
                    true,
                );
            }
            Event::Broke { kind, at } => {
                let at = mq(at);
                match kind {
                    // Chunks of rotten wood tumbling down, and a cloud of dust.
                    BreakKind::Beam(_) => {
                        self.emit(
                            26,
                            at,
                            MqVec2::Y,
                            tau,
                            (1.0, 5.0),
                            1.1,
                            0.16,
                            palette::WOOD_GRAIN,
                            1.0,
                            true,
                        );
                        self.emit(
                            16,
                            at,
                            MqVec2::Y,
                            tau,
                            (0.5, 2.0),
                            0.8,
                            0.3,
                            palette::DUST,
                            -0.05,
                            false,
                        );
                    }
                    // Shards of the ring and sparks.
                    BreakKind::Ring(_) => {
                        self.emit(
                            10,
                            at,
                            MqVec2::Y,
                            tau,
                            (2.0, 6.0),
                            0.9,
                            0.1,
                            palette::CRACKED_RING,
                            1.0,
                            true,
                        );
                        self.emit(
                            12,
                            at,
                            MqVec2::Y,
                            tau,
                            (3.0, 8.0),
                            0.3,
                            0.05,
                            palette::SPARK,
                            1.0,
                            true,
                        );
                    }
                    // Frayed fibres where the rope parted.
                    BreakKind::Rope => {
                        self.emit(
                            18,
                            at,
                            MqVec2::Y,
                            tau,
                            (1.0, 4.0),
                            0.7,
                            0.06,
                            palette::ROPE_LIGHT,
                            0.4,
                            true,
                        );
                    }
                }
            }
            Event::Respawned => {
                self.respawn_fade = 1.0;
                let at = mq(world.player.pos);
                self.emit(
                    16,
                    at,
                    MqVec2::Y,
                    tau,
                    (1.5, 3.0),
                    0.5,
                    0.08,
                    palette::PLAYER,
                    -0.1,
                    false,
                );
            }
            Event::CheckpointReached { index } => {
                if let Some(rect) = world.level.checkpoints.get(index) {
                    let at = vec2((rect.min.0 + rect.max.0) * 0.5, rect.min.1 + 1.4);
                    self.emit(
                        20,
                        at,
                        MqVec2::Y,
                        1.8,
                        (2.0, 6.0),
                        0.8,
                        0.08,
                        palette::CHECKPOINT_REACHED,
                        0.6,
                        true,
                    );
                }
            }
            Event::GoalReached { .. } => {
                let g = &world.level.goal;
                let at = vec2((g.min.0 + g.max.0) * 0.5, (g.min.1 + g.max.1) * 0.5);
                self.emit(
                    50,
                    at,
                    MqVec2::Y,
                    tau,
                    (3.0, 10.0),
                    1.2,
                    0.12,
                    palette::GOAL,
                    0.7,
                    true,
                );
                self.emit(
                    30,
                    at,
                    MqVec2::Y,
                    tau,
                    (2.0, 6.0),
                    1.0,
                    0.08,
                    palette::GRAPPLE_POINT,
                    0.7,
                    true,
                );
            }
            _ => {}
        }
    }

    /// One tick: moves and ages the particles, and raises dust behind a running player.
    pub fn tick(&mut self, world: &World, dt_s: f32) {
        self.ticks += 1;
        self.respawn_fade = (self.respawn_fade - dt_s / RESPAWN_FADE_S).max(0.0);
        let player = &world.player;
        if player.grounded
            && player.vel.x.abs() > RUN_DUST_SPEED_M_PER_S
            && self.ticks.is_multiple_of(RUN_DUST_EVERY_TICKS)
        {
            let feet = mq(player.pos) - vec2(0.0, world.tuning.player.half_height_m);
            let back = vec2(-player.vel.x.signum(), 0.4);
            self.emit(
                1,
                feet,
                back,
                0.8,
                (0.5, 1.5),
                0.35,
                0.1,
                palette::DUST,
                0.05,
                false,
            );
        }
        for p in &mut self.particles {
            p.age_s += dt_s;
            p.vel.y += GRAVITY_M_PER_S2 * p.gravity * dt_s;
            p.vel *= 1.0 - 2.0 * dt_s;
            p.pos += p.vel * dt_s;
        }
        self.particles.retain(|p| p.age_s < p.life_s);
    }

    /// Draws the particles (in world space).
    pub fn draw(&self) {
        for p in &self.particles {
            let left = 1.0 - p.age_s / p.life_s;
            if p.square {
                let s = p.size_m * (0.4 + 0.6 * left);
                draw_rectangle(
                    p.pos.x - s * 0.5,
                    p.pos.y - s * 0.5,
                    s,
                    s,
                    p.color.with_alpha(left),
                );
            } else {
                // Puffs grow as they fade.
                let r = p.size_m * (1.0 + 1.5 * (1.0 - left));
                draw_circle(p.pos.x, p.pos.y, r, p.color.with_alpha(0.55 * left));
            }
        }
    }

    /// The respawn fade, drawn over the whole screen (in screen space).
    pub fn draw_screen_overlay(&self, width: f32, height: f32) {
        if self.respawn_fade > 0.0 {
            draw_rectangle(
                0.0,
                0.0,
                width,
                height,
                palette::BACKGROUND.with_alpha(self.respawn_fade * 0.85),
            );
        }
    }

    pub fn particle_count(&self) -> usize {
        self.particles.len()
    }
}
