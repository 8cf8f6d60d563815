//! What touching things does: hazards, falling and being crushed kill; checkpoints and the goal
//! are reached; switches are pressed while touched.

use crate::event::Event;
use crate::geometry::{groups, ColliderKind, Geometry};
use crate::hook::Hook;
use crate::math::Pose;
use crate::player::Player;
use crate::world::fragile::mend_fragile;
use crate::world::parts::{Bodies, Breakage, RunRecord, Scene};

/// A player left this far inside solids at the end of a tick, after the tick's last
/// depenetration (`Player::settle_out_of_solids`), cannot be got out: squeezed between a moving
/// body and something else (a platform and a wall, a swinging load and a wall), they are
/// crushed. It is also how deep the property tests let a player end a tick inside a solid.
pub const CRUSH_DEPTH_M: f32 = 0.01;

/// Hazards, falling and crushing kill; checkpoints and the goal are reached by touching
/// them; switches are pressed while touched. Returns whether the player died (the death's
/// events are pushed; `respawn_if_dead` brings them back).
pub(super) fn check_triggers(
    scene: Scene,
    geometry: &Geometry,
    switches_pressed: &mut [bool],
    run: &mut RunRecord,
    player: &mut Player,
    events: &mut Vec<Event>,
) -> bool {
    let shape = Player::shape(&scene.tuning.player);
    let pose = Pose::from_translation(player.pos);
    let touched = geometry.overlaps(
        pose,
        &shape,
        groups::HAZARD | groups::CHECKPOINT | groups::GOAL | groups::SWITCH,
    );
    let crushed = geometry.has_moving()
        && geometry
            .deepest_solid_overlap(&pose, &shape)
            .is_some_and(|(_, depth)| depth > CRUSH_DEPTH_M);
    let mut died = player.pos.y < scene.level.kill_y_m || crushed;
    switches_pressed.fill(false);
    for tag in touched {
        match tag.kind {
            ColliderKind::Hazard if !scene.invincible => died = true,
            // Invincible: a hazard throws the player up instead (Celeste's assist bounce),
            // so they can climb out of a spiked pit; falling out of the level still kills.
            ColliderKind::Hazard => {
                let bounce = scene.tuning.player.jump_speed_m_per_s;
                player.vel.y = player.vel.y.max(bounce);
            }
            ColliderKind::Switch => {
                if let Some(pressed) = switches_pressed.get_mut(tag.index) {
                    *pressed = true;
                }
            }
            ColliderKind::Checkpoint if run.checkpoints.touch(tag.index) => {
                *run.respawn_point = scene.level.checkpoints[tag.index].center();
                events.push(Event::CheckpointReached { index: tag.index });
            }
            ColliderKind::Goal if !died => {
                *run.completed_at_tick = Some(scene.tick);
                events.push(Event::GoalReached { ticks: scene.tick });
                return false;
            }
            _ => {}
        }
    }
    if died {
        events.push(Event::Died { at: player.pos });
        events.push(Event::Respawned);
    }
    died
}

/// A player who `died` this tick comes back at the respawn point without a rope, and every
/// fragile anchor is mended.
pub(super) fn respawn_if_dead(
    died: bool,
    scene: Scene,
    bodies: Bodies,
    breakage: &mut Breakage,
    run: &mut RunRecord,
    player: &mut Player,
    hook: &mut Hook,
) {
    if !died {
        return;
    }
    let facing = player.facing;
    *player = Player::new(*run.respawn_point);
    player.facing = facing;
    *hook = Hook::Idle;
    *run.teleported_at_tick = Some(scene.tick);
    *run.deaths += 1;
    mend_fragile(scene, bodies, breakage);
}
