//! What touching things does: hazards, falling and being crushed kill; checkpoints and the goal
//! are reached; switches are pressed while touched.

use crate::event::Event;
use crate::geometry::{groups, ColliderKind};
use crate::hook::Hook;
use crate::math::Pose;
use crate::player::Player;
use crate::world::World;

/// A player left this far inside solids at the end of a tick, after the tick's last
/// depenetration (`Player::settle_out_of_solids`), cannot be got out: squeezed between a moving
/// body and something else (a platform and a wall, a swinging load and a wall), they are
/// crushed. It is also how deep the property tests let a player end a tick inside a solid.
pub const CRUSH_DEPTH_M: f32 = 0.01;

impl World {
    /// Hazards, falling and crushing kill; checkpoints and the goal are reached by touching
    /// them; switches are pressed while touched.
    pub(super) fn check_triggers(&mut self, events: &mut Vec<Event>) {
        let shape = Player::shape(&self.tuning.player);
        let pose = Pose::from_translation(self.player.pos);
        let touched = self.geometry.overlaps(
            pose,
            &shape,
            groups::HAZARD | groups::CHECKPOINT | groups::GOAL | groups::SWITCH,
        );
        let crushed = self.geometry.has_moving()
            && self
                .geometry
                .deepest_solid_overlap(&pose, &shape)
                .is_some_and(|(_, depth)| depth > CRUSH_DEPTH_M);
        let mut died = self.player.pos.y < self.level.kill_y_m || crushed;
        self.switches_pressed.fill(false);
        for tag in touched {
            match tag.kind {
                ColliderKind::Hazard if !self.invincible => died = true,
                // Invincible: a hazard throws the player up instead (Celeste's assist bounce),
                // so they can climb out of a spiked pit; falling out of the level still kills.
                ColliderKind::Hazard => {
                    let bounce = self.tuning.player.jump_speed_m_per_s;
                    self.player.vel.y = self.player.vel.y.max(bounce);
                }
                ColliderKind::Switch => {
                    if let Some(pressed) = self.switches_pressed.get_mut(tag.index) {
                        *pressed = true;
                    }
                }
                ColliderKind::Checkpoint if self.checkpoints.touch(tag.index) => {
                    self.respawn_point = self.level.checkpoints[tag.index].center();
                    events.push(Event::CheckpointReached { index: tag.index });
                }
                ColliderKind::Goal if !died => {
                    self.completed_at_tick = Some(self.tick);
                    events.push(Event::GoalReached { ticks: self.tick });
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
        self.teleported_at_tick = Some(self.tick);
        self.deaths += 1;
        self.mend_fragile();
    }
}
