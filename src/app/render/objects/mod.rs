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

use super::Snapshot;
use crate::sim::level::RectDef;
use crate::sim::World;
use macroquad::texture::Texture2D;

use super::bodies::{draw_bodies, BodyMesh};

/// Objects that stand behind the level's solids: zones and plates.
pub fn draw_behind(world: &World, time_s: f32) {
    checkpoint::draw(world, time_s);
    goal::draw(&world.level.goal, time_s);
    switch::draw(world);
    wind::draw(world, time_s);
    sign::draw_boards(world);
}

/// Objects in front of the solids and behind the player: what moves, hangs or is grabbed.
pub fn draw_front(
    world: &World,
    now: &Snapshot,
    (fibre, bodies): (Texture2D, &[BodyMesh]),
    time_s: f32,
) {
    platform::draw_tracks(world);
    cloth::draw(world, now);
    winch::draw_ropes(world, now, &fibre);
    draw_bodies(bodies, &now.bodies);
    fragile::draw_cracks(world, now);
    platform::draw_pivots(world);
    winch::draw_weights(world, now);
    vine::draw(now);
    ring::draw(world, time_s);
    fragile::draw_rings(world, time_s);
    fragile::draw_loose_ropes(world, now, &fibre);
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
