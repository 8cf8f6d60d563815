//! Each kind's editing, one [`EditKind`] impl per definition: the template `Create` makes,
//! bounds, what a click hits, handles and dragging them, moving and turning. A kind in the
//! simulation's table without an impl here does not compile (`Object` dispatches to it).

use super::handles::{fragile_handles, length_below, set_cloth_handle};
use super::*;
use crate::editor::handle::no_handle;
use crate::editor::kinds::Kind;
use crate::editor::object::{fresh_id_in, CreateError, EditKind};
use crate::sim::level::{
    CheckpointDef, DriveDef, HazardDef, PlatformDef, RingDef, SignDef, SolidDef, SwitchDef,
    VineDef, WindDef,
};
use crate::sim::objects::cloth::ClothLook;

/// The id a new switch is given (made unique: `switch-2`, ...).
pub const NEW_SWITCH_ID: &str = "switch";
/// The text of a new sign.
pub const NEW_SIGN_TEXT: &str = "Sign";

/// How a click ranks kinds under the mouse: small markers first, then the level's bodies, the
/// invisible wind regions last.
const MARKER: u8 = 0;
const BODY: u8 = 1;
const REGION: u8 = 2;

/// A box of half extents `hx` × `hy` m at the origin, unturned: the templates' shape.
fn box_at(hx: f32, hy: f32) -> ShapeDef {
    ShapeDef::Box {
        center: P(0.0, 0.0),
        half_extents: P(hx, hy),
        rotation_deg: 0.0,
    }
}

fn moved(q: &mut P, delta: Vec2) {
    *q = p(q.v() + delta);
}

fn turned(q: &mut P, about: Vec2, deg: f32) {
    *q = p(rotate_about(q.v(), about, deg));
}

fn near(at: Vec2, q: Vec2, radius_m: f32, tolerance_m: f32) -> bool {
    at.distance(q) <= radius_m + tolerance_m
}

fn on_rope(at: Vec2, top: Vec2, length_m: f32, tolerance_m: f32) -> bool {
    segment_distance(at, top, top - v(0.0, length_m)) <= tolerance_m + ROPE_HALF_WIDTH_M
}

fn set_rect_handle(min: &mut P, max: &mut P, id: HandleId, to: Vec2) -> Result<(), HandleError> {
    match id {
        HandleId::Corner(i) => set_rect_corner(min, max, i, to),
        _ => Err(no_handle(id)),
    }
}

/// Cloths and signs stay axis-aligned when turned: only their centre moves.
fn turn_centre<T: EditKind>(def: &mut T, about: Vec2, deg: f32) {
    let (lo, hi) = def.bounds();
    let center = (lo + hi) * 0.5;
    def.translate(rotate_about(center, about, deg) - center);
}

/// The editing every axis-aligned rectangle kind (goal, checkpoint, switch: a `min` and a
/// `max` corner) shares: its box is its bounds and its hit area, its corners are its handles,
/// and turning keeps it axis-aligned (`rotate_rect`). Used inside each kind's `EditKind` impl,
/// next to what differs (template, pick rank, id).
macro_rules! rect_editing {
    () => {
        fn bounds(&self) -> (Vec2, Vec2) {
            rect_bounds(self.min, self.max)
        }
        fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
            in_bounds(self.bounds(), at, tolerance_m)
        }
        fn handles(&self, out: &mut Vec<Handle>) {
            rect_handles(self.min, self.max, out)
        }
        fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
            set_rect_handle(&mut self.min, &mut self.max, id, to)
        }
        fn translate(&mut self, delta: Vec2) {
            moved(&mut self.min, delta);
            moved(&mut self.max, delta);
        }
        fn rotate(&mut self, about: Vec2, deg: f32) {
            rotate_rect(&mut self.min, &mut self.max, about, deg)
        }
    };
}

impl EditKind for RectDef {
    const PICK_RANK: u8 = BODY;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Err(CreateError::OnlyOne(Kind::Goal))
    }
    rect_editing!();
}

impl EditKind for SolidDef {
    const PICK_RANK: u8 = BODY;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(SolidDef {
            id: None,
            shape: box_at(2.0, 0.5),
            hookable: true,
        })
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        shape_bounds(&self.shape)
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        shape_contains(&self.shape, at, tolerance_m)
    }
    fn handles(&self, out: &mut Vec<Handle>) {
        shape_handles(&self.shape, out)
    }
    fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        set_shape_handle(&mut self.shape, id, to)
    }
    fn translate(&mut self, delta: Vec2) {
        translate_shape(&mut self.shape, delta)
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        rotate_shape(&mut self.shape, about, deg)
    }
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}

impl EditKind for HazardDef {
    const PICK_RANK: u8 = BODY;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(HazardDef(box_at(2.0, 0.5)))
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        shape_bounds(&self.0)
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        shape_contains(&self.0, at, tolerance_m)
    }
    fn handles(&self, out: &mut Vec<Handle>) {
        shape_handles(&self.0, out)
    }
    fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        set_shape_handle(&mut self.0, id, to)
    }
    fn translate(&mut self, delta: Vec2) {
        translate_shape(&mut self.0, delta)
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        rotate_shape(&mut self.0, about, deg)
    }
}

impl EditKind for CheckpointDef {
    const PICK_RANK: u8 = MARKER;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(CheckpointDef {
            id: None,
            min: P(-1.0, -1.5),
            max: P(1.0, 1.5),
        })
    }
    rect_editing!();
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}

impl EditKind for RingDef {
    const PICK_RANK: u8 = MARKER;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(RingDef(P(0.0, 0.0)))
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        around(self.v(), Vec2::splat(RING_RADIUS_M))
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        near(at, self.v(), RING_RADIUS_M, tolerance_m)
    }
    fn translate(&mut self, delta: Vec2) {
        moved(&mut self.0, delta)
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        turned(&mut self.0, about, deg)
    }
}

/// A platform's path and pivot move and turn with its shape.
impl EditKind for PlatformDef {
    const PICK_RANK: u8 = BODY;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(PlatformDef {
            id: None,
            shape: box_at(2.0, 0.3),
            hookable: true,
            motion: MotionDef::Path {
                points: vec![P(0.0, 0.0), P(8.0, 0.0)],
                speed_m_per_s: 3.0,
                ping_pong: true,
                pause_s: 0.0,
            },
        })
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        shape_bounds(&self.shape)
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        shape_contains(&self.shape, at, tolerance_m)
    }
    fn handles(&self, out: &mut Vec<Handle>) {
        shape_handles(&self.shape, out);
        match &self.motion {
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
    fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        match (&mut self.motion, id) {
            (MotionDef::Path { points, .. }, HandleId::Waypoint(i)) if i < points.len() => {
                points[i] = p(to);
                Ok(())
            }
            (MotionDef::Rotate { pivot, .. }, HandleId::Pivot) => {
                *pivot = p(to);
                Ok(())
            }
            _ => set_shape_handle(&mut self.shape, id, to),
        }
    }
    fn translate(&mut self, delta: Vec2) {
        translate_shape(&mut self.shape, delta);
        match &mut self.motion {
            MotionDef::Path { points, .. } => points.iter_mut().for_each(|q| moved(q, delta)),
            MotionDef::Rotate { pivot, .. } => moved(pivot, delta),
        }
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        rotate_shape(&mut self.shape, about, deg);
        match &mut self.motion {
            MotionDef::Path { points, .. } => points.iter_mut().for_each(|q| turned(q, about, deg)),
            MotionDef::Rotate { pivot, .. } => turned(pivot, about, deg),
        }
    }
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}

impl EditKind for SwitchDef {
    const PICK_RANK: u8 = MARKER;
    fn template(level: &LevelDef) -> Result<Self, CreateError> {
        Ok(SwitchDef {
            id: fresh_id_in(level, NEW_SWITCH_ID),
            min: P(-1.0, -0.25),
            max: P(1.0, 0.25),
        })
    }
    rect_editing!();
    fn set_id(&mut self, id: String) -> bool {
        self.id = id;
        true
    }
}

/// A winch is its drum and rope down to its load at the start length; its handles set the
/// reeled-in, paid-out and start lengths.
impl EditKind for WinchDef {
    const PICK_RANK: u8 = MARKER;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(WinchDef {
            id: None,
            at: P(0.0, 0.0),
            min_length_m: 2.0,
            max_length_m: 8.0,
            start_length_m: None,
            speed_m_per_s: 2.0,
            load: LoadDef::Weight {
                radius_m: 0.5,
                mass_kg: 50.0,
            },
            drive: DriveDef::Timer { wait_s: 1.0 },
        })
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        union(
            rope_bounds(self.at.v(), winch_start_m(self)),
            load_bounds(self.at.v(), &self.load, winch_start_m(self)),
        )
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        let load = load_bounds(self.at.v(), &self.load, winch_start_m(self));
        on_rope(at, self.at.v(), winch_start_m(self), tolerance_m)
            || in_bounds(load, at, tolerance_m)
    }
    fn handles(&self, out: &mut Vec<Handle>) {
        let at = self.at.v();
        let below = |length_m: f32| at - v(0.0, length_m);
        out.push(handle(
            HandleId::MinLength,
            below(self.min_length_m),
            HandleRole::Length,
        ));
        out.push(handle(
            HandleId::MaxLength,
            below(self.max_length_m),
            HandleRole::Length,
        ));
        if let Some(start) = self.start_length_m {
            out.push(handle(
                HandleId::StartLength,
                below(start),
                HandleRole::Length,
            ));
        }
    }
    fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        let len = length_below(self.at, to);
        match id {
            HandleId::MinLength => self.min_length_m = len,
            HandleId::MaxLength => self.max_length_m = len,
            HandleId::StartLength if self.start_length_m.is_some() => {
                self.start_length_m = Some(len)
            }
            _ => return Err(no_handle(id)),
        }
        Ok(())
    }
    fn translate(&mut self, delta: Vec2) {
        moved(&mut self.at, delta)
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        turned(&mut self.at, about, deg)
    }
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}

impl EditKind for VineDef {
    const PICK_RANK: u8 = MARKER;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(VineDef {
            id: None,
            at: P(0.0, 0.0),
            length_m: 6.0,
            weight_kg: 0.0,
        })
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        rope_bounds(self.at.v(), self.length_m)
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        on_rope(at, self.at.v(), self.length_m, tolerance_m)
    }
    fn handles(&self, out: &mut Vec<Handle>) {
        out.push(handle(
            HandleId::Length,
            self.at.v() - v(0.0, self.length_m),
            HandleRole::Length,
        ))
    }
    fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        match id {
            HandleId::Length => {
                self.length_m = length_below(self.at, to);
                Ok(())
            }
            _ => Err(no_handle(id)),
        }
    }
    fn translate(&mut self, delta: Vec2) {
        moved(&mut self.at, delta)
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        turned(&mut self.at, about, deg)
    }
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}

/// A wind zone's direction handle sits off its centre; turning the zone turns its direction.
impl EditKind for WindDef {
    const PICK_RANK: u8 = REGION;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(WindDef {
            id: None,
            region: box_at(4.0, 3.0),
            direction_deg: 0.0,
            speed_m_per_s: 5.0,
            gust: None,
        })
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        shape_bounds(&self.region)
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        shape_contains(&self.region, at, tolerance_m)
    }
    fn handles(&self, out: &mut Vec<Handle>) {
        shape_handles(&self.region, out);
        let (lo, hi) = shape_bounds(&self.region);
        out.push(handle(
            HandleId::Direction,
            (lo + hi) * 0.5 + rotate_vec(v(DIRECTION_HANDLE_M, 0.0), self.direction_deg),
            HandleRole::Direction,
        ));
    }
    fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        match id {
            HandleId::Direction => {
                let (lo, hi) = shape_bounds(&self.region);
                let dir = to - (lo + hi) * 0.5;
                if dir.length_squared() > 0.0 {
                    self.direction_deg = angle_deg(dir);
                }
                Ok(())
            }
            _ => set_shape_handle(&mut self.region, id, to),
        }
    }
    fn translate(&mut self, delta: Vec2) {
        translate_shape(&mut self.region, delta)
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        rotate_shape(&mut self.region, about, deg);
        self.direction_deg = wrap_deg(self.direction_deg + deg);
    }
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}

/// A fragile anchor is a beam (a shape) or a cracked ring (a point).
impl EditKind for FragileDef {
    const PICK_RANK: u8 = BODY;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(FragileDef {
            id: None,
            anchor: FragileAnchorDef::Beam {
                shape: box_at(1.5, 0.3),
            },
            breaks_at_n: 4000.0,
            after_s: 0.5,
        })
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        match &self.anchor {
            FragileAnchorDef::Beam { shape } => shape_bounds(shape),
            FragileAnchorDef::Ring { at } => around(at.v(), Vec2::splat(RING_RADIUS_M)),
        }
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        match &self.anchor {
            FragileAnchorDef::Beam { shape } => shape_contains(shape, at, tolerance_m),
            FragileAnchorDef::Ring { at: ring } => near(at, ring.v(), RING_RADIUS_M, tolerance_m),
        }
    }
    fn handles(&self, out: &mut Vec<Handle>) {
        fragile_handles(self, out)
    }
    fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        match &mut self.anchor {
            FragileAnchorDef::Beam { shape } => set_shape_handle(shape, id, to),
            FragileAnchorDef::Ring { .. } => Err(no_handle(id)),
        }
    }
    fn translate(&mut self, delta: Vec2) {
        match &mut self.anchor {
            FragileAnchorDef::Beam { shape } => translate_shape(shape, delta),
            FragileAnchorDef::Ring { at } => moved(at, delta),
        }
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        match &mut self.anchor {
            FragileAnchorDef::Beam { shape } => rotate_shape(shape, about, deg),
            FragileAnchorDef::Ring { at } => turned(at, about, deg),
        }
    }
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}

/// A cloth's grid hangs flat from `top_left`; its handles size the grid and place its pins,
/// snapped to the grid (its pins are cells, so they come along when it moves).
impl EditKind for ClothDef {
    const PICK_RANK: u8 = MARKER;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(ClothDef {
            id: None,
            top_left: P(0.0, 0.0),
            columns: 6,
            rows: 8,
            spacing_m: 0.3,
            pins: PinsDef::TopRow,
            tears_at_stretch: None,
            look: ClothLook::Banner,
        })
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        cloth_bounds(self)
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        in_bounds(self.bounds(), at, tolerance_m)
    }
    fn handles(&self, out: &mut Vec<Handle>) {
        let last = (self.columns.saturating_sub(1), self.rows.saturating_sub(1));
        out.push(handle(
            HandleId::ClothSize,
            cloth_particle(self, last.0, last.1),
            HandleRole::Resize,
        ));
        if let PinsDef::At(pins) = &self.pins {
            for (k, &(c, r)) in pins.iter().enumerate() {
                out.push(handle(
                    HandleId::Pin(k),
                    cloth_particle(self, c, r),
                    HandleRole::Pin,
                ));
            }
        }
    }
    fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        set_cloth_handle(self, id, to)
    }
    fn translate(&mut self, delta: Vec2) {
        moved(&mut self.top_left, delta)
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        turn_centre(self, about, deg)
    }
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}

impl EditKind for SignDef {
    const PICK_RANK: u8 = MARKER;
    fn template(_level: &LevelDef) -> Result<Self, CreateError> {
        Ok(SignDef {
            id: None,
            at: P(0.0, 0.0),
            text: NEW_SIGN_TEXT.to_string(),
        })
    }
    fn bounds(&self) -> (Vec2, Vec2) {
        sign_bounds(self.at)
    }
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        in_bounds(self.bounds(), at, tolerance_m)
    }
    fn translate(&mut self, delta: Vec2) {
        moved(&mut self.at, delta)
    }
    fn rotate(&mut self, about: Vec2, deg: f32) {
        turn_centre(self, about, deg)
    }
    fn set_id(&mut self, id: String) -> bool {
        self.id = Some(id);
        true
    }
}
