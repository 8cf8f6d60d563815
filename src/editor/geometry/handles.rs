//! The handles the editor draws on a selected object, and the change dragging one makes.

use super::*;

/// The handles of a selected object (none for a stale ref).
pub fn handles(level: &LevelDef, obj: ObjectRef) -> Vec<Handle> {
    Object::get(level, obj)
        .map(|o| object_handles(&o))
        .unwrap_or_default()
}

pub fn object_handles(object: &Object) -> Vec<Handle> {
    let mut out = Vec::new();
    match object {
        Object::Goal(r) => rect_handles(r.min, r.max, &mut out),
        Object::Solid(d) => shape_handles(&d.shape, &mut out),
        Object::Hazard(d) => shape_handles(&d.0, &mut out),
        Object::Checkpoint(d) => rect_handles(d.min, d.max, &mut out),
        Object::Ring(_) | Object::Sign(_) => {}
        Object::Platform(d) => {
            shape_handles(&d.shape, &mut out);
            match &d.motion {
                MotionDef::Path { points, .. } => {
                    for (i, q) in points.iter().enumerate() {
                        out.push(handle(HandleId::Waypoint(i), q.v(), HandleRole::Waypoint));
                    }
                }
                MotionDef::Rotate { pivot, .. } => {
                    out.push(handle(HandleId::Pivot, pivot.v(), HandleRole::Pivot))
                }
            }
        }
        Object::Switch(d) => rect_handles(d.min, d.max, &mut out),
        Object::Winch(d) => {
            let at = d.at.v();
            out.push(handle(
                HandleId::MinLength,
                at - v(0.0, d.min_length_m),
                HandleRole::Length,
            ));
            out.push(handle(
                HandleId::MaxLength,
                at - v(0.0, d.max_length_m),
                HandleRole::Length,
            ));
            if let Some(start) = d.start_length_m {
                out.push(handle(
                    HandleId::StartLength,
                    at - v(0.0, start),
                    HandleRole::Length,
                ));
            }
        }
        Object::Vine(d) => out.push(handle(
            HandleId::Length,
            d.at.v() - v(0.0, d.length_m),
            HandleRole::Length,
        )),
        Object::Wind(d) => {
            shape_handles(&d.region, &mut out);
            let (lo, hi) = shape_bounds(&d.region);
            out.push(handle(
                HandleId::Direction,
                (lo + hi) * 0.5 + rotate_vec(v(DIRECTION_HANDLE_M, 0.0), d.direction_deg),
                HandleRole::Direction,
            ));
        }
        Object::Fragile(d) => fragile_handles(d, &mut out),
        Object::Cloth(d) => {
            let last = (d.columns.saturating_sub(1), d.rows.saturating_sub(1));
            out.push(handle(
                HandleId::ClothSize,
                cloth_particle(d, last.0, last.1),
                HandleRole::Resize,
            ));
            if let PinsDef::At(pins) = &d.pins {
                for (k, &(c, r)) in pins.iter().enumerate() {
                    out.push(handle(
                        HandleId::Pin(k),
                        cloth_particle(d, c, r),
                        HandleRole::Pin,
                    ));
                }
            }
        }
    }
    out
}

pub(super) fn fragile_handles(d: &FragileDef, out: &mut Vec<Handle>) {
    match &d.anchor {
        FragileAnchorDef::Beam { shape } => shape_handles(shape, out),
        FragileAnchorDef::Ring { .. } => {}
    }
}

/// A length read off a handle dragged below a drum: never negative.
pub(super) fn length_below(top: P, to: Vec2) -> f32 {
    (top.1 - to.y).max(0.0)
}

/// Drags handle `id` of `object` to `to`. Err names a handle the object does not have.
pub fn set_object_handle(object: &mut Object, id: HandleId, to: Vec2) -> Result<(), HandleError> {
    match object {
        Object::Goal(r) => match id {
            HandleId::Corner(i) => set_rect_corner(&mut r.min, &mut r.max, i, to),
            _ => Err(no_handle(id)),
        },
        Object::Checkpoint(d) => match id {
            HandleId::Corner(i) => set_rect_corner(&mut d.min, &mut d.max, i, to),
            _ => Err(no_handle(id)),
        },
        Object::Switch(d) => match id {
            HandleId::Corner(i) => set_rect_corner(&mut d.min, &mut d.max, i, to),
            _ => Err(no_handle(id)),
        },
        Object::Solid(d) => set_shape_handle(&mut d.shape, id, to),
        Object::Hazard(d) => set_shape_handle(&mut d.0, id, to),
        Object::Ring(_) | Object::Sign(_) => Err(no_handle(id)),
        Object::Platform(d) => match (&mut d.motion, id) {
            (MotionDef::Path { points, .. }, HandleId::Waypoint(i)) if i < points.len() => {
                points[i] = p(to);
                Ok(())
            }
            (MotionDef::Rotate { pivot, .. }, HandleId::Pivot) => {
                *pivot = p(to);
                Ok(())
            }
            _ => set_shape_handle(&mut d.shape, id, to),
        },
        Object::Winch(d) => {
            let len = length_below(d.at, to);
            match id {
                HandleId::MinLength => d.min_length_m = len,
                HandleId::MaxLength => d.max_length_m = len,
                HandleId::StartLength if d.start_length_m.is_some() => d.start_length_m = Some(len),
                _ => return Err(no_handle(id)),
            }
            Ok(())
        }
        Object::Vine(d) => match id {
            HandleId::Length => {
                d.length_m = length_below(d.at, to);
                Ok(())
            }
            _ => Err(no_handle(id)),
        },
        Object::Wind(d) => match id {
            HandleId::Direction => {
                let (lo, hi) = shape_bounds(&d.region);
                let dir = to - (lo + hi) * 0.5;
                if dir.length_squared() > 0.0 {
                    d.direction_deg = angle_deg(dir);
                }
                Ok(())
            }
            _ => set_shape_handle(&mut d.region, id, to),
        },
        Object::Fragile(d) => match &mut d.anchor {
            FragileAnchorDef::Beam { shape } => set_shape_handle(shape, id, to),
            FragileAnchorDef::Ring { .. } => Err(no_handle(id)),
        },
        Object::Cloth(d) => set_cloth_handle(d, id, to),
    }
}

pub(super) fn set_cloth_handle(
    d: &mut ClothDef,
    id: HandleId,
    to: Vec2,
) -> Result<(), HandleError> {
    if !(d.spacing_m.is_finite() && d.spacing_m > 0.0) {
        return Err(HandleError::ClothSpacing {
            spacing_m: d.spacing_m,
        });
    }
    // Grid steps from the top-left particle, rows counted downwards.
    let steps = (to - d.top_left.v()) / d.spacing_m;
    let (across, down) = (steps.x.round(), (-steps.y).round());
    match id {
        HandleId::ClothSize => {
            let side =
                |n: f32| (n + 1.0).clamp(MIN_CLOTH_SIDE as f32, MAX_CLOTH_SIDE as f32) as u32;
            d.columns = side(across);
            d.rows = side(down);
            Ok(())
        }
        HandleId::Pin(k) => {
            let (columns, rows) = (d.columns, d.rows);
            match &mut d.pins {
                PinsDef::At(pins) if k < pins.len() => {
                    let cell =
                        |n: f32, count: u32| n.clamp(0.0, count.saturating_sub(1) as f32) as u32;
                    pins[k] = (cell(across, columns), cell(down, rows));
                    Ok(())
                }
                _ => Err(no_handle(id)),
            }
        }
        _ => Err(no_handle(id)),
    }
}
