//! The steps a plan is made of and the inputs and world readings the plans share.

use tether::sim::geometry::Body;
use tether::sim::math::Vec2;
use tether::sim::{InputFrame, World};

#[derive(Clone)]
pub enum Step {
    /// Repeats `input` until `done` holds (checked before each tick).
    Hold {
        input: InputFrame,
        done: fn(&World) -> bool,
    },
    /// One tick of `input`.
    Tap(InputFrame),
    /// Fires at the point `target` gives, aiming from where the player is.
    FireAt(fn(&World) -> Vec2),
    /// Gives the input `input` chooses from the world until `done` holds (pumping a swing).
    Drive {
        input: fn(&World) -> InputFrame,
        done: fn(&World) -> bool,
    },
}

/// Pumps with the swing (pushes the way the player is already going), climbing to hang
/// 7–9 m below the vine's top: a long swing carries far.
pub fn pump(world: &World) -> InputFrame {
    let length_m = world.rope().map_or(8.0, |r| r.length_m);
    InputFrame {
        move_x: if world.player().vel.x >= 0.0 { 1 } else { -1 },
        reel: if length_m < 7.0 {
            -1
        } else if length_m > 9.0 {
            1
        } else {
            0
        },
        ..Default::default()
    }
}

/// Like `pump`, but only while the swing is slower than 11 m/s: waiting on a vine for the ferry
/// without winding the swing up to a fling.
pub fn pump_gently(world: &World) -> InputFrame {
    let mut input = pump(world);
    if world.player().vel.length() > 11.0 {
        input.move_x = 0;
    }
    input
}

/// Swings right, reeling in while the rope is longer than `length_m` (World 1's ring levels).
pub fn reel_to(world: &World, length_m: f32) -> InputFrame {
    InputFrame {
        move_x: 1,
        reel: i8::from(world.rope().is_some_and(|r| r.length_m > length_m)),
        ..Default::default()
    }
}

pub fn release() -> InputFrame {
    InputFrame {
        release_pressed: true,
        ..Default::default()
    }
}

/// On the forward swing, past the vine's hanging line, fast: the moment to let go.
pub fn swinging_forward_past(world: &World, x: f32) -> bool {
    world.player().pos.x > x + 1.5 && world.player().vel.x > 6.0 && world.player().vel.y > 0.0
}

pub fn walk(dir: i8) -> InputFrame {
    InputFrame {
        move_x: dir,
        ..Default::default()
    }
}

pub fn jump(dir: i8) -> InputFrame {
    InputFrame {
        move_x: dir,
        jump_pressed: true,
        jump_held: true,
        ..Default::default()
    }
}

pub fn held_jump(dir: i8) -> InputFrame {
    InputFrame {
        move_x: dir,
        jump_held: true,
        ..Default::default()
    }
}

pub fn platform_x(world: &World, index: u16) -> f32 {
    world.body_pose(Body::Platform(index)).translation.x
}

pub fn platform_y(world: &World, index: u16) -> f32 {
    world.body_pose(Body::Platform(index)).translation.y
}
