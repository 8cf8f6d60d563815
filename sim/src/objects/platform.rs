//! Moving platforms: solids that follow a path of waypoints (looping or back and forth, with
//! optional pauses) or turn about a pivot. Their motion is a pure function of time, so a
//! platform has no state to save or hash, the editor can show it at any moment, and the drawing
//! interpolates it exactly.
//!
//! The player standing on one is carried, one moving into the player pushes them, and one that
//! pushes the player into another solid crushes them (world.rs). The hook holds on one, the rope
//! anchored in the platform's frame.

use serde::{Deserialize, Serialize};

use super::checks::MAX_COORD_M;
use super::{shape_spec, BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::{Body, ColliderKind};
use crate::math::{rotation_from_deg, Pose, Vec2};
use crate::shape::{ShapeDef, P};

/// Most moving platforms a level may hold.
pub const MAX_PLATFORMS: usize = 200;
/// Most waypoints of one path.
pub const MAX_WAYPOINTS: usize = 64;
/// Fastest a platform may move (at any point of it, for a turning one). At 60 ticks/s this is
/// 0.2 m a tick: less than the player's half width, so a push never pops the player through.
pub const MAX_PLATFORM_SPEED_M_PER_S: f32 = 12.0;
/// Longest pause at a waypoint.
pub const MAX_PAUSE_S: f32 = 60.0;
/// Farthest a waypoint or pivot may be from the platform as written: further is a typo.
pub const MAX_TRAVEL_M: f32 = 500.0;

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlatformDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The shape where the platform is at time 0.
    pub shape: ShapeDef,
    #[serde(default = "yes")]
    pub hookable: bool,
    pub motion: MotionDef,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MotionDef {
    /// Moves through `points` at `speed_m_per_s`: the platform is drawn where it is at the
    /// first point, and goes through the others by the same offsets. After the last point it
    /// goes straight back to the first (a loop), or retraces the path (`ping_pong: true`).
    /// It waits `pause_s` at each point.
    Path {
        points: Vec<P>,
        speed_m_per_s: f32,
        #[serde(default)]
        ping_pong: bool,
        #[serde(default)]
        pause_s: f32,
    },
    /// Turns about `pivot` at `deg_per_s` (counter-clockwise when positive).
    Rotate { pivot: P, deg_per_s: f32 },
}

impl PlatformDef {
    /// The platform's pose at `time_s`: the map from where it is written to where it is.
    pub fn pose_at(&self, time_s: f64) -> Pose {
        match &self.motion {
            MotionDef::Path {
                points,
                speed_m_per_s,
                ping_pong,
                pause_s,
            } => {
                let offset = path_point(points, *speed_m_per_s, *ping_pong, *pause_s, time_s)
                    - points[0].v();
                Pose::from_translation(offset)
            }
            MotionDef::Rotate { pivot, deg_per_s } => {
                let turns_deg = (*deg_per_s as f64 * time_s) % 360.0;
                let pivot = pivot.v();
                let rotation = rotation_from_deg(turns_deg as f32);
                Pose::from_translation(pivot)
                    * Pose::from_parts(Vec2::ZERO, rotation)
                    * Pose::from_translation(-pivot)
            }
        }
    }

    /// The shape's farthest reach from `point`, a bound for turning speeds.
    fn reach_from(&self, point: Vec2) -> f32 {
        match &self.shape {
            ShapeDef::Box {
                center,
                half_extents,
                ..
            } => center.v().distance(point) + half_extents.v().length(),
            ShapeDef::Circle { center, radius } => center.v().distance(point) + radius,
            ShapeDef::Polygon { points } => points
                .iter()
                .map(|p| p.v().distance(point))
                .fold(0.0, f32::max),
        }
    }

    /// The middle of the shape as written (a polygon's vertex mean): what a path moves.
    pub fn written_center(&self) -> Vec2 {
        match &self.shape {
            ShapeDef::Box { center, .. } | ShapeDef::Circle { center, .. } => center.v(),
            ShapeDef::Polygon { points } => {
                points.iter().map(|p| p.v()).sum::<Vec2>() / points.len().max(1) as f32
            }
        }
    }
}

/// Where a path's moving point is at `time_s` (validated path: ≥ 2 points, no zero leg).
fn path_point(
    points: &[P],
    speed_m_per_s: f32,
    ping_pong: bool,
    pause_s: f32,
    time_s: f64,
) -> Vec2 {
    // The legs in travel order: forward, then back (ping-pong) or home (loop).
    let n = points.len();
    let stops: Vec<usize> = if ping_pong {
        (0..n).chain((0..n - 1).rev()).collect()
    } else {
        (0..n).chain(std::iter::once(0)).collect()
    };
    let speed = speed_m_per_s as f64;
    let pause = pause_s as f64;
    let leg_s = |a: usize, b: usize| points[a].v().distance(points[b].v()) as f64 / speed + pause;
    let cycle_s: f64 = stops.windows(2).map(|w| leg_s(w[0], w[1])).sum();
    let mut t = if cycle_s > 0.0 { time_s % cycle_s } else { 0.0 };
    for w in stops.windows(2) {
        let (a, b) = (points[w[0]].v(), points[w[1]].v());
        let travel_s = a.distance(b) as f64 / speed;
        // Each leg waits at its start, then travels.
        if t < pause {
            return a;
        }
        t -= pause;
        if t < travel_s {
            return a.lerp(b, (t / travel_s) as f32);
        }
        t -= travel_s;
    }
    points[0].v()
}

impl ObjectDef for PlatformDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        if !issues.shape(object, &self.shape) {
            return;
        }
        let center = self.written_center();
        match &self.motion {
            MotionDef::Path {
                points,
                speed_m_per_s,
                pause_s,
                ..
            } => {
                if !check_path(object, points, center, issues) {
                    return;
                }
                issues.in_range(
                    object,
                    "speed_m_per_s",
                    *speed_m_per_s,
                    0.01,
                    MAX_PLATFORM_SPEED_M_PER_S,
                );
                issues.in_range(object, "pause_s", *pause_s, 0.0, MAX_PAUSE_S);
            }
            MotionDef::Rotate { pivot, deg_per_s } => {
                self.check_rotation(object, *pivot, *deg_per_s, center, issues)
            }
        }
    }

    fn colliders(
        &self,
        index: usize,
        _context: &BuildContext,
        out: &mut Vec<ColliderSpec>,
    ) -> Result<(), RejectedShape> {
        let kind = ColliderKind::Solid {
            hookable: self.hookable,
        };
        out.push(shape_spec(&self.shape, kind, Body::Platform(index as u16))?);
        Ok(())
    }
}

/// A path's waypoints: 2 to `MAX_WAYPOINTS`, each within reach of the first and inside the
/// level's limits, no two in a row the same. False when there are too few or too many to look
/// further.
fn check_path(object: &str, points: &[P], center: Vec2, issues: &mut Issues) -> bool {
    if points.len() < 2 || points.len() > MAX_WAYPOINTS {
        issues.add(
            object,
            format!(
                "a path needs 2 to {MAX_WAYPOINTS} points, got {}",
                points.len()
            ),
        );
        return false;
    }
    let mut ok = true;
    for (j, p) in points.iter().enumerate() {
        let name = format!("{object}.points[{j}]");
        if issues.point(&name, *p) {
            let offset = p.v() - points[0].v();
            if offset.length() > MAX_TRAVEL_M {
                issues.add(
                    &name,
                    format!(
                        "is {:.0} m from the first point, more than {MAX_TRAVEL_M} m",
                        offset.length()
                    ),
                );
                ok = false;
            } else if (center + offset).abs().max_element() > MAX_COORD_M {
                issues.add(&name, "takes the platform outside the level's limits");
                ok = false;
            }
        } else {
            ok = false;
        }
    }
    if ok {
        for j in 0..points.len() {
            let k = (j + 1) % points.len();
            if points[j].v().distance(points[k].v()) < 1e-3 {
                issues.add(
                    object,
                    format!(
                        "points {j} and {k} are the same point: a path needs distinct waypoints"
                    ),
                );
                break;
            }
        }
    }
    true
}

impl PlatformDef {
    /// A turning platform: its pivot near it, a non-zero speed, and its far edge not too fast.
    fn check_rotation(
        &self,
        object: &str,
        pivot: P,
        deg_per_s: f32,
        center: Vec2,
        issues: &mut Issues,
    ) {
        if !issues.point(&format!("{object}.pivot"), pivot) {
            return;
        }
        let reach_m = self.reach_from(pivot.v());
        if pivot.v().distance(center) > MAX_TRAVEL_M {
            issues.add(
                &format!("{object}.pivot"),
                format!("is more than {MAX_TRAVEL_M} m from the platform"),
            );
            return;
        }
        if !deg_per_s.is_finite() || deg_per_s == 0.0 {
            issues.add(
                object,
                format!("deg_per_s must be a non-zero number, got {deg_per_s}"),
            );
            return;
        }
        let tip_speed = deg_per_s.abs().to_radians() * reach_m;
        if tip_speed > MAX_PLATFORM_SPEED_M_PER_S {
            issues.add(
                object,
                format!(
                    "turns its far edge at {tip_speed:.1} m/s, more than {MAX_PLATFORM_SPEED_M_PER_S} m/s: turn slower or move the pivot closer"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(ping_pong: bool, pause_s: f32) -> PlatformDef {
        PlatformDef {
            id: None,
            shape: ShapeDef::Box {
                center: P(0.0, 0.0),
                half_extents: P(1.0, 0.25),
                rotation_deg: 0.0,
            },
            hookable: true,
            motion: MotionDef::Path {
                points: vec![P(0.0, 0.0), P(4.0, 0.0), P(4.0, 2.0)],
                speed_m_per_s: 2.0,
                ping_pong,
                pause_s,
            },
        }
    }

    fn offset(p: &PlatformDef, t: f64) -> Vec2 {
        p.pose_at(t).translation
    }

    #[test]
    fn a_path_goes_through_its_points_at_its_speed() {
        let p = path(false, 0.0);
        assert!(offset(&p, 0.0).distance(Vec2::ZERO) < 1e-5);
        assert!(offset(&p, 1.0).distance(Vec2::new(2.0, 0.0)) < 1e-5);
        assert!(offset(&p, 2.5).distance(Vec2::new(4.0, 1.0)) < 1e-5);
        // Home leg: from (4, 2) to (0, 0), √20 m long; the cycle is 6 + √20 m at 2 m/s.
        let cycle = (6.0 + 20f64.sqrt()) / 2.0;
        assert!(offset(&p, cycle).distance(Vec2::ZERO) < 1e-4);
        assert!(offset(&p, cycle + 1.0).distance(Vec2::new(2.0, 0.0)) < 1e-4);
    }

    #[test]
    fn ping_pong_retraces_and_pauses_wait_at_each_point() {
        let p = path(true, 0.5);
        // Waits 0.5 s at the start, then 2 s to (4, 0).
        assert!(offset(&p, 0.4).distance(Vec2::ZERO) < 1e-5);
        assert!(offset(&p, 2.5).distance(Vec2::new(4.0, 0.0)) < 1e-5);
        assert!(offset(&p, 2.9).distance(Vec2::new(4.0, 0.0)) < 1e-5);
        // Up to (4, 2) by 4.0 s, waits until 4.5 s, then back down the same way at 2 m/s.
        assert!(offset(&p, 4.2).distance(Vec2::new(4.0, 2.0)) < 1e-5);
        assert!(offset(&p, 4.75).distance(Vec2::new(4.0, 1.5)) < 1e-5);
        assert!(offset(&p, 5.0).distance(Vec2::new(4.0, 1.0)) < 1e-5);
    }

    #[test]
    fn a_turning_platform_keeps_its_pivot_still() {
        let p = PlatformDef {
            motion: MotionDef::Rotate {
                pivot: P(3.0, 0.0),
                deg_per_s: 90.0,
            },
            ..path(false, 0.0)
        };
        let pose = p.pose_at(1.0);
        assert!((pose * Vec2::new(3.0, 0.0)).distance(Vec2::new(3.0, 0.0)) < 1e-5);
        // The written centre (0, 0) is 3 m left of the pivot; a quarter turn later, 3 m below.
        assert!((pose * Vec2::ZERO).distance(Vec2::new(3.0, -3.0)) < 1e-5);
    }
}
