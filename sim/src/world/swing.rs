//! The player's movement each tick: running and jumping on their own, or swinging on the rope
//! (reeling, pumping, and the rope's solve deciding where the player may go).

use crate::event::Event;
use crate::geometry::{Body, Geometry};
use crate::hook::{anchor_clear_of_solids, rope_pinched_against_fixed_face, Hook};
use crate::input::InputFrame;
use crate::math::Vec2;
use crate::objects::vine;
use crate::objects::winch::WinchState;
use crate::player::Player;
use crate::rope::{NodeEnergy, Rope, REEL_RATED_ACCEL_M_PER_S2};
use crate::tuning::{RopeTuning, Tuning, TICK_DT_S};
use crate::world::energy::EnergyMeter;
use crate::world::hooking::let_go;
use crate::world::parts::{Scene, TickLog};
use crate::world::vines::held_vine;

/// How much longer than its rest the player's segment must lie, after the level stopped the
/// player, for the rope to hold them (`hold_to_rope_stretched_by_the_level`): a millimetre, above
/// a taut rope's own stretch in a step.
const STRETCHED_BY_THE_LEVEL_M: f32 = 0.001;

/// How much longer than its length a rope may be pulled before reeling in stalls.
const REEL_STALL_STRETCH_M: f32 = 0.05;

/// How short and long the rope may be reeled, and how fast.
struct ReelLimits {
    min_m: f32,
    max_m: f32,
    speed_m_per_s: f32,
}

/// Running and jumping on their own, or swinging on the rope: reeling, pumping, and the rope's
/// substeps deciding where the player may go.
pub(super) fn move_player(
    input: &InputFrame,
    scene: Scene,
    geometry: &Geometry,
    winches: &[WinchState],
    player: &mut Player,
    hook: &mut Hook,
    log: &mut TickLog,
) {
    let tuning = scene.tuning;
    let limits = reel_limits(scene, hook);
    let anchor_to = anchor_this_tick(scene, geometry, winches, player, hook, &mut log.events);
    let wind = scene.wind_now();
    let air_at = |p: Vec2| wind.as_ref().map_or(Vec2::ZERO, |w| w.air_velocity(p));
    let air = air_at(player.pos);
    let drag = tuning.rope.wind_drag_n_s2_per_m3;
    let (events, meter) = (&mut log.events, &mut log.meter);
    let (
        Hook::Attached {
            rope,
            wheel_queue_m,
            ..
        },
        Some(anchor_to),
    ) = (hook, anchor_to)
    else {
        run_with_gravity(player, input, tuning, air, meter);
        let free_velocity = player.vel;
        let desired = player.vel * TICK_DT_S;
        let collided = player.move_and_collide(desired, geometry, &tuning.player, events);
        meter.moved_without_rope(player, free_velocity, collided.hand_on, TICK_DT_S);
        return;
    };
    let length_before_m = rope.length_m;
    reel(
        rope,
        wheel_queue_m,
        input,
        &tuning.rope,
        &limits,
        player.pos,
    );
    meter.reeled(length_before_m - rope.length_m);
    let gravity = scene.gravity();
    if player.grounded {
        // On the ground with a rope: walk as usual; the rope only limits how far.
        run_with_gravity(player, input, tuning, air, meter);
    } else {
        swing_with_gravity(player, input, tuning, gravity, air, meter);
    }
    let free_velocity = player.vel;
    rope.weigh_end_as_player(&tuning.rope);
    let anchor_before = rope.anchor();
    let rope_before = blow_on_rope(rope, wind.is_some().then_some(air_at), drag, gravity, meter);
    let (target, vel) = rope.step_with_anchor(
        geometry,
        &tuning.rope,
        gravity,
        anchor_to,
        player.pos,
        player.vel,
        TICK_DT_S,
    );
    player.vel = vel;
    let collided = player.move_and_collide(target - player.pos, geometry, &tuning.player, events);
    rope.set_player(player.pos);
    let anchor_moved = rope.anchor() != anchor_before;
    hold_to_rope_stretched_by_the_level(player, rope, &collided.stopped_by, anchor_moved);
    meter.moved(player, free_velocity, collided.hand_on, TICK_DT_S);
    let rope_after = rope.node_energies(gravity);
    meter.rope_stepped(&rope_before, &rope_after, rope.last_step_credits());
}

/// A rope stretched longer than its rest at the player's end once the level stopped the player
/// short of where the rope's step put them (`Collided::stopped_by`) holds the player as well as
/// the level does: the player keeps only velocity that neither lengthens the rope nor goes into
/// what stopped them. The level alone takes out only the part into its surface, and the rope's
/// pull, spent against a wall, had left the rest: a player caught over a corner kept falling
/// down the wall beside it at 25 m/s, the rope's nodes stretching 23 % over the corner and
/// whipping at 295 m/s (24 Eye of the Storm, issue 32). Only where the rope and the surfaces
/// stand still: a moving anchor or solid moves the limits with it, and a lift pushing a player
/// against a rope hooked in the floor is `Rope::reel_in_within_rating`'s slip. Not on the
/// ground, where running sets the velocity and a rope held by the floor stalls the reel.
fn hold_to_rope_stretched_by_the_level(
    player: &mut Player,
    rope: &Rope,
    stopped_by: &[Option<(Vec2, Body)>; 2],
    anchor_moved: bool,
) {
    let stopped = stopped_by.iter().flatten();
    if player.grounded
        || stopped.clone().next().is_none()
        || anchor_moved
        || stopped.clone().any(|&(_, body)| body != Body::Fixed)
    {
        return;
    }
    let last = rope.segment_count();
    let along = rope.nodes[last - 1] - player.pos;
    let lying_m = along.length();
    if lying_m - rope.last_segment_rest_m() <= STRETCHED_BY_THE_LEVEL_M {
        return;
    }
    let toward_rope = along / lying_m;
    let limits = [
        Some(toward_rope),
        stopped_by[0].map(|s| s.0),
        stopped_by[1].map(|s| s.0),
    ];
    player.vel = nearest_velocity_within(player.vel, limits.iter().flatten().copied());
}

/// The velocity nearest `vel` that goes into none of the half-planes' walls (each `normal`
/// points into its free side): `vel` itself, its projection onto one wall, or onto an edge of
/// their common cone, whichever is nearest and allowed; zero when none is. Never faster than
/// `vel`.
fn nearest_velocity_within(vel: Vec2, normals: impl Iterator<Item = Vec2> + Clone) -> Vec2 {
    let allowed = |v: Vec2| normals.clone().all(|n| v.dot(n) >= -1e-5);
    if allowed(vel) {
        return vel;
    }
    let mut best = Vec2::ZERO;
    let mut best_gap_sq = vel.length_squared();
    for n in normals.clone() {
        let onto_wall = vel - n * vel.dot(n);
        let edge = Vec2::new(-n.y, n.x);
        let along_edge = [edge, -edge].map(|e| e * vel.dot(e).max(0.0));
        for candidate in [onto_wall, along_edge[0], along_edge[1]] {
            let gap_sq = (candidate - vel).length_squared();
            if gap_sq < best_gap_sq && allowed(candidate) {
                best = candidate;
                best_gap_sq = gap_sq;
            }
        }
    }
    best
}

/// Where the attached hook's rope is anchored this tick (`anchor_clear_of_solids`); `None` when
/// there is no rope, or when a moving solid came up to the face the hook held, or closed on a
/// fixed face with the rope between (`rope_pinched_against_fixed_face`), and knocked it off (the
/// hook is let go here).
fn anchor_this_tick(
    scene: Scene,
    geometry: &Geometry,
    winches: &[WinchState],
    player: &mut Player,
    hook: &mut Hook,
    events: &mut Vec<Event>,
) -> Option<Vec2> {
    let Hook::Attached {
        rope,
        body,
        kind,
        anchor_in_body,
        ..
    } = &*hook
    else {
        return None;
    };
    let radius_m = scene.tuning.rope.radius_m;
    let anchor_to = anchor_clear_of_solids(
        geometry,
        (*body, *kind),
        scene.body_pose(winches, *body) * *anchor_in_body,
        radius_m,
    )
    .filter(|_| !rope_pinched_against_fixed_face(geometry, &rope.nodes, radius_m));
    if anchor_to.is_none() {
        let_go(hook, player);
        events.push(Event::Released);
    }
    anchor_to
}

/// The wind's drag on the rope before its step (on a level with wind, `air_at`), its change of
/// the rope's energy credited; returns the rope's node energies the step starts from.
fn blow_on_rope(
    rope: &mut Rope,
    air_at: Option<impl Fn(Vec2) -> Vec2>,
    drag_n_s2_per_m3: f32,
    gravity: Vec2,
    meter: &mut EnergyMeter,
) -> Vec<NodeEnergy> {
    let calm = rope.node_energies(gravity);
    let Some(air_at) = air_at else {
        return calm;
    };
    rope.apply_air_drag(air_at, drag_n_s2_per_m3, TICK_DT_S, true);
    let blown = rope.node_energies(gravity);
    meter.rope_blown(&calm, &blown);
    blown
}

/// The reel's limits now. On a vine, reeling is climbing: slower, and the rope's limits are
/// the vine's.
fn reel_limits(scene: Scene, hook: &Hook) -> ReelLimits {
    match held_vine(hook) {
        Some(i) => {
            let vine_m = scene.level.vines.get(i).map_or(0.0, |v| v.length_m);
            ReelLimits {
                min_m: vine::MIN_HOLD_M,
                max_m: (vine_m - vine::MIN_BELOW_M).max(vine::MIN_HOLD_M),
                speed_m_per_s: vine::CLIMB_SPEED_M_PER_S,
            }
        }
        None => ReelLimits {
            min_m: scene.tuning.rope.min_length_m,
            max_m: scene.max_rope_length_m(),
            speed_m_per_s: scene.tuning.rope.reel_speed_m_per_s,
        },
    }
}

/// In the air on the rope: gravity and pumping, then the wind; momentum is kept (no air drag
/// toward zero).
fn swing_with_gravity(
    player: &mut Player,
    input: &InputFrame,
    tuning: &Tuning,
    gravity: Vec2,
    air: Vec2,
    meter: &mut EnergyMeter,
) {
    let before = player.vel;
    if input.move_x != 0 {
        player.facing = input.move_x.signum();
    }
    let pump = Vec2::new(
        input.move_x.signum() as f32 * tuning.rope.pump_accel_m_per_s2,
        0.0,
    );
    player.vel += (gravity + pump) * TICK_DT_S;
    let calm = player.vel;
    player.apply_wind_while_swinging(air, &tuning.player);
    meter.velocity_stage(player, before, player.vel - calm);
}

/// Running (or standing) and gravity, with the wind's share of the change told apart for the
/// energy account: the same step without the air, on a copy.
fn run_with_gravity(
    player: &mut Player,
    input: &InputFrame,
    tuning: &Tuning,
    air: Vec2,
    meter: &mut EnergyMeter,
) {
    let before = player.vel;
    let mut calm = player.clone();
    calm.apply_run_and_gravity(input, &tuning.player, Vec2::ZERO);
    player.apply_run_and_gravity(input, &tuning.player, air);
    meter.velocity_stage(player, before, player.vel - calm.vel);
}

/// One tick of the reel: the held reel input and the mouse wheel's queued notches (at most one
/// tick's reel travel of them), within `limits`; the player at `player_pos`, where a moving
/// solid carried them.
fn reel(
    rope: &mut Rope,
    wheel_queue_m: &mut f32,
    input: &InputFrame,
    tuning: &RopeTuning,
    limits: &ReelLimits,
    player_pos: Vec2,
) {
    let reel_step_m = limits.speed_m_per_s * TICK_DT_S;
    *wheel_queue_m = (*wheel_queue_m + input.wheel_notches as f32 * tuning.wheel_reel_step_m)
        .clamp(-limits.max_m, limits.max_m);
    let wheel_m = wheel_queue_m.clamp(-reel_step_m, reel_step_m);
    *wheel_queue_m -= wheel_m;
    let reel_m = (input.reel as f32 * reel_step_m + wheel_m).clamp(-reel_step_m, reel_step_m);
    // A rope already pulled longer than its length (the player held back by the level, the
    // rope wrapped tight round a corner) stalls the reel, as a winch stalls: reeling on only
    // stored tension the solve then spent at once, flinging the player at 80 m/s.
    // So does a rope whose tension at the player has stayed over the reel's rated force; and
    // a reel not reeling in slips under such a pull (`Rope::reel_in_within_rating`).
    let measured_m = rope.measured_length_m();
    let overstretched = measured_m > rope.length_m + REEL_STALL_STRETCH_M;
    let rated_force_n = REEL_RATED_ACCEL_M_PER_S2 * tuning.player_mass_kg;
    let reel_m = rope.reel_in_within_rating(
        reel_m,
        rated_force_n,
        overstretched,
        measured_m,
        player_pos,
        reel_step_m,
    );
    let before_m = rope.length_m;
    // A rope longer than the limit (a vine caught low: the piece above the hand, as long as
    // its nodes lie, beyond the climb's reach) comes in at the reel's speed, not in one tick:
    // clamped at once, 12 Vines' 0.44 m in a tick was a 53 m/s reel that flung the player.
    let max_now_m = limits.max_m.max(before_m - reel_step_m);
    rope.set_length(rope.length_m - reel_m, limits.min_m, max_now_m);
    if rope.length_m == before_m {
        // At a limit: what the wheel asked for cannot be reeled.
        *wheel_queue_m = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::nearest_velocity_within;
    use crate::math::Vec2;

    fn allowed(v: Vec2, normals: &[Vec2]) -> bool {
        normals.iter().all(|n| v.dot(*n) >= -1e-4)
    }

    #[test]
    fn a_velocity_the_limits_allow_is_kept() {
        let normals = [Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)];
        let vel = Vec2::new(2.0, 3.0);
        assert_eq!(nearest_velocity_within(vel, normals.into_iter()), vel);
    }

    #[test]
    fn one_limit_takes_out_only_the_part_into_it() {
        let vel = Vec2::new(3.0, -4.0);
        let out = nearest_velocity_within(vel, [Vec2::new(0.0, 1.0)].into_iter());
        assert_eq!(out, Vec2::new(3.0, 0.0));
    }

    /// 24 Eye of the Storm's catch (issue 32): falling down a wall on its left, the rope
    /// running up-left over the corner above; neither lets the player fall, so the player stops
    /// (the wall alone had left the whole fall).
    #[test]
    fn a_fall_down_a_wall_against_a_rope_over_its_corner_stops() {
        let toward_rope = Vec2::new(-0.88, 0.47).normalize();
        let wall = Vec2::new(1.0, 0.0);
        let out = nearest_velocity_within(Vec2::new(0.0, -25.6), [toward_rope, wall].into_iter());
        assert!(out.length() < 1e-4, "{out:?}");
    }

    /// The rope up-left and the wall on the left leave the player free to rise along the wall.
    #[test]
    fn a_rise_along_the_wall_toward_the_rope_is_kept() {
        let toward_rope = Vec2::new(-0.88, 0.47).normalize();
        let wall = Vec2::new(1.0, 0.0);
        let out = nearest_velocity_within(Vec2::new(-3.0, 5.0), [toward_rope, wall].into_iter());
        assert!((out - Vec2::new(0.0, 5.0)).length() < 1e-4, "{out:?}");
    }

    /// Over a fan of velocities and limits the result is allowed, never faster than what came
    /// in, and no allowed candidate on the way is nearer.
    #[test]
    fn the_result_is_allowed_and_never_faster() {
        for a in 0..24 {
            for b in 0..24 {
                for s in 0..12 {
                    let angle = |k: i32, n: i32| std::f32::consts::TAU * k as f32 / n as f32;
                    let n1 = Vec2::new(libm::cosf(angle(a, 24)), libm::sinf(angle(a, 24)));
                    let n2 = Vec2::new(libm::cosf(angle(b, 24)), libm::sinf(angle(b, 24)));
                    let vel = Vec2::new(libm::cosf(angle(s, 12)), libm::sinf(angle(s, 12))) * 7.0;
                    let normals = [n1, n2];
                    let out = nearest_velocity_within(vel, normals.into_iter());
                    assert!(allowed(out, &normals), "{vel:?} {normals:?} → {out:?}");
                    assert!(out.length() <= vel.length() + 1e-4, "{vel:?} → {out:?}");
                    let onto_each = normals.map(|n| vel - n * vel.dot(n).min(0.0));
                    for candidate in onto_each.into_iter().filter(|c| allowed(*c, &normals)) {
                        assert!(
                            (out - vel).length() <= (candidate - vel).length() + 1e-4,
                            "{vel:?} {normals:?} → {out:?}, nearer {candidate:?}"
                        );
                    }
                }
            }
        }
    }
}
