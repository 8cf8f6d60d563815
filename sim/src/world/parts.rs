//! The borrows the tick's stages take. `World::step` splits the world into its fields and hands
//! each stage the ones it reads (`&`) and changes (`&mut`); the parts below bundle the fields
//! that always travel together, so a stage's signature still says what it touches.

use crate::cloth::Cloth;
use crate::event::Event;
use crate::geometry::{Body, Geometry};
use crate::hook::Hook;
use crate::level::LevelDef;
use crate::math::{Pose, Vec2};
use crate::objects::checkpoint::CheckpointProgress;
use crate::objects::fragile::{LooseRope, Strain};
use crate::objects::vine::VineState;
use crate::objects::winch::WinchState;
use crate::objects::wind::{WindField, WindNow};
use crate::player::Player;
use crate::tuning::Tuning;
use crate::world::energy::{EnergyMeter, TickEnergy};
use crate::world::{body_pose, pose_bodies, World};

/// The world split into the borrows its stages take: `World::step` hands each stage the parts
/// it reads and changes.
pub(crate) struct Parts<'a> {
    pub(crate) scene: Scene<'a>,
    pub(crate) geometry: &'a mut Geometry,
    pub(crate) player: &'a mut Player,
    pub(crate) hook: &'a mut Hook,
    pub(crate) tick: &'a mut u64,
    pub(crate) winches: &'a mut Vec<WinchState>,
    pub(crate) vines: &'a mut Vec<VineState>,
    pub(crate) switches_pressed: &'a mut Vec<bool>,
    pub(crate) cloths: &'a mut Vec<Cloth>,
    pub(crate) energy: &'a mut TickEnergy,
    pub(crate) breakage: Breakage<'a>,
    pub(crate) run: RunRecord<'a>,
}

impl World {
    /// Splits the world into its parts (every field, by destructuring, so a new field must be
    /// placed here).
    pub(crate) fn split(&mut self) -> Parts<'_> {
        let World {
            level,
            geometry,
            tuning,
            player,
            hook,
            tick,
            respawn_point,
            checkpoints,
            winches,
            vines,
            switches_pressed,
            completed_at_tick,
            teleported_at_tick,
            deaths,
            invincible,
            wind,
            fragile,
            rope_strain,
            loose_ropes,
            cloths,
            energy,
        } = self;
        Parts {
            scene: Scene {
                level,
                tuning,
                wind,
                tick: *tick,
                invincible: *invincible,
            },
            geometry,
            player,
            hook,
            tick,
            winches,
            vines,
            switches_pressed,
            cloths,
            energy,
            breakage: Breakage {
                fragile,
                rope_strain,
                loose_ropes,
            },
            run: RunRecord {
                respawn_point,
                checkpoints,
                completed_at_tick,
                teleported_at_tick,
                deaths,
            },
        }
    }
}

/// What every stage may read and none changes: the level, its tuning and wind, the tick's
/// number and the invincibility assist.
#[derive(Clone, Copy)]
pub(crate) struct Scene<'a> {
    pub(crate) level: &'a LevelDef,
    pub(crate) tuning: &'a Tuning,
    pub(crate) wind: &'a WindField,
    pub(crate) tick: u64,
    pub(crate) invincible: bool,
}

impl<'a> Scene<'a> {
    /// The same scene at `tick` (the step advances the counter after the objects have moved).
    pub(crate) fn at_tick(self, tick: u64) -> Scene<'a> {
        Scene { tick, ..self }
    }

    /// The air's velocity everywhere this tick, or `None` on a level without wind.
    pub(crate) fn wind_now(&self) -> Option<WindNow<'a>> {
        (!self.wind.is_calm()).then(|| self.wind.at_tick(self.tick))
    }

    pub(crate) fn gravity(&self) -> Vec2 {
        Vec2::new(0.0, -self.tuning.player.gravity_m_per_s2)
    }

    /// Where `body` is this tick (a winch's load hangs from its rope, hence `winches`).
    pub(crate) fn body_pose(&self, winches: &[WinchState], body: Body) -> Pose {
        body_pose(self.level, winches, self.tick, body)
    }

    /// Where the body the player stands on is, if they stand on one.
    pub(crate) fn ground_pose(&self, winches: &[WinchState], player: &Player) -> Option<Pose> {
        player.ground_body.map(|body| self.body_pose(winches, body))
    }

    /// The longest rope on this level.
    pub(crate) fn max_rope_length_m(&self) -> f32 {
        self.level
            .max_rope_length_m
            .unwrap_or(self.tuning.rope.max_length_m)
    }
}

/// The moving colliders and the winches whose loads are among them: a stage that changes what
/// is present (an anchor breaking, everything mended on respawn) poses the bodies again.
pub(crate) struct Bodies<'a> {
    pub(crate) geometry: &'a mut Geometry,
    pub(crate) winches: &'a [WinchState],
}

impl Bodies<'_> {
    /// Poses the moving colliders again, after what is present changed (`fragile`).
    pub(crate) fn pose(&mut self, scene: Scene, fragile: &[Strain]) {
        pose_bodies(
            self.geometry,
            scene.level,
            scene.tick,
            self.winches,
            fragile,
        );
    }
}

/// What strain has done: how close each fragile anchor and the player's rope are to breaking,
/// and the pieces of broken ropes still falling.
pub(crate) struct Breakage<'a> {
    pub(crate) fragile: &'a mut Vec<Strain>,
    pub(crate) rope_strain: &'a mut Strain,
    pub(crate) loose_ropes: &'a mut Vec<LooseRope>,
}

/// The run's record that touching things and dying change: where the player comes back, the
/// checkpoints reached, the goal, the last teleport and the deaths.
pub(crate) struct RunRecord<'a> {
    pub(crate) respawn_point: &'a mut Vec2,
    pub(crate) checkpoints: &'a mut CheckpointProgress,
    pub(crate) completed_at_tick: &'a mut Option<u64>,
    pub(crate) teleported_at_tick: &'a mut Option<u64>,
    pub(crate) deaths: &'a mut u32,
}

/// What a tick reports besides the new state: its events (which `step` returns) and the
/// player's energy account (kept for tests, never read by the step).
pub(crate) struct TickLog {
    pub(crate) events: Vec<Event>,
    pub(crate) meter: EnergyMeter,
}

impl TickLog {
    pub(crate) fn start(player: &Player, tuning: &Tuning) -> TickLog {
        TickLog {
            events: Vec::new(),
            meter: EnergyMeter::start(player, tuning.player.gravity_m_per_s2),
        }
    }
}
