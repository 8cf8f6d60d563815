//! Drawing of level objects, one file per kind (matching sim/src/objects/). The static solids
//! and hazards are the level's material meshes in `Art`; what is here is drawn each frame.

pub mod checkpoint;
pub mod cloth;
pub mod fragile;
pub mod goal;
pub mod platform;
pub mod ring;
pub mod sign;
pub mod switch;
pub mod vine;
pub mod winch;
pub mod wind;

use macroquad::shapes::draw_rectangle;
use macroquad::texture::Texture2D;

use super::bodies::{draw_bodies, BodyMesh};
use super::Snapshot;
use crate::sim::level::RectDef;
use crate::sim::objects::ObjectKind;
use crate::sim::World;

/// What the objects in front of the solids are drawn from.
pub struct Frame<'a> {
    pub world: &'a World,
    /// The interpolated poses of this frame.
    pub now: &'a Snapshot,
    /// The rope fibre's texture.
    pub fibre: &'a Texture2D,
    /// The moving bodies' meshes.
    pub bodies: &'a [BodyMesh],
    pub time_s: f32,
}

/// A pass drawn behind the solids: the kind it draws, and how (from the world and the time).
type BehindPass = (ObjectKind, fn(&World, f32));
/// A pass drawn in front of the solids: the kind it draws, and how.
type FrontPass = (ObjectKind, fn(&Frame));

/// Objects that stand behind the level's solids, in drawing order: zones and plates.
const BEHIND: [BehindPass; 5] = [
    (ObjectKind::Checkpoint, checkpoint::draw),
    (ObjectKind::Goal, |world, time_s| {
        goal::draw(&world.level().goal, time_s)
    }),
    (ObjectKind::Switch, |world, _| switch::draw(world)),
    (ObjectKind::Wind, wind::draw),
    (ObjectKind::Sign, |world, _| sign::draw_boards(world)),
];

/// Objects in front of the solids and behind the player, in drawing order: what moves, hangs
/// or is grabbed.
const FRONT: [FrontPass; 11] = [
    (ObjectKind::Platform, |f| platform::draw_tracks(f.world)),
    (ObjectKind::Cloth, |f| cloth::draw(f.world, f.now)),
    (ObjectKind::Winch, |f| {
        winch::draw_ropes(f.world, f.now, f.fibre)
    }),
    // The moving bodies: platforms, winches' platform loads, fragile beams.
    (ObjectKind::Platform, |f| {
        draw_bodies(f.bodies, &f.now.bodies)
    }),
    (ObjectKind::Fragile, |f| {
        fragile::draw_cracks(f.world, f.now)
    }),
    (ObjectKind::Platform, |f| platform::draw_pivots(f.world)),
    (ObjectKind::Winch, |f| winch::draw_weights(f.world, f.now)),
    (ObjectKind::Vine, |f| vine::draw(f.now)),
    (ObjectKind::Ring, |f| ring::draw(f.world, f.time_s)),
    (ObjectKind::Fragile, |f| {
        fragile::draw_rings(f.world, f.time_s)
    }),
    (ObjectKind::Fragile, |f| {
        fragile::draw_loose_ropes(f.world, f.now, f.fibre)
    }),
];

/// The kinds that are the level's own material meshes (`Art`, built once per level), drawn
/// between the two lists above (named for the test that every kind is drawn).
#[cfg(test)]
const IN_LEVEL_MESHES: [ObjectKind; 2] = [ObjectKind::Solid, ObjectKind::Hazard];

/// Objects that stand behind the level's solids: zones and plates.
pub fn draw_behind(world: &World, time_s: f32) {
    for (_, draw) in BEHIND {
        draw(world, time_s);
    }
}

/// Objects in front of the solids and behind the player: what moves, hangs or is grabbed.
pub fn draw_front(
    world: &World,
    now: &Snapshot,
    (fibre, bodies): (Texture2D, &[BodyMesh]),
    time_s: f32,
) {
    let frame = Frame {
        world,
        now,
        fibre: &fibre,
        bodies,
        time_s,
    };
    for (_, draw) in FRONT {
        draw(&frame);
    }
}

fn draw_rect_def(rect: &RectDef, color: macroquad::color::Color) {
    draw_rectangle(
        rect.min.0,
        rect.min.1,
        rect.max.0 - rect.min.0,
        rect.max.1 - rect.min.1,
        color,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind in the simulation's table is drawn: by a pass here or as the level's meshes.
    #[test]
    fn every_kind_of_object_is_drawn() {
        for kind in ObjectKind::ALL {
            let drawn = BEHIND.iter().any(|(k, _)| *k == kind)
                || FRONT.iter().any(|(k, _)| *k == kind)
                || IN_LEVEL_MESHES.contains(&kind);
            assert!(drawn, "nothing draws the {} objects", kind.label());
        }
    }
}
