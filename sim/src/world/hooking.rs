//! The hook's part of a tick: its buttons (release, jump-release, fire) and its flight, swept so
//! it never passes a thin wall, until it attaches, bounces or misses.

use crate::event::Event;
use rapier2d::parry::shape::Ball;

use crate::geometry::{groups, ColliderKind, Geometry, RayHit};
use crate::hook::{anchor_for_hit, anchor_in_reach, preview_aim, AimPreview, Hook};
use crate::input::InputFrame;
use crate::math::{Pose, Vec2};
use crate::objects::fragile::Strain;
use crate::objects::winch::WinchState;
use crate::player::Player;
use crate::rope::Rope;
use crate::tuning::TICK_DT_S;
use crate::world::parts::Scene;

/// Where a shot fired this tick would go, if the fire button was pressed: aimed from where the
/// player stands, past the fragile anchors that broke.
pub(super) fn aim_if_fired(
    input: &InputFrame,
    scene: Scene,
    geometry: &Geometry,
    fragile: &[Strain],
    player: &Player,
) -> Option<AimPreview> {
    input
        .fire_pressed
        .then(|| preview_aim_from(scene, geometry, fragile, player, input.aim()))
}

/// What firing with `aim_offset` from where the player stands would do.
pub(super) fn preview_aim_from(
    scene: Scene,
    geometry: &Geometry,
    fragile: &[Strain],
    player: &Player,
    aim_offset: Vec2,
) -> AimPreview {
    let broken: Vec<usize> = (0..fragile.len())
        .filter(|&i| fragile.get(i).is_some_and(|s| s.broken))
        .collect();
    preview_aim(
        geometry,
        scene.level,
        &broken,
        &scene.tuning.hook,
        scene.tuning.rope.radius_m,
        player.pos,
        aim_offset,
        player.facing,
        scene.max_rope_length_m(),
    )
}

/// Release, jump-release and fire (`aim` is where the shot goes, when fired). Firing while
/// attached drops the old rope and re-hooks.
pub(super) fn handle_hook_buttons(
    input: &InputFrame,
    jumped: bool,
    aim: Option<AimPreview>,
    scene: Scene,
    player: &mut Player,
    hook: &mut Hook,
    events: &mut Vec<Event>,
) {
    let attached = matches!(hook, Hook::Attached { .. });
    if attached && (input.release_pressed || input.jump_pressed || input.fire_pressed) {
        *hook = Hook::Idle;
        player.flung = true;
        events.push(Event::Released);
        // Jumping off a rope in mid-air gives a small boost; a jump from the ground is
        // already a full jump.
        if input.jump_pressed && !jumped {
            player.vel.y += scene.tuning.rope.jump_release_boost_m_per_s;
        }
    }
    if let Some(preview) = aim {
        *hook = Hook::Flying {
            pos: player.pos,
            dir: preview.dir,
            traveled_m: 0.0,
        };
        events.push(Event::HookFired);
    }
}

/// Moves a flying or retracting hook with a swept ray, so it never passes a thin wall.
pub(super) fn advance_hook(
    scene: Scene,
    geometry: &Geometry,
    winches: &[WinchState],
    player: &Player,
    hook: &mut Hook,
    events: &mut Vec<Event>,
) {
    match hook.clone() {
        Hook::Flying {
            pos,
            dir,
            traveled_m,
        } => {
            *hook = fly(
                scene,
                geometry,
                winches,
                player,
                (pos, dir, traveled_m),
                events,
            );
        }
        Hook::Retracting { pos } => {
            let to_player = player.pos - pos;
            let step_m = scene.tuning.hook.retract_speed_m_per_s * TICK_DT_S;
            if to_player.length() <= step_m {
                *hook = Hook::Idle;
            } else {
                *hook = Hook::Retracting {
                    pos: pos + to_player.normalize() * step_m,
                };
            }
        }
        Hook::Idle | Hook::Attached { .. } => {}
    }
}

/// One tick of a flying hook at `pos`, going `dir`, `traveled_m` out: the hook after it
/// (attached, bounced, missed or still flying).
fn fly(
    scene: Scene,
    geometry: &Geometry,
    winches: &[WinchState],
    player: &Player,
    (pos, dir, traveled_m): (Vec2, Vec2, f32),
    events: &mut Vec<Event>,
) -> Hook {
    let max_len = scene.max_rope_length_m();
    let step_m = (scene.tuning.hook.flight_speed_m_per_s * TICK_DT_S).min(max_len - traveled_m);
    let rope_radius_m = scene.tuning.rope.radius_m;
    let hit = geometry
        .cast_ray(pos, dir * step_m, groups::SOLID | groups::GRAPPLE_POINT)
        .map(|hit| hit_on_surface(geometry, hit, rope_radius_m));
    // The rope pays out from the player, who may have moved since firing: a hook whose anchor
    // (or, for a bounce, whose hit) is beyond the rope's reach from where the player is now is
    // a miss, so the rope never starts longer than it may be.
    let hit = hit.filter(|hit| {
        let reach_to =
            anchor_for_hit(hit, scene.level, rope_radius_m).map_or(hit.point, |(_, anchor)| anchor);
        anchor_in_reach(reach_to, player.pos, max_len)
    });
    match hit {
        Some(hit) => match anchor_for_hit(&hit, scene.level, rope_radius_m) {
            Some((kind, at)) => {
                let fired_from = pos - dir * traveled_m;
                let rope = lay_rope(geometry, [at, fired_from, player.pos], max_len, scene);
                let body = hit.tag.body;
                let anchor_in_body = scene.body_pose(winches, body).inverse() * at;
                events.push(Event::HookAttached { kind, at });
                Hook::Attached {
                    rope,
                    kind,
                    body,
                    anchor_in_body,
                    wheel_queue_m: 0.0,
                }
            }
            None => {
                events.push(Event::HookBounced { at: hit.point });
                Hook::Retracting { pos: hit.point }
            }
        },
        None => {
            let pos = pos + dir * step_m;
            let traveled_m = traveled_m + step_m;
            if traveled_m >= max_len - 1e-4 || pos.distance(player.pos) > max_len {
                events.push(Event::HookMissed);
                Hook::Retracting { pos }
            } else {
                Hook::Flying {
                    pos,
                    dir,
                    traveled_m,
                }
            }
        }
    }
}

/// `hit` on the surface of the solid it hit. A ray that starts inside a solid hits it where it
/// starts, with no normal: a moving block swept onto the flying hook this tick (13 Shuttle
/// Hooks, the shuttle's face 1.5 cm past the hook), and the anchor, a radius and a half along
/// that missing normal, was the hook's place inside the block. Such a hit is moved to the
/// nearest face of the solid around it (the way out of a probe ball `probe_radius_m` across),
/// with that face's outward normal, as if the hook had struck that face.
fn hit_on_surface(geometry: &Geometry, hit: RayHit, probe_radius_m: f32) -> RayHit {
    let started_inside = hit.distance_m == 0.0 && hit.normal.length_squared() < 0.5;
    if !started_inside || !matches!(hit.tag.kind, ColliderKind::Solid { .. }) {
        return hit;
    }
    let probe = Ball::new(probe_radius_m);
    let Some((out, depth_m)) =
        geometry.deepest_solid_overlap(&Pose::from_translation(hit.point), &probe)
    else {
        return hit;
    };
    RayHit {
        point: hit.point + out * (depth_m - probe_radius_m),
        normal: out,
        ..hit
    }
}

/// The rope of a hook that took hold at `anchor`, `fired_from` where the player shot it, the
/// player now at `player_pos`: straight from the anchor to the player, unless that chord passes
/// through a solid (the player jumped or rode a platform past a block since firing). Then it
/// is laid back along the hook's flight and on to the player, as the rope paid out.
fn lay_rope(
    geometry: &Geometry,
    [anchor, fired_from, player_pos]: [Vec2; 3],
    max_len: f32,
    scene: Scene,
) -> Rope {
    let tuning = &scene.tuning.rope;
    if chord_is_clear(geometry, anchor, player_pos, tuning.radius_m) {
        return Rope::new(anchor, player_pos, max_len, tuning);
    }
    Rope::laid_along(&[anchor, fired_from, player_pos], max_len, tuning)
}

/// Whether the straight line from the anchor (a rope's radius off the surface it hooked) to the
/// player meets no solid short of the player's last rope radius (the player may rest a little
/// inside the floor they stand on).
fn chord_is_clear(geometry: &Geometry, anchor: Vec2, player_pos: Vec2, radius_m: f32) -> bool {
    let chord = player_pos - anchor;
    geometry
        .cast_ray(anchor, chord, groups::SOLID)
        .is_none_or(|hit| hit.distance_m >= chord.length() - radius_m)
}
