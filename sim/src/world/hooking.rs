//! The hook's part of a tick: its buttons (release, jump-release, fire) and its flight, swept so
//! it never passes a thin wall, until it attaches, bounces or misses.

use crate::event::Event;
use crate::geometry::groups;
use crate::hook::{anchor_for_hit, anchor_in_reach, Hook};
use crate::input::InputFrame;
use crate::rope::Rope;
use crate::tuning::TICK_DT_S;
use crate::world::World;

impl World {
    /// Release, jump-release and fire. Firing while attached drops the old rope and re-hooks.
    pub(super) fn handle_hook_buttons(
        &mut self,
        input: &InputFrame,
        jumped: bool,
        events: &mut Vec<Event>,
    ) {
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

    /// Moves a flying or retracting hook with a swept ray, so it never passes a thin wall.
    pub(super) fn advance_hook(&mut self, events: &mut Vec<Event>) {
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
                    Some(hit) => match anchor_for_hit(&hit, &self.level, rope_radius_m) {
                        Some((kind, at)) => {
                            let rope = Rope::new(at, self.player.pos, max_len, &self.tuning.rope);
                            let body = hit.tag.body;
                            let anchor_in_body = self.body_pose(body).inverse() * at;
                            self.hook = Hook::Attached {
                                rope,
                                kind,
                                body,
                                anchor_in_body,
                                wheel_queue_m: 0.0,
                            };
                            events.push(Event::HookAttached { kind, at });
                        }
                        None => {
                            self.hook = Hook::Retracting { pos: hit.point };
                            events.push(Event::HookBounced { at: hit.point });
                        }
                    },
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
}
