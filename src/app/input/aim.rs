//! Aiming without a mouse: eight directions from the movement keys, the stick's direction,
//! and "the best target ahead" for a fire-at-target key. Pure: reads the world through its
//! public questions (`preview_aim`, the level's rings), so the reticle and the shot agree.

use crate::sim::hook::AimTarget;
use crate::sim::math::Vec2;
use crate::sim::World;

/// How far from the player the reticle sits for key and stick aiming (only the direction
/// matters to the shot; this is where the reticle is drawn from).
pub const AIM_REACH_M: f32 = 6.0;
/// Rings further behind the player than this (along its facing) are not "ahead".
const BEHIND_TOLERANCE_M: f32 = 0.5;
/// Rings further below the player than this are never the best target (a rope pulls up).
const BELOW_TOLERANCE_M: f32 = 0.5;
/// Surfaces are searched along a fan of directions from straight up to level, ahead.
const SURFACE_FAN_STEP_DEG: f32 = 5.0;
/// The surface direction most wanted: steep enough to swing, far enough ahead to travel.
const SURFACE_PREFERRED_DEG: f32 = 60.0;
/// The "stronger aim assist" assist: rings within this angle of the aim are snapped to (the
/// simulation's own assist is `tuning.hook.aim_assist_angle_deg`).
pub const STRONG_AIM_ASSIST_DEG: f32 = 25.0;

/// The aim for keys held toward `x` (-1, 0, +1: left, right) and `y` (down, up): eight
/// directions; with none held, up and ahead (the way the player faces).
pub fn key_aim_offset(x: i8, y: i8, facing: i8) -> Vec2 {
    let (x, y) = if x == 0 && y == 0 {
        (if facing < 0 { -1 } else { 1 }, 1)
    } else {
        (x.signum(), y.signum())
    };
    Vec2::new(x as f32, y as f32).normalize() * AIM_REACH_M
}

/// The aim along a stick's deflection (or up and ahead at rest).
pub fn stick_aim_offset(stick: Vec2, facing: i8) -> Vec2 {
    match stick.try_normalize() {
        Some(dir) => dir * AIM_REACH_M,
        None => key_aim_offset(0, 0, facing),
    }
}

/// The anchor the rope holds now, if it holds one.
fn current_anchor(world: &World) -> Option<Vec2> {
    world.rope().map(|rope| rope.anchor())
}

/// The best thing to fire at ahead of the player: the nearest ring ahead (not the one held)
/// that a shot would catch; else a hookable surface ahead, as near to 60° up as there is.
/// `None` when nothing ahead would hold.
pub fn best_target_offset(world: &World) -> Option<Vec2> {
    let pos = world.player().pos;
    let facing = if world.player().facing < 0 { -1.0 } else { 1.0 };
    let held = current_anchor(world);
    let mut best_ring: Option<(f32, Vec2)> = None;
    for (i, ring) in world.level().grapple_points.iter().enumerate() {
        let offset = ring.v() - pos;
        if offset.x * facing < -BEHIND_TOLERANCE_M || offset.y < -BELOW_TOLERANCE_M {
            continue;
        }
        if held.is_some_and(|a| a.distance(ring.v()) < 0.1) {
            continue;
        }
        let distance = offset.length();
        if best_ring.is_some_and(|(d, _)| d <= distance) {
            continue;
        }
        if world.preview_aim(offset).target == AimTarget::GrapplePoint(i) {
            best_ring = Some((distance, offset));
        }
    }
    if let Some((_, offset)) = best_ring {
        return Some(offset);
    }
    let mut best_surface: Option<(f32, Vec2)> = None;
    let steps = (90.0 / SURFACE_FAN_STEP_DEG) as i32;
    for step in 0..=steps {
        let deg = step as f32 * SURFACE_FAN_STEP_DEG;
        let rad = deg.to_radians();
        let offset = Vec2::new(facing * rad.cos(), rad.sin()) * AIM_REACH_M;
        let preview = world.preview_aim(offset);
        if preview.target != AimTarget::Hookable {
            continue;
        }
        if held.is_some_and(|a| a.distance(preview.end) < 0.5) {
            continue;
        }
        let miss = (deg - SURFACE_PREFERRED_DEG).abs();
        if best_surface.is_none_or(|(m, _)| miss < m) {
            best_surface = Some((miss, preview.end - pos));
        }
    }
    best_surface.map(|(_, offset)| offset)
}

/// The stronger aim assist: an aim within `STRONG_AIM_ASSIST_DEG` of a ring a shot would catch
/// is turned onto that ring (the closest in angle); otherwise it is left alone.
pub fn strongly_assisted(world: &World, offset: Vec2) -> Vec2 {
    let Some(dir) = offset.try_normalize() else {
        return offset;
    };
    let min_cos = STRONG_AIM_ASSIST_DEG.to_radians().cos();
    let pos = world.player().pos;
    let mut best: Option<(f32, Vec2)> = None;
    for (i, ring) in world.level().grapple_points.iter().enumerate() {
        let to_ring = ring.v() - pos;
        let Some(ring_dir) = to_ring.try_normalize() else {
            continue;
        };
        let cos = ring_dir.dot(dir);
        if cos < min_cos || best.is_some_and(|(c, _)| c >= cos) {
            continue;
        }
        if world.preview_aim(to_ring).target == AimTarget::GrapplePoint(i) {
            best = Some((cos, to_ring));
        }
    }
    best.map_or(offset, |(_, to_ring)| to_ring)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_key_directions_and_a_default() {
        let dir = |x, y, facing| key_aim_offset(x, y, facing).normalize();
        let d = std::f32::consts::FRAC_1_SQRT_2;
        assert!(dir(0, 0, 1).abs_diff_eq(Vec2::new(d, d), 1e-6));
        assert!(dir(0, 0, -1).abs_diff_eq(Vec2::new(-d, d), 1e-6));
        assert!(dir(0, 1, 1).abs_diff_eq(Vec2::new(0.0, 1.0), 1e-6));
        assert!(dir(1, 0, -1).abs_diff_eq(Vec2::new(1.0, 0.0), 1e-6));
        assert!(dir(-1, -1, 1).abs_diff_eq(Vec2::new(-d, -d), 1e-6));
        let mut seen: Vec<(i32, i32)> = Vec::new();
        for x in -1..=1 {
            for y in -1..=1 {
                let v = key_aim_offset(x, y, 1);
                assert!((v.length() - AIM_REACH_M).abs() < 1e-4);
                let k = ((v.x * 100.0) as i32, (v.y * 100.0) as i32);
                if !seen.contains(&k) {
                    seen.push(k);
                }
            }
        }
        // (0, 0) repeats up-and-ahead: eight directions.
        assert_eq!(seen.len(), 8);
    }
}
