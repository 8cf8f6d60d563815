//! The handles the editor draws on a selected object, and the change dragging one makes.

use super::*;
use crate::editor::handle::no_handle;

/// The handles of a selected object (none for a stale ref).
pub fn handles(level: &LevelDef, obj: ObjectRef) -> Vec<Handle> {
    Object::get(level, obj)
        .map(|o| object_handles(&o))
        .unwrap_or_default()
}

/// The handles of `object` (see each kind's `EditKind::handles`).
pub fn object_handles(object: &Object) -> Vec<Handle> {
    object.handles()
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
    object.set_handle(id, to)
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
