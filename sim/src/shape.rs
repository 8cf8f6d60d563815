//! The shapes level files are written in: points, rectangles and the solid shapes (box, circle,
//! convex polygon), as plain data. Every kind of level object builds on them.

use serde::{Deserialize, Serialize};

use crate::math::Vec2;

/// A point or extent in metres, written `(x, y)` in RON. World y points up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct P(pub f32, pub f32);

impl P {
    pub fn v(self) -> Vec2 {
        Vec2::new(self.0, self.1)
    }
}

/// A shape in world space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShapeDef {
    /// A rectangle, optionally rotated counter-clockwise about its centre.
    Box {
        center: P,
        half_extents: P,
        #[serde(default)]
        rotation_deg: f32,
    },
    Circle {
        center: P,
        radius: f32,
    },
    /// A convex polygon, points in order (either winding).
    Polygon {
        points: Vec<P>,
    },
}

/// An axis-aligned rectangle given by its corners.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RectDef {
    pub min: P,
    pub max: P,
}

impl RectDef {
    pub fn center(&self) -> Vec2 {
        (self.min.v() + self.max.v()) * 0.5
    }
}
