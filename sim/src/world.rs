//! The world and its one way of changing: `step`. The order of a tick is written down once, in
//! `World::step`. The stages that change several parts of the world at once are the world's own
//! and live under world/: the hook's buttons and flight (hooking.rs), the player's run or swing
//! (swing.rs), vines held and let go (vines.rs), breaking (fragile.rs), cloths (cloths.rs),
//! triggers (triggers.rs) and the state hash (hash.rs). The parts themselves (the rope, the
//! hook's states, each level object's definition and state) live in their own modules and know
//! nothing of the world, so the imports run one way: world → parts.

use std::sync::Arc;

mod access;
mod cloths;
mod energy;
mod fragile;
mod hash;
mod hooking;
mod parts;
mod setup;
mod swing;
mod triggers;
mod vines;

pub use energy::TickEnergy;
pub use triggers::CRUSH_DEPTH_M;

use cloths::step_cloths;
use energy::Credit;
use fragile::{check_breaks, step_loose_ropes};
use hooking::{advance_hook, aim_if_fired, handle_hook_buttons};
use parts::{Bodies, Parts, Scene, TickLog};
use swing::move_player;
use triggers::{check_triggers, respawn_if_dead};
use vines::{grab_vines, held_vine_upper, rejoin_released_vine, step_held_vine};

use super::cloth::Cloth;
use super::event::Event;
use super::geometry::{groups, Body, Geometry};
use super::hook::{AimPreview, Hook};
use super::input::InputFrame;
use super::level::{LevelDef, LevelError, LevelIssue};
use super::math::{Pose, Vec2};
use super::objects::checkpoint::CheckpointProgress;
use super::objects::fragile::{body_present, LooseRope, Strain};
use super::objects::vine::{step_free_vines, VineState};
use super::objects::winch::{DriveDef, WinchDef, WinchState};
use super::objects::wind::{WindField, WindNow};
use super::objects::LevelIds;
use super::parallel;
use super::player::Player;
use super::rope::Rope;
use super::tuning::{Tuning, STUMBLE_PUSH_MAX_LOAD_M_PER_S, TICK_DT_S};

/// Everything that changes during play, plus the level it plays on. The fields are the sim's
/// own: the outside reads them through the accessors in world/access.rs and sets up situations
/// through world/setup.rs; only `step` plays.
#[derive(Clone)]
pub struct World {
    pub(crate) level: Arc<LevelDef>,
    /// Colliders: the fixed ones shared, the moving ones posed for the current tick.
    pub(crate) geometry: Geometry,
    pub(crate) tuning: Arc<Tuning>,
    pub(crate) player: Player,
    pub(crate) hook: Hook,
    /// Ticks since the level started (not reset by deaths: the timer keeps running).
    pub(crate) tick: u64,
    /// Where the player comes back after dying.
    pub(crate) respawn_point: Vec2,
    pub(crate) checkpoints: CheckpointProgress,
    /// One rope per winch of the level, in its list order.
    pub(crate) winches: Vec<WinchState>,
    /// One rope per vine of the level, in its list order.
    pub(crate) vines: Vec<VineState>,
    /// Whether each switch of the level is pressed (the player touched it this tick).
    pub(crate) switches_pressed: Vec<bool>,
    /// The tick on which the goal was reached; the world is frozen from then on.
    pub(crate) completed_at_tick: Option<u64>,
    /// The last tick on which the player was teleported (respawn); the renderer does not
    /// interpolate across it.
    pub(crate) teleported_at_tick: Option<u64>,
    pub(crate) deaths: u32,
    /// The invincibility assist: hazards bounce the player up instead of killing (falling out
    /// of the level still kills). Set by the front end and by `Replay::run`.
    pub(crate) invincible: bool,
    /// The level's wind zones (fixed; their gusts are a function of the tick).
    pub(crate) wind: Arc<WindField>,
    /// How close each fragile anchor of the level is to breaking, in its list order.
    pub(crate) fragile: Vec<Strain>,
    /// How close the player's rope is to snapping (levels with a `fragile_rope`).
    pub(crate) rope_strain: Strain,
    /// Pieces of broken ropes still whipping about.
    pub(crate) loose_ropes: Vec<LooseRope>,
    /// One cloth per cloth of the level, in its list order.
    pub(crate) cloths: Vec<Cloth>,
    /// The last tick's energy account of the player (`TickEnergy`): written by `step`, never
    /// read by it, and not part of the state.
    pub(crate) energy: TickEnergy,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("level", &self.level.name)
            .field("tick", &self.tick)
            .field("player", &self.player)
            .field("hook", &self.hook)
            .finish_non_exhaustive()
    }
}

impl World {
    /// Builds the world of a parsed level. Adds the checks that need geometry (spawn inside a
    /// solid, polygons parry rejects), reported like the level's other semantic errors.
    pub fn from_level(
        level: LevelDef,
        tuning: Arc<Tuning>,
        file: &str,
    ) -> Result<World, LevelError> {
        let semantic = |issues: Vec<LevelIssue>| LevelError::Semantic {
            file: file.to_string(),
            issues,
        };
        let issues = level.issues();
        if !issues.is_empty() {
            return Err(semantic(issues));
        }
        let geometry = Geometry::from_level(&level, tuning.hook.grapple_point_radius_m)
            .map_err(|rejected| semantic(vec![rejected.into()]))?;
        let spawn = level.spawn.v();
        let winches = level
            .winches
            .iter()
            .enumerate()
            .map(|(i, winch)| winch.start(i, &tuning))
            .collect();
        let mut world = World {
            player: Player::new(spawn),
            hook: Hook::Idle,
            tick: 0,
            respawn_point: spawn,
            checkpoints: CheckpointProgress::new(level.checkpoints.len()),
            winches,
            vines: level.vines.iter().map(|v| v.start(&tuning)).collect(),
            switches_pressed: vec![false; level.switches.len()],
            completed_at_tick: None,
            teleported_at_tick: None,
            deaths: 0,
            invincible: false,
            wind: Arc::new(WindField::from_zones(&level.wind)),
            fragile: vec![Strain::default(); level.fragile.len()],
            rope_strain: Strain::default(),
            loose_ropes: Vec::new(),
            cloths: level.cloths.iter().map(|c| c.start()).collect(),
            energy: TickEnergy::default(),
            level: Arc::new(level),
            geometry,
            tuning,
        };
        world.pose_bodies();
        let shape = Player::shape(&world.tuning.player);
        let at_spawn = Pose::from_translation(spawn);
        if !world
            .geometry
            .overlaps(at_spawn, &shape, groups::SOLID)
            .is_empty()
        {
            let t = &world.tuning.player;
            return Err(semantic(vec![LevelIssue {
                object: "spawn".into(),
                message: format!(
                    "the player ({}×{} m) at the spawn overlaps a solid",
                    2.0 * t.half_width_m,
                    2.0 * t.half_height_m
                ),
            }]));
        }
        if !world
            .geometry
            .overlaps(at_spawn, &shape, groups::HAZARD)
            .is_empty()
        {
            return Err(semantic(vec![LevelIssue {
                object: "spawn".into(),
                message: "the player at the spawn touches a hazard".into(),
            }]));
        }
        Ok(world)
    }

    /// Hot reload: puts the player of `old` (the world before the level file changed) into this
    /// freshly built world, keeping position, velocity and facing, when that place is still
    /// valid here: inside the level, clear of solids and hazards. The rope is not kept (what it
    /// hung from may be gone) and the level's objects start afresh. Returns false, leaving the
    /// player at the spawn, when the place is not valid or the old run had finished.
    pub fn take_player_from(&mut self, old: &World) -> bool {
        let pos = old.player.pos;
        let valid = !old.is_completed()
            && pos.is_finite()
            && old.player.vel.is_finite()
            && pos.y > self.level.kill_y_m
            && self.player_fits_at(pos);
        if valid {
            self.player.pos = pos;
            self.player.vel = old.player.vel;
            self.player.facing = old.player.facing;
        }
        valid
    }

    /// Whether the player's box at `pos` touches no solid and no hazard.
    fn player_fits_at(&self, pos: Vec2) -> bool {
        let shape = Player::shape(&self.tuning.player);
        let pose = Pose::from_translation(pos);
        self.geometry
            .overlaps(pose, &shape, groups::SOLID | groups::HAZARD)
            .is_empty()
    }

    /// The longest rope on this level.
    pub fn max_rope_length_m(&self) -> f32 {
        self.scene().max_rope_length_m()
    }

    /// What firing with `aim_offset` now would do.
    pub fn preview_aim(&self, aim_offset: Vec2) -> AimPreview {
        hooking::preview_aim_from(
            self.scene(),
            &self.geometry,
            &self.fragile,
            &self.player,
            aim_offset,
        )
    }

    pub fn rope(&self) -> Option<&Rope> {
        attached_rope(&self.hook)
    }

    /// The respawn checkpoint's index in the level's list.
    pub fn checkpoint(&self) -> Option<usize> {
        self.checkpoints.current
    }

    pub fn is_completed(&self) -> bool {
        self.completed_at_tick.is_some()
    }

    /// Where a body is now: from its frame to the world.
    pub fn body_pose(&self, body: Body) -> Pose {
        body_pose(&self.level, &self.winches, self.tick, body)
    }

    /// What no stage of a tick changes, as the stages read it.
    fn scene(&self) -> Scene<'_> {
        Scene {
            level: &self.level,
            tuning: &self.tuning,
            wind: &self.wind,
            tick: self.tick,
            invincible: self.invincible,
        }
    }

    /// Advances one fixed tick. This is the only way the world changes. The world is split
    /// into its fields and each stage is handed the ones it reads (`&`) and changes (`&mut`),
    /// so this list is also the tick's data flow; `scene` is what no stage changes.
    pub fn step(&mut self, input: &InputFrame) -> Vec<Event> {
        if self.is_completed() {
            return Vec::new();
        }
        let Parts {
            scene,
            geometry,
            player,
            hook,
            tick,
            winches,
            vines,
            switches_pressed: switches,
            cloths,
            energy,
            mut breakage,
            mut run,
        } = self.split();
        let mut log = TickLog::start(player, scene.tuning);

        // Level objects move first, so that every query of this tick sees them where they are.
        let ground = scene.ground_pose(winches, player);
        step_objects(scene, switches, geometry, player, winches, vines);
        step_loose_ropes(scene, geometry, player, breakage.loose_ropes);
        *tick += 1;
        let scene = scene.at_tick(*tick);
        pose_bodies(geometry, scene.level, scene.tick, winches, breakage.fragile);
        carry_player(scene, geometry, winches, ground, player, &mut log.events);
        log.meter.credit(player, Credit::MovingSolids);

        let jumped = player
            .update_jump(input, &scene.tuning.player, &mut log.events)
            .jumped;
        // A vine held at the start of the tick: joined again if the hook lets go of it.
        let vine_upper = held_vine_upper(hook);
        let aim = aim_if_fired(input, scene, geometry, breakage.fragile, player);
        handle_hook_buttons(input, jumped, aim, scene, player, hook, &mut log.events);
        log.meter.credit(player, Credit::Jump);
        rejoin_released_vine(&vine_upper, hook, vines);
        log.meter.credit(player, Credit::Other);
        move_player(input, scene, geometry, winches, player, hook, &mut log);
        check_breaks(
            scene,
            Bodies { geometry, winches },
            &mut breakage,
            player,
            hook,
            &mut log.events,
        );
        step_held_vine(scene, geometry, player, hook, vines);
        log.meter.credit(player, Credit::Other);
        player.jump_if_buffered_on_landing(&scene.tuning.player, &mut log.events);
        log.meter.credit(player, Credit::Jump);
        land_on_loads(scene, &log.events, player, winches);
        advance_hook(scene, geometry, winches, player, hook, &mut log.events);
        player.settle_out_of_solids(geometry, &scene.tuning.player);
        grab_vines(player, hook, vines, &mut log.events);
        step_cloths(scene, geometry, player, hook, cloths);
        let vine_upper = held_vine_upper(hook);
        let died = check_triggers(scene, geometry, switches, &mut run, player, &mut log.events);
        respawn_if_dead(
            died,
            scene,
            Bodies { geometry, winches },
            &mut breakage,
            &mut run,
            player,
            hook,
        );
        rejoin_released_vine(&vine_upper, hook, vines);
        *energy = log.meter.finish(player, attached_rope(hook));
        log.events
    }

    /// The air's velocity everywhere this tick, or `None` on a level without wind.
    pub fn wind_now(&self) -> Option<WindNow<'_>> {
        (!self.wind.is_calm()).then(|| self.wind.at_tick(self.tick))
    }

    /// Moves every moving collider to its body's pose at the current tick (broken fragile
    /// anchors leave the geometry).
    pub(crate) fn pose_bodies(&mut self) {
        pose_bodies(
            &mut self.geometry,
            &self.level,
            self.tick,
            &self.winches,
            &self.fragile,
        );
    }
}

/// The rope the hook holds, if it is attached.
pub(crate) fn attached_rope(hook: &Hook) -> Option<&Rope> {
    match hook {
        Hook::Attached { rope, .. } => Some(rope),
        _ => None,
    }
}

/// Winches reel and their ropes swing, vines swing (platforms need no step: their pose is
/// a function of the tick). Every level rope feels the wind first, then moves. In a heavy
/// scene the vines and the winch ropes step side by side on both cores (`parallel`).
fn step_objects(
    scene: Scene,
    switches_pressed: &[bool],
    geometry: &Geometry,
    player: &Player,
    winches: &mut [WinchState],
    vines: &mut [VineState],
) {
    let wind = scene.wind_now();
    let drag = scene.tuning.rope.wind_drag_n_s2_per_m3;
    let blow = |rope: &mut Rope| {
        if let Some(wind) = &wind {
            rope.apply_air_drag(|p| wind.air_velocity(p), drag, TICK_DT_S, false);
        }
    };
    let gravity = scene.gravity();
    let (level, tuning) = (scene.level, scene.tuning);
    let ridden = match player.ground_body {
        Some(Body::WinchLoad(i)) => Some(i as usize),
        _ => None,
    };
    let work = |states: &[WinchState], vines: &[VineState]| {
        let ropes = states.iter().map(|w| &w.rope);
        ropes
            .chain(vines.iter().map(|v| &v.rope))
            .map(Rope::step_work)
            .sum()
    };
    parallel::join(
        work(winches, vines),
        || step_free_vines(vines, geometry, player, gravity, &blow),
        || {
            let mut ropes = Vec::with_capacity(winches.len());
            for (i, (def, state)) in level.winches.iter().zip(winches.iter_mut()).enumerate() {
                blow(&mut state.rope);
                let pressed = match &def.drive {
                    DriveDef::Switch(id) => level
                        .find_id("switches", id)
                        .is_some_and(|s| switches_pressed.get(s).copied().unwrap_or(false)),
                    _ => false,
                };
                let rider_kg = if ridden == Some(i) {
                    tuning.rope.player_mass_kg
                } else {
                    0.0
                };
                def.reel(state, pressed, rider_kg, tuning);
                ropes.push(&mut state.rope);
            }
            // The winches' ropes step together: ropes reeled alike solve side by side.
            Rope::step_free_all(&mut ropes, geometry, gravity, TICK_DT_S);
            for (def, state) in level.winches.iter().zip(winches.iter_mut()) {
                def.keep_load_out_of_fixed_solids(state, geometry);
            }
        },
    );
}

/// Moves every moving collider to its body's pose at `tick` (broken fragile anchors leave the
/// geometry).
pub(crate) fn pose_bodies(
    geometry: &mut Geometry,
    level: &LevelDef,
    tick: u64,
    winches: &[WinchState],
    fragile: &[Strain],
) {
    geometry.set_body_poses(|body| {
        body_present(fragile, body).then(|| body_pose(level, winches, tick, body))
    });
}

/// A player standing on a moving body moves with it; its velocity then carries on when
/// they jump or walk off (see `Player::ground_velocity`).
fn carry_player(
    scene: Scene,
    geometry: &Geometry,
    winches: &[WinchState],
    ground_before: Option<Pose>,
    player: &mut Player,
    events: &mut Vec<Event>,
) {
    let (Some(body), Some(before)) = (player.ground_body, ground_before) else {
        player.ground_velocity = Vec2::ZERO;
        return;
    };
    let after = scene.body_pose(winches, body);
    let local = before.inverse() * player.pos;
    let carried = after * local - player.pos;
    player.ground_velocity = carried / TICK_DT_S;
    player.carry(carried, geometry, &scene.tuning.player, events);
}

/// A player landing on a winch's load pushes it down: the rope's solve turns that into the
/// load's dip and bounce.
fn land_on_loads(scene: Scene, events: &[Event], player: &Player, winches: &mut [WinchState]) {
    let landed = events.iter().find_map(|e| match e {
        Event::Landed {
            impact_speed_m_per_s,
        } => Some(*impact_speed_m_per_s),
        _ => None,
    });
    let (Some(speed), Some(Body::WinchLoad(i))) = (landed, player.ground_body) else {
        return;
    };
    let Some(def) = scene.level.winches.get(i as usize) else {
        return;
    };
    let player_kg = scene.tuning.rope.player_mass_kg;
    let share = player_kg / (player_kg + def.load.mass_kg());
    // Down by the impact, and along by the player's speed across it: a running landing
    // sets the load swinging. A runner who lost the load for a tick never left it: pushing
    // it along by the run speed on every such stumble pumped 14 Drawbridge's bridge from 2.7
    // to 22 m/s (issue 32), so a stumble pushes only a slow load.
    let rope = &mut winches[i as usize].rope;
    let load_m_per_s = rope.end_velocity().x;
    let stumble_on_fast_load =
        player.landed_from_a_stumble() && load_m_per_s.abs() >= STUMBLE_PUSH_MAX_LOAD_M_PER_S;
    let across_m_per_s = if stumble_on_fast_load {
        0.0
    } else {
        player.vel.x - load_m_per_s
    };
    rope.push_end(Vec2::new(across_m_per_s, -speed) * share);
}

/// A body's pose at `tick`: a platform's from its motion, a winch load's from its rope's end.
pub fn body_pose(level: &LevelDef, winches: &[WinchState], tick: u64, body: Body) -> Pose {
    match body {
        Body::Fixed => Pose::IDENTITY,
        Body::Platform(i) => level.platforms.get(i as usize).map_or(Pose::IDENTITY, |p| {
            p.pose_at(tick as f64 * TICK_DT_S as f64)
        }),
        Body::WinchLoad(i) => winches
            .get(i as usize)
            .map_or(Pose::IDENTITY, WinchDef::load_body_pose),
        // Fragile anchors hold still until they are gone.
        Body::Fragile(_) => Pose::IDENTITY,
    }
}
