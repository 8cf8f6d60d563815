//! The moves every operation needs: an object translated, or turned about a point.

use super::*;

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
