//! Where objects are: their bounds, what is under the mouse, box selection, and the handles the
//! editor draws on a selected object and the changes dragging one makes. Also the moves every
//! operation needs (translate, rotate). Every kind is handled in exhaustive matches.

use super::kinds::{all_objects, Kind, ObjectRef};
use super::object::Object;
use crate::sim::level::{
    ClothDef, FragileDef, LevelDef, LoadDef, MotionDef, RectDef, ShapeDef, WinchDef, P,
};
use crate::sim::math::Vec2;
use crate::sim::objects::cloth::{PinsDef, MAX_CLOTH_SIDE, MIN_CLOTH_SIDE};
use crate::sim::objects::fragile::FragileAnchorDef;

/// A ring's size for picking and bounds (the game's rings are 0.3 m; a little more is easier
/// to click).
pub const RING_RADIUS_M: f32 = 0.4;
/// A sign's board as the editor frames it: about 3 m wide, its post and board about 1.9 m tall
/// above `at` (the board's real size follows its text; the renderer's constants are in
/// `app::render::objects::sign`).
pub const SIGN_WIDTH_M: f32 = 3.0;
pub const SIGN_HEIGHT_M: f32 = 1.9;
/// Half the width a rope (vine, winch rope) is given for picking and bounds.
pub const ROPE_HALF_WIDTH_M: f32 = 0.15;
/// How far above a box's top edge its rotation handle sits.
pub const ROTATE_HANDLE_GAP_M: f32 = 1.0;
/// How far from a wind region's centre its direction handle sits.
pub const DIRECTION_HANDLE_M: f32 = 2.0;

/// Which handle of an object.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HandleId {
    /// A corner of a box or rectangle, counter-clockwise from the bottom left (in a box's own
    /// frame): dragging it resizes with the opposite corner fixed.
    Corner(u8),
    /// A circle's rim (to the right of its centre).
    Radius,
    /// A polygon's vertex.
    Vertex(usize),
    /// Above a box: dragging it turns the box about its centre.
    Rotate,
    /// A point of a platform's path.
    Waypoint(usize),
    /// The centre a turning platform turns about.
    Pivot,
    /// A winch's reeled-in, paid-out and start lengths, under its drum.
    MinLength,
    MaxLength,
    StartLength,
    /// A vine's end.
    Length,
    /// A cloth's bottom-right particle: dragging it changes columns and rows at its spacing.
    ClothSize,
    /// A cloth's pinned particle (`PinsDef::At`), snapped to the grid.
    Pin(usize),
    /// Which way a wind zone blows.
    Direction,
    /// The level's spawn point (a handle of the level, not of an object).
    Spawn,
}

/// What dragging a handle does, for the UI to pick its look and cursor.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HandleRole {
    Resize,
    Radius,
    Vertex,
    Rotate,
    Waypoint,
    Pivot,
    Length,
    Pin,
    Direction,
    Spawn,
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Handle {
    pub id: HandleId,
    pub pos: Vec2,
    pub role: HandleRole,
}

fn handle(id: HandleId, pos: Vec2, role: HandleRole) -> Handle {
    Handle { id, pos, role }
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn p(at: Vec2) -> P {
    P(at.x, at.y)
}

/// `offset` turned counter-clockwise by `deg`, through libm (the same on every target).
pub fn rotate_vec(offset: Vec2, deg: f32) -> Vec2 {
    let rad = deg as f64 * std::f64::consts::PI / 180.0;
    let (c, s) = (libm::cos(rad) as f32, libm::sin(rad) as f32);
    v(c * offset.x - s * offset.y, s * offset.x + c * offset.y)
}

fn rotate_about(point: Vec2, about: Vec2, deg: f32) -> Vec2 {
    about + rotate_vec(point - about, deg)
}

fn angle_deg(dir: Vec2) -> f32 {
    libm::atan2f(dir.y, dir.x).to_degrees()
}

/// Keeps an angle in (-360, 360) so turning many times does not grow the number.
fn wrap_deg(deg: f32) -> f32 {
    deg % 360.0
}

/// The smallest box around `points` (empty input: the origin).
fn bounds_of(points: impl IntoIterator<Item = Vec2>) -> (Vec2, Vec2) {
    let mut it = points.into_iter();
    let first = it.next().unwrap_or(Vec2::ZERO);
    it.fold((first, first), |(lo, hi), q| (lo.min(q), hi.max(q)))
}

fn union(a: (Vec2, Vec2), b: (Vec2, Vec2)) -> (Vec2, Vec2) {
    (a.0.min(b.0), a.1.max(b.1))
}

fn around(center: Vec2, half: Vec2) -> (Vec2, Vec2) {
    (center - half, center + half)
}

/// A box's corners in world space, counter-clockwise from its own bottom left.
/// A box's corners, counter-clockwise from its bottom left (before turning).
pub fn box_corners(center: P, half: P, deg: f32) -> [Vec2; 4] {
    let signs = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
    signs.map(|(sx, sy)| center.v() + rotate_vec(v(sx * half.0, sy * half.1), deg))
}

fn rect_corners(min: P, max: P) -> [Vec2; 4] {
    [
        v(min.0, min.1),
        v(max.0, min.1),
        v(max.0, max.1),
        v(min.0, max.1),
    ]
}

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

fn segment_distance(at: Vec2, a: Vec2, b: Vec2) -> f32 {
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

fn shape_handles(shape: &ShapeDef, out: &mut Vec<Handle>) {
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

fn no_handle(id: HandleId) -> String {
    format!("has no handle {id:?}")
}

fn set_shape_handle(shape: &mut ShapeDef, id: HandleId, to: Vec2) -> Result<(), String> {
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

fn rotate_shape(shape: &mut ShapeDef, about: Vec2, deg: f32) {
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

fn rect_bounds(min: P, max: P) -> (Vec2, Vec2) {
    bounds_of(rect_corners(min, max))
}

fn set_rect_corner(min: &mut P, max: &mut P, i: u8, to: Vec2) -> Result<(), String> {
    if i >= 4 {
        return Err(no_handle(HandleId::Corner(i)));
    }
    let opposite = rect_corners(*min, *max)[(i as usize + 2) % 4];
    *min = p(opposite.min(to));
    *max = p(opposite.max(to));
    Ok(())
}

fn rect_handles(min: P, max: P, out: &mut Vec<Handle>) {
    for (i, corner) in rect_corners(min, max).into_iter().enumerate() {
        out.push(handle(
            HandleId::Corner(i as u8),
            corner,
            HandleRole::Resize,
        ));
    }
}

/// Rectangles stay axis-aligned when turned: only their centre moves.
fn rotate_rect(min: &mut P, max: &mut P, about: Vec2, deg: f32) {
    let center = (min.v() + max.v()) * 0.5;
    let delta = rotate_about(center, about, deg) - center;
    *min = p(min.v() + delta);
    *max = p(max.v() + delta);
}

/// Where a winch's load hangs at `length_m`, as bounds.
fn load_bounds(at: Vec2, load: &LoadDef, length_m: f32) -> (Vec2, Vec2) {
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

fn winch_start_m(winch: &WinchDef) -> f32 {
    winch.start_length_m.unwrap_or(winch.max_length_m)
}

fn cloth_particle(cloth: &ClothDef, column: u32, row: u32) -> Vec2 {
    cloth.top_left.v() + v(column as f32, -(row as f32)) * cloth.spacing_m
}

/// A cloth's particle grid hangs down from `top_left` (rows go down, sim/cloth.rs).
fn cloth_bounds(cloth: &ClothDef) -> (Vec2, Vec2) {
    let last = (
        cloth.columns.saturating_sub(1),
        cloth.rows.saturating_sub(1),
    );
    bounds_of([cloth.top_left.v(), cloth_particle(cloth, last.0, last.1)])
}

fn sign_bounds(at: P) -> (Vec2, Vec2) {
    (
        at.v() - v(SIGN_WIDTH_M * 0.5, 0.0),
        at.v() + v(SIGN_WIDTH_M * 0.5, SIGN_HEIGHT_M),
    )
}

fn rope_bounds(top: Vec2, length_m: f32) -> (Vec2, Vec2) {
    let (lo, hi) = bounds_of([top, top - v(0.0, length_m)]);
    (
        lo - Vec2::splat(ROPE_HALF_WIDTH_M),
        hi + Vec2::splat(ROPE_HALF_WIDTH_M),
    )
}

/// The object's axis-aligned bounds in world metres, as written (a moving platform where it
/// is at time 0, a cloth's grid hanging flat, a winch's drum and load at its start length).
pub fn object_bounds(object: &Object) -> (Vec2, Vec2) {
    match object {
        Object::Goal(r) => rect_bounds(r.min, r.max),
        Object::Solid(d) => shape_bounds(&d.shape),
        Object::Hazard(d) => shape_bounds(&d.0),
        Object::Checkpoint(d) => rect_bounds(d.min, d.max),
        Object::Ring(d) => around(d.v(), Vec2::splat(RING_RADIUS_M)),
        Object::Platform(d) => shape_bounds(&d.shape),
        Object::Switch(d) => rect_bounds(d.min, d.max),
        Object::Winch(d) => union(
            rope_bounds(d.at.v(), winch_start_m(d)),
            load_bounds(d.at.v(), &d.load, winch_start_m(d)),
        ),
        Object::Vine(d) => rope_bounds(d.at.v(), d.length_m),
        Object::Wind(d) => shape_bounds(&d.region),
        Object::Fragile(d) => match &d.anchor {
            FragileAnchorDef::Beam { shape } => shape_bounds(shape),
            FragileAnchorDef::Ring { at } => around(at.v(), Vec2::splat(RING_RADIUS_M)),
        },
        Object::Cloth(d) => cloth_bounds(d),
        Object::Sign(d) => sign_bounds(d.at),
    }
}

/// Axis-aligned min/max of the object in world metres; `None` for a stale ref.
pub fn bounds(level: &LevelDef, obj: ObjectRef) -> Option<(Vec2, Vec2)> {
    Object::get(level, obj).map(|o| object_bounds(&o))
}

fn in_bounds(b: (Vec2, Vec2), at: Vec2, tolerance_m: f32) -> bool {
    at.x >= b.0.x - tolerance_m
        && at.x <= b.1.x + tolerance_m
        && at.y >= b.0.y - tolerance_m
        && at.y <= b.1.y + tolerance_m
}

/// Whether `at` is on the object (within `tolerance_m`).
pub fn object_hit(object: &Object, at: Vec2, tolerance_m: f32) -> bool {
    let near = |q: Vec2, r: f32| at.distance(q) <= r + tolerance_m;
    let on_rope = |top: Vec2, len: f32| {
        segment_distance(at, top, top - v(0.0, len)) <= tolerance_m + ROPE_HALF_WIDTH_M
    };
    match object {
        Object::Goal(_)
        | Object::Checkpoint(_)
        | Object::Switch(_)
        | Object::Cloth(_)
        | Object::Sign(_) => in_bounds(object_bounds(object), at, tolerance_m),
        Object::Solid(d) => shape_contains(&d.shape, at, tolerance_m),
        Object::Hazard(d) => shape_contains(&d.0, at, tolerance_m),
        Object::Ring(d) => near(d.v(), RING_RADIUS_M),
        Object::Platform(d) => shape_contains(&d.shape, at, tolerance_m),
        Object::Winch(d) => {
            on_rope(d.at.v(), winch_start_m(d))
                || in_bounds(
                    load_bounds(d.at.v(), &d.load, winch_start_m(d)),
                    at,
                    tolerance_m,
                )
        }
        Object::Vine(d) => on_rope(d.at.v(), d.length_m),
        Object::Wind(d) => shape_contains(&d.region, at, tolerance_m),
        Object::Fragile(d) => match &d.anchor {
            FragileAnchorDef::Beam { shape } => shape_contains(shape, at, tolerance_m),
            FragileAnchorDef::Ring { at: ring } => near(ring.v(), RING_RADIUS_M),
        },
    }
}

/// Which kinds win a click over others when both are under it: small markers first, then the
/// level's bodies, the invisible wind regions last.
fn pick_rank(kind: Kind) -> u8 {
    match kind {
        Kind::Ring
        | Kind::Sign
        | Kind::Switch
        | Kind::Checkpoint
        | Kind::Vine
        | Kind::Winch
        | Kind::Cloth => 0,
        Kind::Goal | Kind::Solid | Kind::Hazard | Kind::Platform | Kind::Fragile => 1,
        Kind::Wind => 2,
    }
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
            Some((pick_rank(r.kind), area, std::cmp::Reverse(r.index), r))
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

fn fragile_handles(d: &FragileDef, out: &mut Vec<Handle>) {
    match &d.anchor {
        FragileAnchorDef::Beam { shape } => shape_handles(shape, out),
        FragileAnchorDef::Ring { .. } => {}
    }
}

/// A length read off a handle dragged below a drum: never negative.
fn length_below(top: P, to: Vec2) -> f32 {
    (top.1 - to.y).max(0.0)
}

/// Drags handle `id` of `object` to `to`. Err names a handle the object does not have.
pub fn set_object_handle(object: &mut Object, id: HandleId, to: Vec2) -> Result<(), String> {
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

fn set_cloth_handle(d: &mut ClothDef, id: HandleId, to: Vec2) -> Result<(), String> {
    if !(d.spacing_m.is_finite() && d.spacing_m > 0.0) {
        return Err(format!(
            "cannot be resized by hand while its spacing_m is {}",
            d.spacing_m
        ));
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

/// Moves everything of the object by `delta`: a platform's path and pivot too; a cloth's pins
/// are grid cells, so they come along.
pub fn translate_object(object: &mut Object, delta: Vec2) {
    let mv = |q: &mut P| *q = p(q.v() + delta);
    match object {
        Object::Goal(RectDef { min, max })
        | Object::Checkpoint(crate::sim::level::CheckpointDef { min, max, .. })
        | Object::Switch(crate::sim::level::SwitchDef { min, max, .. }) => {
            mv(min);
            mv(max);
        }
        Object::Solid(d) => translate_shape(&mut d.shape, delta),
        Object::Hazard(d) => translate_shape(&mut d.0, delta),
        Object::Ring(d) => mv(&mut d.0),
        Object::Platform(d) => {
            translate_shape(&mut d.shape, delta);
            match &mut d.motion {
                MotionDef::Path { points, .. } => points.iter_mut().for_each(mv),
                MotionDef::Rotate { pivot, .. } => mv(pivot),
            }
        }
        Object::Winch(d) => mv(&mut d.at),
        Object::Vine(d) => mv(&mut d.at),
        Object::Wind(d) => translate_shape(&mut d.region, delta),
        Object::Fragile(d) => match &mut d.anchor {
            FragileAnchorDef::Beam { shape } => translate_shape(shape, delta),
            FragileAnchorDef::Ring { at } => mv(at),
        },
        Object::Cloth(d) => mv(&mut d.top_left),
        Object::Sign(d) => mv(&mut d.at),
    }
}

/// Turns the object by `deg` counter-clockwise about `about`. Boxes turn; polygons turn their
/// points; circles and points move their centre; rectangles (goal, checkpoints, switches),
/// cloths and signs stay axis-aligned and only move their centre; a wind zone turns its
/// direction with its region; a platform turns its path and pivot with its shape.
pub fn rotate_object(object: &mut Object, about: Vec2, deg: f32) {
    let turn = |q: &mut P| *q = p(rotate_about(q.v(), about, deg));
    match object {
        Object::Goal(RectDef { min, max })
        | Object::Checkpoint(crate::sim::level::CheckpointDef { min, max, .. })
        | Object::Switch(crate::sim::level::SwitchDef { min, max, .. }) => {
            rotate_rect(min, max, about, deg)
        }
        Object::Solid(d) => rotate_shape(&mut d.shape, about, deg),
        Object::Hazard(d) => rotate_shape(&mut d.0, about, deg),
        Object::Ring(d) => turn(&mut d.0),
        Object::Platform(d) => {
            rotate_shape(&mut d.shape, about, deg);
            match &mut d.motion {
                MotionDef::Path { points, .. } => points.iter_mut().for_each(turn),
                MotionDef::Rotate { pivot, .. } => turn(pivot),
            }
        }
        Object::Winch(d) => turn(&mut d.at),
        Object::Vine(d) => turn(&mut d.at),
        Object::Wind(d) => {
            rotate_shape(&mut d.region, about, deg);
            d.direction_deg = wrap_deg(d.direction_deg + deg);
        }
        Object::Fragile(d) => match &mut d.anchor {
            FragileAnchorDef::Beam { shape } => rotate_shape(shape, about, deg),
            FragileAnchorDef::Ring { at } => turn(at),
        },
        Object::Cloth(_) | Object::Sign(_) => {
            let (lo, hi) = object_bounds(object);
            let center = (lo + hi) * 0.5;
            translate_object(object, rotate_about(center, about, deg) - center);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::level::{RonError, SolidDef};

    fn level(extra: &str) -> LevelDef {
        let text = format!(
            "Level(name: \"t\", spawn: (0.0, 1.0), goal: (min: (20.0, 0.0), max: (23.0, 3.0)), {extra})"
        );
        RonError::parse(&text, "t").unwrap()
    }

    fn close(a: Vec2, b: Vec2) -> bool {
        a.distance(b) < 1e-4
    }

    #[test]
    fn bounds_of_every_kind() {
        let l = level(
            "solids: [(shape: Box(center: (0.0, 0.0), half_extents: (2.0, 1.0)))],
             grapple_points: [(5.0, 5.0)],
             vines: [(at: (1.0, 10.0), length_m: 4.0)],
             cloths: [(top_left: (0.0, 5.0), columns: 5, rows: 3, spacing_m: 0.5, pins: TopRow)],
             signs: [(at: (0.0, 0.0), text: \"Hi\")],
             winches: [(at: (0.0, 20.0), min_length_m: 2.0, max_length_m: 5.0, speed_m_per_s: 1.0,
                        load: Weight(radius_m: 0.5, mass_kg: 10.0), drive: Timer(wait_s: 1.0))]",
        );
        let b = |k, i| bounds(&l, ObjectRef::new(k, i)).unwrap();
        assert_eq!(b(Kind::Goal, 0), (v(20.0, 0.0), v(23.0, 3.0)));
        assert_eq!(b(Kind::Solid, 0), (v(-2.0, -1.0), v(2.0, 1.0)));
        assert_eq!(b(Kind::Ring, 0), (v(4.6, 4.6), v(5.4, 5.4)));
        let vine = b(Kind::Vine, 0);
        assert!(close(vine.0, v(0.85, 5.85)) && close(vine.1, v(1.15, 10.15)));
        // The grid hangs down from top_left: 4 steps across, 2 down.
        assert_eq!(b(Kind::Cloth, 0), (v(0.0, 4.0), v(2.0, 5.0)));
        assert_eq!(b(Kind::Sign, 0), (v(-1.5, 0.0), v(1.5, SIGN_HEIGHT_M)));
        // Drum at y 20, rope 5 m (start = max), weight of radius 0.5 below it.
        let winch = b(Kind::Winch, 0);
        assert!(
            close(winch.0, v(-0.5, 14.0)) && close(winch.1, v(0.5, 20.15)),
            "{winch:?}"
        );
        assert_eq!(bounds(&l, ObjectRef::new(Kind::Solid, 1)), None);
    }

    #[test]
    fn a_turned_box_has_turned_bounds() {
        let shape = ShapeDef::Box {
            center: P(0.0, 0.0),
            half_extents: P(2.0, 1.0),
            rotation_deg: 90.0,
        };
        let (lo, hi) = shape_bounds(&shape);
        assert!(close(lo, v(-1.0, -2.0)) && close(hi, v(1.0, 2.0)));
        assert!(shape_contains(&shape, v(0.0, 1.9), 0.0));
        assert!(!shape_contains(&shape, v(1.9, 0.0), 0.0));
    }

    #[test]
    fn pick_prefers_small_things_on_big_ones() {
        let l = level(
            "solids: [(shape: Box(center: (0.0, 0.0), half_extents: (10.0, 10.0)))],
             grapple_points: [(1.0, 1.0)],
             wind: [(region: Box(center: (0.0, 0.0), half_extents: (30.0, 30.0)), direction_deg: 0.0, speed_m_per_s: 1.0)]",
        );
        assert_eq!(
            pick(&l, v(1.1, 1.0), 0.1),
            Some(ObjectRef::new(Kind::Ring, 0))
        );
        assert_eq!(
            pick(&l, v(5.0, 5.0), 0.1),
            Some(ObjectRef::new(Kind::Solid, 0))
        );
        assert_eq!(
            pick(&l, v(20.0, 20.0), 0.1),
            Some(ObjectRef::new(Kind::Wind, 0))
        );
        assert_eq!(pick(&l, v(21.5, 1.0), 0.1), Some(ObjectRef::GOAL));
        assert_eq!(pick(&l, v(100.0, 100.0), 0.1), None);
        assert_eq!(pick(&l, v(f32::NAN, 0.0), 0.1), None);
        // The tolerance reaches thin things.
        assert_eq!(
            pick(&l, v(1.0, 1.5), 0.0),
            Some(ObjectRef::new(Kind::Solid, 0))
        );
        assert!(pick_spawn(&l, v(0.1, 1.0), 0.2));
    }

    #[test]
    fn box_selection_takes_what_lies_inside() {
        let l = level("grapple_points: [(1.0, 1.0), (50.0, 50.0)]");
        assert_eq!(
            objects_in_rect(&l, v(30.0, 10.0), v(-10.0, -10.0)),
            vec![ObjectRef::GOAL, ObjectRef::new(Kind::Ring, 0)]
        );
    }

    #[test]
    fn a_corner_drag_keeps_the_opposite_corner() {
        let mut o = Object::Solid(SolidDef {
            id: None,
            shape: ShapeDef::Box {
                center: P(0.0, 0.0),
                half_extents: P(2.0, 1.0),
                rotation_deg: 30.0,
            },
            hookable: true,
        });
        let before = object_handles(&o);
        let opposite = before[0].pos;
        set_object_handle(&mut o, HandleId::Corner(2), v(5.0, 4.0)).unwrap();
        let after = object_handles(&o);
        assert!(
            close(after[0].pos, opposite),
            "{:?} {:?}",
            after[0],
            opposite
        );
        assert!(close(after[2].pos, v(5.0, 4.0)));
        assert!(set_object_handle(&mut o, HandleId::Radius, v(0.0, 0.0)).is_err());
        assert!(set_object_handle(&mut o, HandleId::Corner(9), v(0.0, 0.0)).is_err());
    }

    #[test]
    fn the_rotate_handle_turns_a_box() {
        let mut shape = ShapeDef::Box {
            center: P(0.0, 0.0),
            half_extents: P(2.0, 1.0),
            rotation_deg: 0.0,
        };
        set_shape_handle(&mut shape, HandleId::Rotate, v(-3.0, 0.0)).unwrap();
        match shape {
            ShapeDef::Box { rotation_deg, .. } => assert!((rotation_deg - 90.0).abs() < 1e-3),
            _ => unreachable!(),
        }
    }

    #[test]
    fn cloth_handles_snap_to_the_grid() {
        let l = level(
            "cloths: [(top_left: (0.0, 5.0), columns: 5, rows: 3, spacing_m: 0.5, pins: At([(0, 0), (4, 0)]))]",
        );
        let r = ObjectRef::new(Kind::Cloth, 0);
        let hs = handles(&l, r);
        assert_eq!(hs.len(), 3);
        assert_eq!(hs[0].pos, v(2.0, 4.0));
        let mut o = Object::get(&l, r).unwrap();
        set_object_handle(&mut o, HandleId::ClothSize, v(3.1, 1.9)).unwrap();
        set_object_handle(&mut o, HandleId::Pin(1), v(1.2, 4.6)).unwrap();
        match o {
            Object::Cloth(c) => {
                assert_eq!((c.columns, c.rows), (7, 7));
                assert_eq!(c.pins, PinsDef::At(vec![(0, 0), (2, 1)]));
            }
            _ => unreachable!(),
        }
    }
}
