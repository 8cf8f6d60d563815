//! The moves every operation needs: an object translated, or turned about a point.

use super::*;

/// Moves everything of the object by `delta`: a platform's path and pivot too; a cloth's pins
/// are grid cells, so they come along.
pub fn translate_object(object: &mut Object, delta: Vec2) {
    object.translate(delta)
}

/// Turns the object by `deg` counter-clockwise about `about`. Boxes turn; polygons turn their
/// points; circles and points move their centre; rectangles (goal, checkpoints, switches),
/// cloths and signs stay axis-aligned and only move their centre; a wind zone turns its
/// direction with its region; a platform turns its path and pivot with its shape.
pub fn rotate_object(object: &mut Object, about: Vec2, deg: f32) {
    object.rotate(about, deg)
}
