//! The shapes' geometry: bounds, containment, handles, dragging them, moving and turning
//! boxes, circles, polygons and rectangles.

use super::*;
use crate::editor::handle::no_handle;

pub fn shape_bounds(shape: &ShapeDef) -> (Vec2, Vec2) {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => bounds_of(box_corners(*center, *half_extents, *rotation_deg)),
        ShapeDef::Circle { center, radius } => around(center.v(), Vec2::splat(radius.abs())),
        ShapeDef::Polygon { points } => bounds_of(points.iter().map(|q| q.v())),
    }
}

pub(super) fn segment_distance(at: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((at - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    at.distance(a + ab * t)
}

/// Whether `at` is inside `shape` or within `tolerance_m` of it.
pub fn shape_contains(shape: &ShapeDef, at: Vec2, tolerance_m: f32) -> bool {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => {
            let local = rotate_vec(at - center.v(), -rotation_deg);
            local.x.abs() <= half_extents.0.abs() + tolerance_m
                && local.y.abs() <= half_extents.1.abs() + tolerance_m
        }
        ShapeDef::Circle { center, radius } => at.distance(center.v()) <= radius + tolerance_m,
        ShapeDef::Polygon { points } => {
            let n = points.len();
            if n == 0 {
                return false;
            }
            let edges = || (0..n).map(|i| (points[i].v(), points[(i + 1) % n].v()));
            // Inside a convex outline of either winding: on the same side of every edge.
            let sides: Vec<f32> = edges().map(|(a, b)| (b - a).perp_dot(at - a)).collect();
            let inside =
                n >= 3 && (sides.iter().all(|s| *s >= 0.0) || sides.iter().all(|s| *s <= 0.0));
            inside || edges().any(|(a, b)| segment_distance(at, a, b) <= tolerance_m)
        }
    }
}

pub(super) fn shape_handles(shape: &ShapeDef, out: &mut Vec<Handle>) {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => {
            for (i, corner) in box_corners(*center, *half_extents, *rotation_deg)
                .into_iter()
                .enumerate()
            {
                out.push(handle(
                    HandleId::Corner(i as u8),
                    corner,
                    HandleRole::Resize,
                ));
            }
            let up = v(0.0, half_extents.1.abs() + ROTATE_HANDLE_GAP_M);
            out.push(handle(
                HandleId::Rotate,
                center.v() + rotate_vec(up, *rotation_deg),
                HandleRole::Rotate,
            ));
        }
        ShapeDef::Circle { center, radius } => {
            out.push(handle(
                HandleId::Radius,
                center.v() + v(*radius, 0.0),
                HandleRole::Radius,
            ));
        }
        ShapeDef::Polygon { points } => {
            for (i, q) in points.iter().enumerate() {
                out.push(handle(HandleId::Vertex(i), q.v(), HandleRole::Vertex));
            }
        }
    }
}

pub(super) fn set_shape_handle(
    shape: &mut ShapeDef,
    id: HandleId,
    to: Vec2,
) -> Result<(), HandleError> {
    match (shape, id) {
        (
            ShapeDef::Box {
                center,
                half_extents,
                rotation_deg,
            },
            HandleId::Corner(i),
        ) if i < 4 => {
            let corners = box_corners(*center, *half_extents, *rotation_deg);
            let opposite = corners[(i as usize + 2) % 4];
            let local = rotate_vec(to - opposite, -*rotation_deg);
            *center = p((opposite + to) * 0.5);
            *half_extents = P(local.x.abs() * 0.5, local.y.abs() * 0.5);
            Ok(())
        }
        (
            ShapeDef::Box {
                center,
                rotation_deg,
                ..
            },
            HandleId::Rotate,
        ) => {
            let dir = to - center.v();
            if dir.length_squared() > 0.0 {
                *rotation_deg = wrap_deg(angle_deg(dir) - 90.0);
            }
            Ok(())
        }
        (ShapeDef::Circle { center, radius }, HandleId::Radius) => {
            *radius = to.distance(center.v());
            Ok(())
        }
        (ShapeDef::Polygon { points }, HandleId::Vertex(i)) if i < points.len() => {
            points[i] = p(to);
            Ok(())
        }
        (_, id) => Err(no_handle(id)),
    }
}

pub fn translate_shape(shape: &mut ShapeDef, delta: Vec2) {
    match shape {
        ShapeDef::Box { center, .. } | ShapeDef::Circle { center, .. } => {
            *center = p(center.v() + delta)
        }
        ShapeDef::Polygon { points } => {
            for q in points {
                *q = p(q.v() + delta);
            }
        }
    }
}

pub(super) fn rotate_shape(shape: &mut ShapeDef, about: Vec2, deg: f32) {
    match shape {
        ShapeDef::Box {
            center,
            rotation_deg,
            ..
        } => {
            *center = p(rotate_about(center.v(), about, deg));
            *rotation_deg = wrap_deg(*rotation_deg + deg);
        }
        ShapeDef::Circle { center, .. } => *center = p(rotate_about(center.v(), about, deg)),
        ShapeDef::Polygon { points } => {
            for q in points {
                *q = p(rotate_about(q.v(), about, deg));
            }
        }
    }
}

pub(super) fn rect_bounds(min: P, max: P) -> (Vec2, Vec2) {
    bounds_of(rect_corners(min, max))
}

pub(super) fn set_rect_corner(
    min: &mut P,
    max: &mut P,
    i: u8,
    to: Vec2,
) -> Result<(), HandleError> {
    if i >= 4 {
        return Err(no_handle(HandleId::Corner(i)));
    }
    let opposite = rect_corners(*min, *max)[(i as usize + 2) % 4];
    *min = p(opposite.min(to));
    *max = p(opposite.max(to));
    Ok(())
}

pub(super) fn rect_handles(min: P, max: P, out: &mut Vec<Handle>) {
    for (i, corner) in rect_corners(min, max).into_iter().enumerate() {
        out.push(handle(
            HandleId::Corner(i as u8),
            corner,
            HandleRole::Resize,
        ));
    }
}

/// Rectangles stay axis-aligned when turned: only their centre moves.
pub(super) fn rotate_rect(min: &mut P, max: &mut P, about: Vec2, deg: f32) {
    let center = (min.v() + max.v()) * 0.5;
    let delta = rotate_about(center, about, deg) - center;
    *min = p(min.v() + delta);
    *max = p(max.v() + delta);
}
