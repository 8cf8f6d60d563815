//! The world and its one way of changing: `step`. The order of a tick is written down once, in
//! `World::step`: input → jump → hook buttons → movement (rope or run) → buffered jump on landing → hook
//! flight → triggers.

use std::sync::Arc;

use super::event::Event;
use super::geometry::{groups, ColliderKind, Geometry};
use super::hook::{anchor_for_hit, anchor_in_reach, preview_aim, AimPreview, Hook};
use super::input::InputFrame;
use super::level::{LevelDef, LevelError, LevelIssue};
use super::math::{Pose, Vec2};
use super::player::Player;
use super::rope::Rope;
use super::tuning::{Tuning, TICK_DT_S};

/// Everything that changes during play, plus the level it plays on.
#[derive(Clone)]
pub struct World {
    pub level: Arc<LevelDef>,
    pub geometry: Arc<Geometry>,
    pub tuning: Arc<Tuning>,
    pub player: Player,
    pub hook: Hook,
    /// Ticks since the level started (not reset by deaths: the timer keeps running).
    pub tick: u64,
    /// Where the player comes back after dying.
    pub respawn_point: Vec2,
    pub checkpoint: Option<usize>,
    /// The tick on which the goal was reached; the world is frozen from then on.
    pub completed_at_tick: Option<u64>,
    /// The last tick on which the player was teleported (respawn); the renderer does not
    /// interpolate across it.
    pub teleported_at_tick: Option<u64>,
    pub deaths: u32,
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
            .map_err(|(object, message)| semantic(vec![LevelIssue { object, message }]))?;
        let spawn = level.spawn.v();
        let shape = Player::shape(&tuning.player);
        if !geometry
            .overlaps(Pose::from_translation(spawn), &shape, groups::SOLID)
            .is_empty()
        {
            return Err(semantic(vec![LevelIssue {
                object: "spawn".into(),
                message: format!(
                    "the player ({}×{} m) at the spawn overlaps a solid",
                    2.0 * tuning.player.half_width_m,
                    2.0 * tuning.player.half_height_m
                ),
            }]));
        }
        if !geometry
            .overlaps(Pose::from_translation(spawn), &shape, groups::HAZARD)
            .is_empty()
        {
            return Err(semantic(vec![LevelIssue {
                object: "spawn".into(),
                message: "the player at the spawn touches a hazard".into(),
            }]));
        }
        Ok(World {
            level: Arc::new(level),
            geometry: Arc::new(geometry),
            tuning,
            player: Player::new(spawn),
            hook: Hook::Idle,
            tick: 0,
            respawn_point: spawn,
            checkpoint: None,
            completed_at_tick: None,
            teleported_at_tick: None,
            deaths: 0,
        })
    }

    /// The longest rope on this level.
    pub fn max_rope_length_m(&self) -> f32 {
        self.level
            .max_rope_length_m
            .unwrap_or(self.tuning.rope.max_length_m)
    }

    /// What firing with `aim_offset` now would do.
    pub fn preview_aim(&self, aim_offset: Vec2) -> AimPreview {
        preview_aim(
            &self.geometry,
            &self.level,
            &self.tuning.hook,
            self.tuning.rope.radius_m,
            self.player.pos,
            aim_offset,
            self.player.facing,
            self.max_rope_length_m(),
        )
    }

    pub fn rope(&self) -> Option<&Rope> {
        match &self.hook {
            Hook::Attached { rope, .. } => Some(rope),
            _ => None,
        }
    }

    pub fn is_completed(&self) -> bool {
        self.completed_at_tick.is_some()
    }

    /// Advances one fixed tick. This is the only way the world changes.
    pub fn step(&mut self, input: &InputFrame) -> Vec<Event> {
        let mut events = Vec::new();
        if self.is_completed() {
            return events;
        }
        let tuning = Arc::clone(&self.tuning);

        let intent = self.player.update_jump(input, &tuning.player, &mut events);
        self.handle_hook_buttons(input, intent.jumped, &mut events);
        self.move_player(input, &mut events);
        self.player
            .jump_if_buffered_on_landing(&tuning.player, &mut events);
        self.advance_hook(&mut events);
        self.check_triggers(&mut events);

        self.tick += 1;
        events
    }

    /// Release, jump-release and fire. Firing while attached drops the old rope and re-hooks.
    fn handle_hook_buttons(&mut self, input: &InputFrame, jumped: bool, events: &mut Vec<Event>) {
        let attached = matches!(self.hook, Hook::Attached { .. });
        if attached && (input.release_pressed || input.jump_pressed || input.fire_pressed) {
            self.hook = Hook::Idle;
            self.player.flung = true;
            events.push(Event::Released);
            // Jumping off a rope in mid-air gives a small boost; a jump from the ground is
            // already a full jump.
            if input.jump_pressed && !jumped {
                self.player.vel.y += self.tuning.rope.jump_release_boost_m_per_s;
            }
        }
        if input.fire_pressed {
            let preview = self.preview_aim(input.aim());
            self.hook = Hook::Flying {
                pos: self.player.pos,
                dir: preview.dir,
                traveled_m: 0.0,
            };
            events.push(Event::HookFired);
        }
    }

    fn move_player(&mut self, input: &InputFrame, events: &mut Vec<Event>) {
        let tuning = Arc::clone(&self.tuning);
        let max_len = self.max_rope_length_m();
        let player = &mut self.player;
        let Hook::Attached { rope, .. } = &mut self.hook else {
            player.apply_run_and_gravity(input, &tuning.player);
            let desired = player.vel * TICK_DT_S;
            player.move_and_collide(desired, &self.geometry, &tuning.player, events);
            return;
        };
        let reel_m = input.reel as f32 * tuning.rope.reel_speed_m_per_s * TICK_DT_S
            + input.wheel_notches as f32 * tuning.rope.wheel_reel_step_m;
        rope.set_length(rope.length_m - reel_m, tuning.rope.min_length_m, max_len);
        let gravity = Vec2::new(0.0, -tuning.player.gravity_m_per_s2);
        if player.grounded {
            // On the ground with a rope: walk as usual; the rope only limits how far.
            player.apply_run_and_gravity(input, &tuning.player);
        } else {
            // Swinging: gravity and pumping; momentum is kept (no air drag toward zero).
            if input.move_x != 0 {
                player.facing = input.move_x.signum();
            }
            let pump = Vec2::new(
                input.move_x.signum() as f32 * tuning.rope.pump_accel_m_per_s2,
                0.0,
            );
            player.vel += (gravity + pump) * TICK_DT_S;
        }
        let (target, vel) = rope.step(
            &self.geometry,
            &tuning.rope,
            gravity,
            player.pos,
            player.vel,
            TICK_DT_S,
        );
        player.vel = vel;
        player.move_and_collide(target - player.pos, &self.geometry, &tuning.player, events);
        rope.set_player(player.pos);
    }

    /// Moves a flying or retracting hook with a swept ray, so it never passes a thin wall.
    fn advance_hook(&mut self, events: &mut Vec<Event>) {
        let hook_tuning = &self.tuning.hook;
        let max_len = self.max_rope_length_m();
        match self.hook.clone() {
            Hook::Flying {
                pos,
                dir,
                traveled_m,
            } => {
                let step_m =
                    (hook_tuning.flight_speed_m_per_s * TICK_DT_S).min(max_len - traveled_m);
                let hit = self.geometry.cast_ray(
                    pos,
                    dir * step_m,
                    groups::SOLID | groups::GRAPPLE_POINT,
                );
                // The rope pays out from the player, who may have moved since firing: a hook
                // whose anchor (or, for a bounce, whose hit) is beyond the rope's reach from where
                // the player is now is a miss, so the rope never starts longer than it may be.
                let player = self.player.pos;
                let rope_radius_m = self.tuning.rope.radius_m;
                let hit = hit.filter(|hit| {
                    let reach_to = anchor_for_hit(hit, &self.level, rope_radius_m)
                        .map_or(hit.point, |(_, anchor)| anchor);
                    anchor_in_reach(reach_to, player, max_len)
                });
                match hit {
                    Some(hit) => {
                        let attach = anchor_for_hit(&hit, &self.level, rope_radius_m);
                        match attach {
                            Some((kind, at)) => {
                                let rope =
                                    Rope::new(at, self.player.pos, max_len, &self.tuning.rope);
                                self.hook = Hook::Attached { rope, kind };
                                events.push(Event::HookAttached { kind, at });
                            }
                            None => {
                                self.hook = Hook::Retracting { pos: hit.point };
                                events.push(Event::HookBounced { at: hit.point });
                            }
                        }
                    }
                    None => {
                        let pos = pos + dir * step_m;
                        let traveled_m = traveled_m + step_m;
                        if traveled_m >= max_len - 1e-4 || pos.distance(player) > max_len {
                            self.hook = Hook::Retracting { pos };
                            events.push(Event::HookMissed);
                        } else {
                            self.hook = Hook::Flying {
                                pos,
                                dir,
                                traveled_m,
                            };
                        }
                    }
                }
            }
            Hook::Retracting { pos } => {
                let to_player = self.player.pos - pos;
                let step_m = hook_tuning.retract_speed_m_per_s * TICK_DT_S;
                if to_player.length() <= step_m {
                    self.hook = Hook::Idle;
                } else {
                    self.hook = Hook::Retracting {
                        pos: pos + to_player.normalize() * step_m,
                    };
                }
            }
            Hook::Idle | Hook::Attached { .. } => {}
        }
    }

    /// Hazards and falling kill; checkpoints and the goal are reached by touching them.
    fn check_triggers(&mut self, events: &mut Vec<Event>) {
        let shape = Player::shape(&self.tuning.player);
        let pose = Pose::from_translation(self.player.pos);
        let touched = self.geometry.overlaps(
            pose,
            &shape,
            groups::HAZARD | groups::CHECKPOINT | groups::GOAL,
        );
        let mut died = self.player.pos.y < self.level.kill_y_m;
        for tag in touched {
            match tag.kind {
                ColliderKind::Hazard => died = true,
                ColliderKind::Checkpoint if self.checkpoint.is_none_or(|c| c < tag.index) => {
                    self.checkpoint = Some(tag.index);
                    self.respawn_point = self.level.checkpoints[tag.index].center();
                    events.push(Event::CheckpointReached { index: tag.index });
                }
                ColliderKind::Goal if !died => {
                    self.completed_at_tick = Some(self.tick + 1);
                    events.push(Event::GoalReached {
                        ticks: self.tick + 1,
                    });
                    return;
                }
                _ => {}
            }
        }
        if died {
            events.push(Event::Died {
                at: self.player.pos,
            });
            self.respawn();
            events.push(Event::Respawned);
        }
    }

    fn respawn(&mut self) {
        let facing = self.player.facing;
        self.player = Player::new(self.respawn_point);
        self.player.facing = facing;
        self.hook = Hook::Idle;
        self.teleported_at_tick = Some(self.tick + 1);
        self.deaths += 1;
    }

    /// A hash of everything that evolves, over the exact bits of every float: equal hashes on two
    /// machines mean the two simulations agreed to the bit.
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv1a::new();
        h.u64(self.tick);
        h.vec(self.player.pos);
        h.vec(self.player.vel);
        h.u64(self.player.grounded as u64);
        h.u64(self.player.flung as u64);
        h.u64(self.deaths as u64);
        h.u64(self.completed_at_tick.unwrap_or(u64::MAX));
        match &self.hook {
            Hook::Idle => h.u64(0),
            Hook::Flying { pos, .. } => {
                h.u64(1);
                h.vec(*pos);
            }
            Hook::Retracting { pos } => {
                h.u64(2);
                h.vec(*pos);
            }
            Hook::Attached { rope, .. } => {
                h.u64(3);
                h.f32(rope.length_m);
                for &node in &rope.nodes {
                    h.vec(node);
                }
            }
        }
        h.finish()
    }
}

impl super::level::RectDef {
    pub fn center(&self) -> Vec2 {
        (self.min.v() + self.max.v()) * 0.5
    }
}

/// FNV-1a, 64-bit: tiny, stable across targets and versions (unlike std's hasher).
struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
    fn u64(&mut self, value: u64) {
        for byte in value.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn f32(&mut self, value: f32) {
        self.u64(value.to_bits() as u64);
    }
    fn vec(&mut self, v: Vec2) {
        self.f32(v.x);
        self.f32(v.y);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
