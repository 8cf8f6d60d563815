//! Where objects are: their bounds, what is under the mouse, box selection, and the handles the
//! editor draws on a selected object and the changes dragging one makes. Also the moves every
//! operation needs (translate, rotate). Every kind is handled in exhaustive matches.
//!
//! This file holds the handle types, the sizes the editor gives markers and the small vector
//! helpers; `shape` the geometry of shapes and rectangles, `bounds` bounds and picking,
//! `handles` the handles and dragging them, `transform` moving and turning whole objects.

use super::kinds::{all_objects, ObjectRef};
use super::object::Object;
use crate::sim::level::{
    ClothDef, FragileDef, LevelDef, LoadDef, MotionDef, RectDef, ShapeDef, WinchDef, P,
};
use crate::sim::math::Vec2;
use crate::sim::objects::cloth::{PinsDef, MAX_CLOTH_SIDE, MIN_CLOTH_SIDE};
use crate::sim::objects::fragile::FragileAnchorDef;

mod bounds;
mod handles;
mod per_kind;
mod shape;
mod transform;

// The parts share their helpers through this module (and the tests below see them all).
use bounds::*;
use shape::*;

pub use super::handle::{Handle, HandleError, HandleId, HandleRole};
pub use bounds::{
    bounds, level_handles, object_bounds, object_hit, objects_in_rect, pick, pick_spawn,
};
pub use handles::{handles, object_handles, set_object_handle};
pub use per_kind::{NEW_SIGN_TEXT, NEW_SWITCH_ID};
pub use shape::{shape_bounds, shape_contains, translate_shape};
pub use transform::{rotate_object, translate_object};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::kinds::Kind;
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
        assert_eq!(
            set_object_handle(&mut o, HandleId::Radius, v(0.0, 0.0)),
            Err(HandleError::NoHandle(HandleId::Radius))
        );
        assert_eq!(
            set_object_handle(&mut o, HandleId::Corner(9), v(0.0, 0.0)),
            Err(HandleError::NoHandle(HandleId::Corner(9)))
        );
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
