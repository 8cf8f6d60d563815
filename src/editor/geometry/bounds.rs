//! Where objects are: their bounds as written, what is under the mouse (small things over
//! big ones), and box selection.

use super::*;

/// Where a winch's load hangs at `length_m`, as bounds.
pub(super) fn load_bounds(at: Vec2, load: &LoadDef, length_m: f32) -> (Vec2, Vec2) {
    let end = at - v(0.0, length_m);
    match load {
        LoadDef::Weight { radius_m, .. } => {
            around(end - v(0.0, radius_m.abs()), Vec2::splat(radius_m.abs()))
        }
        LoadDef::Platform { half_extents, .. } => around(
            end - v(0.0, half_extents.1.abs()),
            v(half_extents.0.abs(), half_extents.1.abs()),
        ),
    }
}

pub(super) fn winch_start_m(winch: &WinchDef) -> f32 {
    winch.start_length_m.unwrap_or(winch.max_length_m)
}

pub(super) fn cloth_particle(cloth: &ClothDef, column: u32, row: u32) -> Vec2 {
    cloth.top_left.v() + v(column as f32, -(row as f32)) * cloth.spacing_m
}

/// A cloth's particle grid hangs down from `top_left` (rows go down, sim/cloth.rs).
pub(super) fn cloth_bounds(cloth: &ClothDef) -> (Vec2, Vec2) {
    let last = (
        cloth.columns.saturating_sub(1),
        cloth.rows.saturating_sub(1),
    );
    bounds_of([cloth.top_left.v(), cloth_particle(cloth, last.0, last.1)])
}

pub(super) fn sign_bounds(at: P) -> (Vec2, Vec2) {
    (
        at.v() - v(SIGN_WIDTH_M * 0.5, 0.0),
        at.v() + v(SIGN_WIDTH_M * 0.5, SIGN_HEIGHT_M),
    )
}

pub(super) fn rope_bounds(top: Vec2, length_m: f32) -> (Vec2, Vec2) {
    let (lo, hi) = bounds_of([top, top - v(0.0, length_m)]);
    (
        lo - Vec2::splat(ROPE_HALF_WIDTH_M),
        hi + Vec2::splat(ROPE_HALF_WIDTH_M),
    )
}

/// The object's axis-aligned bounds in world metres, as written (a moving platform where it
/// is at time 0, a cloth's grid hanging flat, a winch's drum and load at its start length).
pub fn object_bounds(object: &Object) -> (Vec2, Vec2) {
    object.bounds()
}

/// Axis-aligned min/max of the object in world metres; `None` for a stale ref.
pub fn bounds(level: &LevelDef, obj: ObjectRef) -> Option<(Vec2, Vec2)> {
    Object::get(level, obj).map(|o| object_bounds(&o))
}

pub(super) fn in_bounds(b: (Vec2, Vec2), at: Vec2, tolerance_m: f32) -> bool {
    at.x >= b.0.x - tolerance_m
        && at.x <= b.1.x + tolerance_m
        && at.y >= b.0.y - tolerance_m
        && at.y <= b.1.y + tolerance_m
}

/// Whether `at` is on the object (within `tolerance_m`).
pub fn object_hit(object: &Object, at: Vec2, tolerance_m: f32) -> bool {
    object.hit(at, tolerance_m)
}

/// The topmost object under `at`: small things over big ones (rings, signs, switches over the
/// solids they sit on), then the smaller bounds, then the later in its list (drawn last).
pub fn pick(level: &LevelDef, at: Vec2, tolerance_m: f32) -> Option<ObjectRef> {
    if !at.is_finite() {
        return None;
    }
    let tolerance_m = if tolerance_m.is_finite() {
        tolerance_m.max(0.0)
    } else {
        0.0
    };
    all_objects(level)
        .into_iter()
        .filter_map(|r| {
            let object = Object::get(level, r)?;
            if !object_hit(&object, at, tolerance_m) {
                return None;
            }
            let (lo, hi) = object_bounds(&object);
            let area = (hi - lo).x.abs() * (hi - lo).y.abs();
            Some((object.pick_rank(), area, std::cmp::Reverse(r.index), r))
        })
        .min_by(|a, b| {
            (a.0, a.1, a.2)
                .partial_cmp(&(b.0, b.1, b.2))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|hit| hit.3)
}

/// Whether the spawn point is under `at` (the UI drags it with `Op::MoveSpawn`).
pub fn pick_spawn(level: &LevelDef, at: Vec2, tolerance_m: f32) -> bool {
    at.distance(level.spawn.v()) <= tolerance_m.max(0.0)
}

/// The level's own handles: the spawn point.
pub fn level_handles(level: &LevelDef) -> Vec<Handle> {
    vec![handle(HandleId::Spawn, level.spawn.v(), HandleRole::Spawn)]
}

/// Box selection: every object whose bounds lie inside the rectangle from `min` to `max`
/// (either corner order).
pub fn objects_in_rect(level: &LevelDef, min: Vec2, max: Vec2) -> Vec<ObjectRef> {
    let (lo, hi) = (min.min(max), min.max(max));
    all_objects(level)
        .into_iter()
        .filter(|&r| {
            bounds(level, r)
                .is_some_and(|(a, b)| a.x >= lo.x && a.y >= lo.y && b.x <= hi.x && b.y <= hi.y)
        })
        .collect()
}
