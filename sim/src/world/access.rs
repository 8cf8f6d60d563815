//! What the outside reads of the world (the front end to draw it and make sounds, the server
//! to check a run, tests to assert on it), each part by name. The fields themselves are the
//! sim's own: everything else sees the world only through these and through `World::step`.

use std::sync::Arc;

use super::{TickEnergy, World};
use crate::cloth::Cloth;
use crate::geometry::Geometry;
use crate::hook::Hook;
use crate::level::LevelDef;
use crate::math::Vec2;
use crate::objects::checkpoint::CheckpointProgress;
use crate::objects::fragile::{LooseRope, Strain};
use crate::objects::vine::VineState;
use crate::objects::winch::WinchState;
use crate::objects::wind::WindField;
use crate::player::Player;
use crate::tuning::Tuning;

impl World {
    /// The vine the player holds, if any.
    pub fn held_vine(&self) -> Option<usize> {
        super::vines::held_vine(&self.hook)
    }

    /// Whether the fragile anchor `index` is still there.
    pub fn fragile_intact(&self, index: usize) -> bool {
        self.fragile.get(index).is_some_and(|s| !s.broken)
    }

    /// The level this world plays, shared (an `Arc`, so a caller may keep it cheaply).
    pub fn level(&self) -> &Arc<LevelDef> {
        &self.level
    }

    /// Colliders: the fixed ones shared, the moving ones posed for the current tick.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The tuning this world was built with, shared.
    pub fn tuning(&self) -> &Arc<Tuning> {
        &self.tuning
    }

    pub fn player(&self) -> &Player {
        &self.player
    }

    pub fn hook(&self) -> &Hook {
        &self.hook
    }

    /// Ticks since the level started (not reset by deaths: the timer keeps running).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Where the player comes back after dying, in metres.
    pub fn respawn_point(&self) -> Vec2 {
        self.respawn_point
    }

    /// Which checkpoints have been touched and which one the player respawns at.
    pub fn checkpoints(&self) -> &CheckpointProgress {
        &self.checkpoints
    }

    /// One rope per winch of the level, in its list order.
    pub fn winches(&self) -> &[WinchState] {
        &self.winches
    }

    /// One rope per vine of the level, in its list order.
    pub fn vines(&self) -> &[VineState] {
        &self.vines
    }

    /// Whether each switch of the level is pressed (the player touched it this tick).
    pub fn switches_pressed(&self) -> &[bool] {
        &self.switches_pressed
    }

    /// The tick on which the goal was reached; the world is frozen from then on.
    pub fn completed_at_tick(&self) -> Option<u64> {
        self.completed_at_tick
    }

    /// The last tick on which the player was teleported (respawn); the renderer does not
    /// interpolate across it.
    pub fn teleported_at_tick(&self) -> Option<u64> {
        self.teleported_at_tick
    }

    pub fn deaths(&self) -> u32 {
        self.deaths
    }

    /// Whether the invincibility assist is on (see `set_invincible`).
    pub fn invincible(&self) -> bool {
        self.invincible
    }

    /// The level's wind zones (fixed; their gusts are a function of the tick).
    pub fn wind(&self) -> &WindField {
        &self.wind
    }

    /// How close each fragile anchor of the level is to breaking, in its list order.
    pub fn fragile(&self) -> &[Strain] {
        &self.fragile
    }

    /// How close the player's rope is to snapping (levels with a `fragile_rope`).
    pub fn rope_strain(&self) -> &Strain {
        &self.rope_strain
    }

    /// Pieces of broken ropes still whipping about.
    pub fn loose_ropes(&self) -> &[LooseRope] {
        &self.loose_ropes
    }

    /// One cloth per cloth of the level, in its list order.
    pub fn cloths(&self) -> &[Cloth] {
        &self.cloths
    }

    /// The last tick's energy account of the player: written by `step`, never read by it.
    pub fn energy(&self) -> TickEnergy {
        self.energy
    }

    /// The invincibility assist: hazards bounce the player up instead of killing (falling out
    /// of the level still kills). The player's choice, set by the front end before or during
    /// a run, and by whoever replays a run (`Replay::run`, the server's check) from its record.
    pub fn set_invincible(&mut self, invincible: bool) {
        self.invincible = invincible;
    }
}
