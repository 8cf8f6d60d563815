//! The hook: aiming (with aim assist toward grapple points), its swept flight, and what it hits.

use rapier2d::parry::bounding_volume::Aabb;
use rapier2d::parry::shape::Ball;

use super::event::AttachKind;
use super::geometry::{groups, Body, ColliderKind, Geometry, RayHit};
use super::level::LevelDef;
use super::math::{Pose, Vec2};
use super::rope::Rope;
use super::tuning::HookTuning;

/// What the hook is doing.
// One hook per world: the rope's size inline costs nothing, and boxing it would add a
// pointer chase to every rope step.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Hook {
    Idle,
    /// Flying out from where it was fired, along `dir`.
    Flying {
        pos: Vec2,
        dir: Vec2,
        traveled_m: f32,
    },
    /// Flying back to the player after a miss or a bounce.
    Retracting {
        pos: Vec2,
    },
    Attached {
        rope: Rope,
        kind: AttachKind,
        /// What the rope is anchored to; the anchor moves with it.
        body: Body,
        /// The anchor in the body's frame.
        anchor_in_body: Vec2,
        /// Rope the mouse wheel asked for and not yet reeled (+ in): a notch is reeled at the
        /// reel speed over a few ticks, not in one tick (a 0.5 m jump is a 30 m/s yank).
        wheel_queue_m: f32,
    },
}

impl Hook {
    /// A rope anchored at a fixed point of the level.
    pub fn attached_fixed(rope: Rope, kind: AttachKind) -> Hook {
        let anchor_in_body = rope.anchor();
        Hook::Attached {
            rope,
            kind,
            body: Body::Fixed,
            anchor_in_body,
            wheel_queue_m: 0.0,
        }
    }
}

/// What the hook would hit if fired now with a given aim. The reticle draws this, and firing
/// uses the same answer, so the reticle never lies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AimPreview {
    /// Unit direction the hook would fly in (after aim assist).
    pub dir: Vec2,
    /// Where the hook would stop: the hit point, or the end of its range.
    pub end: Vec2,
    pub target: AimTarget,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AimTarget {
    /// A grapple point in range (index into the level's list).
    GrapplePoint(usize),
    /// A hookable surface in range.
    Hookable,
    /// A surface in range that the hook bounces off.
    NotHookable,
    /// Nothing within the rope's range.
    OutOfRange,
}

impl AimTarget {
    pub fn attaches(self) -> bool {
        matches!(self, AimTarget::GrapplePoint(_) | AimTarget::Hookable)
    }
}

/// Where a rope would be anchored for a hook that hit `hit`, or `None` if the hook bounces off
/// what it hit: a grapple point's centre, or just outside a hookable surface (a rope radius and
/// a half out along its normal, so the rope starts clear of it).
pub fn anchor_for_hit(
    hit: &RayHit,
    level: &LevelDef,
    rope_radius_m: f32,
) -> Option<(AttachKind, Vec2)> {
    match hit.tag.kind {
        ColliderKind::GrapplePoint => {
            let center = match hit.tag.body {
                // A cracked ring is one of the level's fragile anchors.
                Body::Fragile(_) => level.fragile.get(hit.tag.index)?.ring_center()?,
                _ => level.grapple_points.get(hit.tag.index)?.v(),
            };
            Some((AttachKind::GrapplePoint, center))
        }
        ColliderKind::Solid { hookable: true } => Some((
            AttachKind::Surface,
            hit.point + hit.normal * rope_radius_m * 1.5,
        )),
        _ => None,
    }
}

/// `hit` on the surface of the solid it hit. A ray that starts inside a solid hits it where it
/// starts, with no normal: a moving block swept onto the flying hook this tick (13 Shuttle
/// Hooks, the shuttle's face 1.5 cm past the hook), and the anchor, a radius and a half along
/// that missing normal, was the hook's place inside the block. Such a hit is moved to the
/// nearest face of the solid around it (the way out of a probe ball `probe_radius_m` across),
/// with that face's outward normal, as if the hook had struck that face. The aim preview and
/// the flight both take their hits through here, so the reticle shows where the hook holds.
pub fn hit_on_surface(geometry: &Geometry, hit: RayHit, probe_radius_m: f32) -> RayHit {
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

/// Where the rope is anchored this tick, the hook's place on its body at `carried_to`, kept
/// out of the solids: `None` when a moving solid has knocked the hook off the level's face it
/// held. The anchor sits a radius and a half off the face the hook struck, and it never moves
/// in the rope's collisions, so whatever comes closer to that face than the anchor has the
/// rope's first segment inside it:
/// - a body carrying the hook up to a fixed solid (10 Rope Lift's platform swung 7 cm from the
///   steel wall): the anchor is moved just outside the fixed solid (`anchor_out_of_fixed_solids`);
/// - a moving solid coming up to the fixed face the hook struck (14 Drawbridge's bridge swung
///   to the start floor's wall, 9 cm from the anchor): the anchor is squeezed toward the face
///   (`anchor_squeezed_off_moving_solids`), and let go when no room for the rope is left.
///
/// Either way the hook keeps its place on its body; the rope's end is squeezed into the gap, as
/// a rope on a face would be by a solid pressed up to it. Moving solids over an anchor on a
/// moving body are left alone: 11 Moving Anchor's solution has the winch's bob swing through
/// the anchor under the drifting beam (25 cm deep), and the rope's end jumping round the bob
/// reached the goal 6 ticks later; docs/rope.md has it.
pub fn anchor_clear_of_solids(
    geometry: &Geometry,
    (body, kind): (Body, AttachKind),
    carried_to: Vec2,
    rope_radius_m: f32,
) -> Option<Vec2> {
    let anchor = anchor_out_of_fixed_solids(geometry, carried_to);
    if body != Body::Fixed || kind != AttachKind::Surface {
        return Some(anchor);
    }
    anchor_squeezed_off_moving_solids(geometry, anchor, rope_radius_m)
}

/// The anchor just outside the level's fixed solids, if a body carried it into one.
fn anchor_out_of_fixed_solids(geometry: &Geometry, carried_to: Vec2) -> Vec2 {
    let probe = Ball::new(ANCHOR_CLEARANCE_M);
    match geometry.deepest_fixed_solid_overlap(&Pose::from_translation(carried_to), &probe) {
        // The probe's depth is the anchor's own plus the probe's radius.
        Some((out, depth_m)) if depth_m > 2.0 * ANCHOR_CLEARANCE_M => carried_to + out * depth_m,
        _ => carried_to,
    }
}

/// An anchor on a fixed face with a moving solid (a platform or a winch's load) between it and
/// the face, or over both: moved along the face's normal toward the face, to
/// `ANCHOR_CLEARANCE_M` outside the moving solid; `None` when the gap left between the face and
/// the solid is narrower than the rope's radius (the solid knocked the hook off). Squeezed into
/// a narrower gap, the rope round the anchor was crushed between the two: squeezed into 5 cm,
/// a rope wrapped round the face's corner ended a tick 5.9 mm inside it and the player hanging
/// from it was kicked from 3 to 16 m/s (docs/rope.md, stop 46). Only along the normal: moved out
/// of the moving solid its own way, the anchor rode up the face with the solid and the solid
/// dragged the rope into the wall (stop 45). Fragile anchors never move, so they are left out.
fn anchor_squeezed_off_moving_solids(
    geometry: &Geometry,
    anchor: Vec2,
    rope_radius_m: f32,
) -> Option<Vec2> {
    let near = Aabb::from_half_extents(anchor, Vec2::splat(ANCHOR_CLEARANCE_M));
    if !geometry.any_moving_near(near, groups::SOLID) {
        return Some(anchor);
    }
    let Some(FixedFaceNear {
        face,
        normal,
        off_face_m,
    }) = fixed_face_near(geometry, anchor, rope_radius_m)
    else {
        // Not on a face (a grapple point in the open): nothing to squeeze toward.
        return Some(anchor);
    };
    let reach = normal * (off_face_m + ANCHOR_CLEARANCE_M);
    let gap_m = match geometry.cast_ray_on_moving(face, reach, groups::SOLID) {
        Some(hit) if !matches!(hit.tag.body, Body::Fragile(_)) => hit.distance_m,
        _ => return Some(anchor),
    };
    (gap_m >= rope_radius_m).then(|| face + normal * (gap_m - ANCHOR_CLEARANCE_M))
}

/// Whether a moving solid (a platform or a winch's load) has closed on a fixed face with the
/// rope lying between, leaving less than the rope's radius: the rope is crushed there, and the
/// hook is knocked off, by the same rule as a solid covering the anchor
/// (`anchor_squeezed_off_moving_solids`). Nothing stops a platform's path or a winch's swing
/// at a rope, so a rope left hooked was pinched with no gap: 14 Drawbridge's bridge swinging
/// shut on the start floor's wall left segments 1 to 3 up to 1.5 cm inside the bridge or the
/// wall (docs/rope.md, stop 47). `nodes` are the rope's from the anchor to the player; the
/// anchor is left to `anchor_clear_of_solids` and the player's end to the player's collisions.
pub fn rope_pinched_against_fixed_face(
    geometry: &Geometry,
    nodes: &[Vec2],
    rope_radius_m: f32,
) -> bool {
    let Some(between) = nodes.get(1..nodes.len().saturating_sub(1)) else {
        return false;
    };
    let Some(&first) = between.first() else {
        return false;
    };
    if !geometry.has_moving() {
        return false;
    }
    let (low, high) = between
        .iter()
        .fold((first, first), |(low, high), &p| (low.min(p), high.max(p)));
    let reach = Vec2::splat(FACE_PROBE_RADII * rope_radius_m);
    if !geometry.any_moving_near(Aabb::new(low - reach, high + reach), groups::SOLID) {
        return false;
    }
    between
        .iter()
        .any(|&node| node_pinched_against_fixed_face(geometry, node, rope_radius_m))
}

/// Whether `node`, within `FACE_PROBE_RADII` rope radii of a fixed face, has a moving solid
/// less than a rope's radius off that face at its foot (a ray along the face's normal on the
/// moving layer), closing on the face: the solid's face turned toward it, or, where the solid
/// already covers the face, the node inside the solid. A solid merely beside the node's face
/// is not a pinch: a ferry docked flush with a floor, a rope lying over the seam.
fn node_pinched_against_fixed_face(geometry: &Geometry, node: Vec2, rope_radius_m: f32) -> bool {
    let near = Aabb::from_half_extents(node, Vec2::splat(FACE_PROBE_RADII * rope_radius_m));
    if !geometry.any_moving_near(near, groups::SOLID) {
        return false;
    }
    let Some(FixedFaceNear { face, normal, .. }) = fixed_face_near(geometry, node, rope_radius_m)
    else {
        return false;
    };
    let hit = match geometry.cast_ray_on_moving(face, normal * rope_radius_m, groups::SOLID) {
        Some(hit) if is_platform_or_load(hit.tag.body) => hit,
        _ => return false,
    };
    if hit.normal.dot(normal) < -PINCHING_FACE_MIN_COS {
        return true;
    }
    let started_inside = hit.distance_m == 0.0 && hit.normal.length_squared() < 0.5;
    started_inside && node_inside_platform_or_load(geometry, Pose::from_translation(node))
}

/// The fixed face nearest `point`, found by a probe ball of `FACE_PROBE_RADII` rope radii.
struct FixedFaceNear {
    /// The foot of `point` on the face.
    face: Vec2,
    /// The face's outward normal.
    normal: Vec2,
    /// How far `point` lies off the face along `normal`.
    off_face_m: f32,
}

/// The fixed face within `FACE_PROBE_RADII` rope radii of `point`, if there is one: what an
/// anchor is squeezed toward, and what a rope node may be pinched against.
fn fixed_face_near(geometry: &Geometry, point: Vec2, rope_radius_m: f32) -> Option<FixedFaceNear> {
    let face_probe = Ball::new(FACE_PROBE_RADII * rope_radius_m);
    let (normal, depth_m) =
        geometry.deepest_fixed_solid_overlap(&Pose::from_translation(point), &face_probe)?;
    let off_face_m = face_probe.radius - depth_m;
    Some(FixedFaceNear {
        face: point - normal * off_face_m,
        normal,
        off_face_m,
    })
}

fn is_platform_or_load(body: Body) -> bool {
    matches!(body, Body::Platform(_) | Body::WinchLoad(_))
}

fn node_inside_platform_or_load(geometry: &Geometry, at_node: Pose) -> bool {
    let point = Ball::new(ANCHOR_CLEARANCE_M);
    geometry
        .overlaps(at_node, &point, groups::SOLID)
        .iter()
        .any(|tag| is_platform_or_load(tag.body))
}

/// How squarely a moving solid's face must turn toward the fixed face to pinch a rope between
/// them (the cosine of the angle between their normals, reversed): 60 degrees takes in a
/// swinging load's tilt and leaves out a solid beside the face (about 90 degrees).
const PINCHING_FACE_MIN_COS: f32 = 0.5;

/// How far outside a solid `anchor_clear_of_solids` leaves an anchor that was inside one, and
/// how deep inside one an anchor may lie and be left where it is: every vine's anchor lies on
/// its ceiling's face, to rounding, and stays there to the bit.
const ANCHOR_CLEARANCE_M: f32 = 0.001;

/// The probe that finds the fixed face an anchor hangs off, in rope radii: twice the anchor's
/// 1.5 radii off its face.
const FACE_PROBE_RADII: f32 = 3.0;

/// Whether a rope from `player` to `anchor` fits in the rope's reach. A hook that lands where
/// the anchor would be further away counts as a miss: a rope that started longer than it may
/// be would be projected back to its length in one substep, a yank of over 100 m/s.
pub fn anchor_in_reach(anchor: Vec2, player: Vec2, max_length_m: f32) -> bool {
    anchor.distance(player) <= max_length_m
}

/// Resolves an aim offset (from the player's centre) to a hook direction and target.
/// `facing` is used when the aim is zero (no mouse movement yet).
#[allow(clippy::too_many_arguments)]
pub fn preview_aim(
    geometry: &Geometry,
    level: &LevelDef,
    // Fragile anchors that broke (indices into `level.fragile`): no longer aimed at.
    broken: &[usize],
    tuning: &HookTuning,
    rope_radius_m: f32,
    from: Vec2,
    aim_offset: Vec2,
    facing: i8,
    range_m: f32,
) -> AimPreview {
    let aim_dir = aim_offset
        .try_normalize()
        .unwrap_or(Vec2::new(facing as f32, 1.0).normalize());
    let dir = assisted_direction(geometry, level, broken, tuning, from, aim_dir, range_m)
        .unwrap_or(aim_dir);
    let hit = geometry
        .cast_ray(from, dir * range_m, groups::SOLID | groups::GRAPPLE_POINT)
        .map(|hit| hit_on_surface(geometry, hit, rope_radius_m));
    match hit {
        None => AimPreview {
            dir,
            end: from + dir * range_m,
            target: AimTarget::OutOfRange,
        },
        Some(hit) => match anchor_for_hit(&hit, level, rope_radius_m) {
            Some((_, anchor)) if !anchor_in_reach(anchor, from, range_m) => AimPreview {
                dir,
                end: hit.point,
                target: AimTarget::OutOfRange,
            },
            Some((AttachKind::GrapplePoint, anchor)) => AimPreview {
                dir,
                end: anchor,
                target: match hit.tag.body {
                    Body::Fragile(_) => AimTarget::Hookable,
                    _ => AimTarget::GrapplePoint(hit.tag.index),
                },
            },
            // (A vine is never a ray's hit: it has no collider.)
            Some((AttachKind::Surface | AttachKind::Vine(_), _)) => AimPreview {
                dir,
                end: hit.point,
                target: AimTarget::Hookable,
            },
            None => AimPreview {
                dir,
                end: hit.point,
                target: AimTarget::NotHookable,
            },
        },
    }
}

/// The direction to the grapple point closest in angle to the aim line, if one is within the
/// aim-assist angle, in range and in line of sight.
fn assisted_direction(
    geometry: &Geometry,
    level: &LevelDef,
    broken: &[usize],
    tuning: &HookTuning,
    from: Vec2,
    aim_dir: Vec2,
    range_m: f32,
) -> Option<Vec2> {
    let min_cos = libm::cosf(tuning.aim_assist_angle_deg.to_radians());
    let mut best: Option<(f32, Vec2)> = None;
    let rings = level.grapple_points.iter().map(|p| p.v());
    let cracked_rings = level
        .fragile
        .iter()
        .enumerate()
        .filter(|&(i, _)| !broken.contains(&i))
        .filter_map(|(_, f)| f.ring_center());
    for point in rings.chain(cracked_rings) {
        let to_point = point - from;
        let dist = to_point.length();
        if dist < 1e-3 || dist > range_m + tuning.grapple_point_radius_m {
            continue;
        }
        let dir = to_point / dist;
        let cos = dir.dot(aim_dir);
        if cos < min_cos || best.is_some_and(|(best_cos, _)| cos <= best_cos) {
            continue;
        }
        let blocked = geometry
            .cast_ray(from, to_point, groups::SOLID)
            .is_some_and(|hit| hit.distance_m < dist - tuning.grapple_point_radius_m);
        if !blocked {
            best = Some((cos, dir));
        }
    }
    best.map(|(_, dir)| dir)
}
