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

/// One puff of particles: how many, how widely (radians around its direction) and how fast
/// they fly, how long they live, their size, their colour, how much gravity pulls them (dust
/// floats, sparks fall) and whether they are drawn square (sparks) or round (dust).
#[derive(Clone, Copy, Debug)]
struct Burst {
    count: usize,
    spread_rad: f32,
    speed_m_per_s: (f32, f32),
    life_s: f32,
    size_m: f32,
    color: Rgb,
    gravity: f32,
    square: bool,
}

const TAU: f32 = std::f32::consts::TAU;

/// A `Burst` written positionally, so that the table of every event's particles below reads
/// one line a burst.
#[allow(clippy::too_many_arguments)]
const fn burst(
    count: usize,
    spread_rad: f32,
    speed_m_per_s: (f32, f32),
    life_s: f32,
    size_m: f32,
    color: Rgb,
    gravity: f32,
    square: bool,
) -> Burst {
    Burst {
        count,
        spread_rad,
        speed_m_per_s,
        life_s,
        size_m,
        color,
        gravity,
        square,
    }
}
// Every event's particles, in one place.

/// Running dust, one puff at a time behind the feet.
const RUN_DUST: Burst = burst(1, 0.8, (0.5, 1.5), 0.35, 0.1, palette::DUST, 0.05, false);
/// Landing dust to each side; its count grows with the impact (`Effects::on_event`).
const LANDING_DUST: Burst = burst(0, 0.6, (1.0, 3.5), 0.45, 0.12, palette::DUST, 0.1, false);
const JUMP_DUST: Burst = burst(5, 2.6, (0.5, 2.0), 0.3, 0.09, palette::DUST, 0.1, false);
const HOOK_BITES_SURFACE: Burst = burst(14, 2.2, (3.0, 8.0), 0.3, 0.06, palette::SPARK, 1.0, true);
const HOOK_CATCHES_RING: Burst = burst(
    12,
    TAU,
    (2.0, 4.0),
    0.35,
    0.06,
    palette::GRAPPLE_POINT,
    0.3,
    true,
);
/// A few leaves shaken loose where the hand caught the vine.
const VINE_LEAVES: Burst = burst(
    6,
    TAU,
    (0.5, 1.5),
    0.6,
    0.07,
    palette::VINE_LEAF,
    1.0,
    false,
);
const BOUNCE_PUFF: Burst = burst(
    10,
    2.0,
    (0.8, 2.5),
    0.45,
    0.16,
    palette::STEEL_LIGHT,
    -0.05,
    false,
);
const BOUNCE_SPARKS: Burst = burst(5, 1.2, (3.0, 6.0), 0.2, 0.05, palette::SPARK, 1.0, true);
const DEATH_BURST: Burst = burst(30, TAU, (3.0, 9.0), 0.7, 0.12, palette::PLAYER, 0.8, true);
const DEATH_SPIKES: Burst = burst(12, TAU, (1.0, 4.0), 0.6, 0.1, palette::HAZARD, 0.5, true);
/// Chunks of rotten wood tumbling down, and a cloud of dust.
const BEAM_CHUNKS: Burst = burst(
    26,
    TAU,
    (1.0, 5.0),
    1.1,
    0.16,
    palette::WOOD_GRAIN,
    1.0,
    true,
);
const BEAM_DUST: Burst = burst(16, TAU, (0.5, 2.0), 0.8, 0.3, palette::DUST, -0.05, false);
/// Shards of the ring and sparks.
const RING_SHARDS: Burst = burst(
    10,
    TAU,
    (2.0, 6.0),
    0.9,
    0.1,
    palette::CRACKED_RING,
    1.0,
    true,
);
const RING_SPARKS: Burst = burst(12, TAU, (3.0, 8.0), 0.3, 0.05, palette::SPARK, 1.0, true);
/// Frayed fibres where the rope parted.
const ROPE_FIBRES: Burst = burst(
    18,
    TAU,
    (1.0, 4.0),
    0.7,
    0.06,
    palette::ROPE_LIGHT,
    0.4,
    true,
);
const RESPAWN_PUFF: Burst = burst(16, TAU, (1.5, 3.0), 0.5, 0.08, palette::PLAYER, -0.1, false);
const CHECKPOINT_SPARKLE: Burst = burst(
    20,
    1.8,
    (2.0, 6.0),
    0.8,
    0.08,
    palette::CHECKPOINT_REACHED,
    0.6,
    true,
);
const GOAL_BURST: Burst = burst(50, TAU, (3.0, 10.0), 1.2, 0.12, palette::GOAL, 0.7, true);
const GOAL_SPARKLE: Burst = burst(
    30,
    TAU,
    (2.0, 6.0),
    1.0,
    0.08,
    palette::GRAPPLE_POINT,
    0.7,
    true,
);

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

    /// `burst`'s particles around `at`, flying out around `dir`.
    fn emit(&mut self, burst: Burst, at: MqVec2, dir: MqVec2) {
        let Burst {
            count,
            spread_rad: spread,
            speed_m_per_s: speed,
            life_s,
            size_m,
            color,
            gravity,
            square,
        } = burst;
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
        let feet = mq(world.player().pos) - vec2(0.0, world.tuning().player.half_height_m);
        let away_from_player = |at: MqVec2| (mq(world.player().pos) - at).normalize_or_zero();
        match *event {
            Event::Landed {
                impact_speed_m_per_s,
            } if impact_speed_m_per_s.abs() >= LANDING_DUST_M_PER_S => {
                let n = (impact_speed_m_per_s.abs() * 0.8) as usize + 4;
                for side in [-1.0, 1.0] {
                    let dust = Burst {
                        count: n / 2,
                        ..LANDING_DUST
                    };
                    self.emit(dust, feet, vec2(side, 0.25));
                }
            }
            Event::Jumped => self.emit(JUMP_DUST, feet, vec2(0.0, -1.0)),
            Event::HookAttached { kind, at } => {
                let burst = match kind {
                    AttachKind::Surface => HOOK_BITES_SURFACE,
                    AttachKind::GrapplePoint => HOOK_CATCHES_RING,
                    AttachKind::Vine(_) => VINE_LEAVES,
                };
                let at = mq(at);
                self.emit(burst, at, away_from_player(at));
            }
            Event::HookBounced { at } => {
                let at = mq(at);
                self.emit(BOUNCE_PUFF, at, away_from_player(at));
                self.emit(BOUNCE_SPARKS, at, away_from_player(at));
            }
            Event::Died { at } => self.emit_all(&[DEATH_BURST, DEATH_SPIKES], mq(at)),
            Event::Broke { kind, at } => {
                let bursts: &[Burst] = match kind {
                    BreakKind::Beam(_) => &[BEAM_CHUNKS, BEAM_DUST],
                    BreakKind::Ring(_) => &[RING_SHARDS, RING_SPARKS],
                    BreakKind::Rope => &[ROPE_FIBRES],
                };
                self.emit_all(bursts, mq(at));
            }
            Event::Respawned => {
                self.respawn_fade = 1.0;
                self.emit_all(&[RESPAWN_PUFF], mq(world.player().pos));
            }
            Event::CheckpointReached { index } => {
                if let Some(rect) = world.level().checkpoints.get(index) {
                    let at = vec2((rect.min.0 + rect.max.0) * 0.5, rect.min.1 + 1.4);
                    self.emit_all(&[CHECKPOINT_SPARKLE], at);
                }
            }
            Event::GoalReached { .. } => {
                let g = &world.level().goal;
                let at = vec2((g.min.0 + g.max.0) * 0.5, (g.min.1 + g.max.1) * 0.5);
                self.emit_all(&[GOAL_BURST, GOAL_SPARKLE], at);
            }
            _ => {}
        }
    }

    /// `bursts` one after another at `at`, flying upward.
    fn emit_all(&mut self, bursts: &[Burst], at: MqVec2) {
        for &burst in bursts {
            self.emit(burst, at, MqVec2::Y);
        }
    }

    /// One tick: moves and ages the particles, and raises dust behind a running player.
    pub fn tick(&mut self, world: &World, dt_s: f32) {
        self.ticks += 1;
        self.respawn_fade = (self.respawn_fade - dt_s / RESPAWN_FADE_S).max(0.0);
        let player = world.player();
        if player.grounded
            && player.vel.x.abs() > RUN_DUST_SPEED_M_PER_S
            && self.ticks.is_multiple_of(RUN_DUST_EVERY_TICKS)
        {
            let feet = mq(player.pos) - vec2(0.0, world.tuning().player.half_height_m);
            let back = vec2(-player.vel.x.signum(), 0.4);
            self.emit(RUN_DUST, feet, back);
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
