//! The handles the editor draws on a selected object: which one, where, and what dragging it
//! does. (`geometry` places them; each kind's `EditKind` impl lists and drags its own.)

use crate::sim::math::Vec2;

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

/// Why a handle could not be moved: what the status bar shows after the object's name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HandleError {
    /// The object has no such handle (a stale drag, a handle of another kind).
    NoHandle(HandleId),
    /// A cloth's size handle works in steps of its spacing, which is not a positive number.
    ClothSpacing { spacing_m: f32 },
}

impl std::fmt::Display for HandleError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            HandleError::NoHandle(id) => write!(f, "has no handle {id:?}"),
            HandleError::ClothSpacing { spacing_m } => write!(
                f,
                "cannot be resized by hand while its spacing_m is {spacing_m}"
            ),
        }
    }
}

impl std::error::Error for HandleError {}

/// The refusal of a handle the object does not have.
pub fn no_handle(id: HandleId) -> HandleError {
    HandleError::NoHandle(id)
}
