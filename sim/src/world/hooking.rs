//! The hook's part of a tick: its buttons (release, jump-release, fire) and its flight, swept so
//! it never passes a thin wall, until it attaches, bounces or misses.

use crate::event::Event;

use crate::geometry::{groups, Geometry};
use crate::hook::{anchor_for_hit, anchor_in_reach, hit_on_surface, preview_aim, AimPreview, Hook};
use crate::input::InputFrame;
use crate::math::Vec2;
use crate::objects::fragile::Strain;
use crate::objects::winch::WinchState;
use crate::player::Player;
use crate::rope::Rope;
use crate::tuning::{RopeTuning, TICK_DT_S};
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
        let_go(hook, player);
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

/// The hook lets go of its rope, whatever the cause (the player's release, a rope crushed
/// against the level, a break), and returns what it held. The player keeps their velocity, and
/// is flung: air drag leaves the swing's momentum alone until they land or steer against it.
pub(super) fn let_go(hook: &mut Hook, player: &mut Player) -> Hook {
    player.flung = true;
    std::mem::replace(hook, Hook::Idle)
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
    let fired_from = pos - dir * traveled_m;
    // The rope pays out from the player, who may have moved since firing: a hook whose rope, laid
    // as `rope_path` lays it (or, for a bounce, whose hit) is beyond the rope's reach from where
    // the player is now is a miss, so the rope never starts longer than it may be.
    let hit = hit.filter(
        |hit| match anchor_for_hit(hit, scene.level, rope_radius_m) {
            Some((_, anchor)) => {
                let path = rope_path(geometry, [anchor, fired_from, player.pos], rope_radius_m);
                path_length_m(&path) <= max_len
            }
            None => anchor_in_reach(hit.point, player.pos, max_len),
        },
    );
    match hit {
        Some(hit) => match anchor_for_hit(&hit, scene.level, rope_radius_m) {
            Some((kind, at)) => {
                let path = rope_path(geometry, [at, fired_from, player.pos], rope_radius_m);
                let rope = lay_rope(geometry, &path, max_len, &scene.tuning.rope);
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

/// The path of the rope of a hook that took hold at `anchor`, `fired_from` where the player shot
/// it, the player now at `player_pos`: straight from the anchor to the player, unless that chord
/// passes through a solid (the player jumped or rode a platform past a block since firing). Then
/// it runs back along the hook's flight and on to the player, as the rope paid out.
fn rope_path(
    geometry: &Geometry,
    [anchor, fired_from, player_pos]: [Vec2; 3],
    radius_m: f32,
) -> Vec<Vec2> {
    if chord_is_clear(geometry, anchor, player_pos, radius_m) {
        vec![anchor, player_pos]
    } else {
        vec![anchor, fired_from, player_pos]
    }
}

/// A rope along `path` (from the anchor to the player), its axes out of the solids.
fn lay_rope(geometry: &Geometry, path: &[Vec2], max_len: f32, tuning: &RopeTuning) -> Rope {
    let mut rope = match *path {
        [anchor, player_pos] => Rope::new(anchor, player_pos, max_len, tuning),
        _ => Rope::laid_along(path, max_len, tuning),
    };
    rope.lay_axes_out_of_solids(geometry);
    rope
}

/// The length of a polyline, metres. A rope laid along a path longer than the rope may be
/// starts stretched: its first substep turns the whole stretch into its nodes' velocity
/// (under a metre of it is hundreds of m/s), which the rope then hands on to the player.
fn path_length_m(path: &[Vec2]) -> f32 {
    path.windows(2).map(|leg| leg[0].distance(leg[1])).sum()
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

#[cfg(test)]
mod tests {
    use super::super::hash::tests::test_world;
    use crate::event::{AttachKind, Event};
    use crate::hook::AimTarget;
    use crate::input::InputFrame;
    use crate::math::Vec2;

    /// The reticle and the throw read the same hit: with the player's centre inside the floor
    /// (a block swept onto them), the preview shows the floor's top face, and the hook fired
    /// with that aim takes hold a rope radius and a half above that very point. Before the
    /// preview went through `hit_on_surface` it showed the hook landing at the player's centre,
    /// half a metre inside the floor, where no hook ever holds.
    #[test]
    fn the_preview_shows_where_a_hook_fired_from_inside_a_solid_takes_hold() {
        let mut world = test_world("");
        world.player.pos = Vec2::new(0.0, -0.5);
        world.player.vel = Vec2::ZERO;
        let aim = Vec2::new(3.0, 4.0);
        let preview = world.preview_aim(aim);
        assert_eq!(preview.target, AimTarget::Hookable);
        let (aim_x, aim_y) = InputFrame::quantize_aim(aim);
        let events = world.step(&InputFrame {
            fire_pressed: true,
            aim_x,
            aim_y,
            ..Default::default()
        });
        let attached_at = events.iter().find_map(|event| match event {
            Event::HookAttached {
                kind: AttachKind::Surface,
                at,
            } => Some(*at),
            _ => None,
        });
        let attached_at = attached_at.expect("the hook takes hold on the tick it is fired");
        let anchor_off_surface_m = world.tuning().rope.radius_m * 1.5;
        let preview_to_anchor_m = preview.end.distance(attached_at);
        assert!(
            (preview_to_anchor_m - anchor_off_surface_m).abs() < 1e-4,
            "the preview shows the hook at {:?}, the anchor is at {attached_at:?} \
             ({preview_to_anchor_m} m apart, {anchor_off_surface_m} m expected)",
            preview.end
        );
        assert!(
            preview.end.y.abs() < 1e-4,
            "on the floor's top face: {:?}",
            preview.end
        );
    }
}
