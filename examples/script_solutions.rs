//! Plays the object levels (09–11) with a scripted plan per level and writes their solution
//! replays. Each step holds an input until a condition on the world is met (the ferry has
//! arrived, the lift is at the top), so the plan reads like a player's: wait for it, step on,
//! ride, jump off. The inputs go through the real simulation and are what the replay stores.
//!
//!   cargo run --release --example script_solutions -- levels/09_ferry.ron

use std::path::Path;
use std::sync::Arc;

use tether::sim::geometry::Body;
use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::{InputFrame, Replay, World};

/// Longest any step may take before the plan is called broken.
const STEP_LIMIT_TICKS: u64 = 3000;

enum Step {
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
fn pump(world: &World) -> InputFrame {
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
fn pump_gently(world: &World) -> InputFrame {
    let mut input = pump(world);
    if world.player().vel.length() > 11.0 {
        input.move_x = 0;
    }
    input
}

/// Swings right, reeling in while the rope is longer than `length_m` (World 1's ring levels).
fn reel_to(world: &World, length_m: f32) -> InputFrame {
    InputFrame {
        move_x: 1,
        reel: i8::from(world.rope().is_some_and(|r| r.length_m > length_m)),
        ..Default::default()
    }
}

fn release() -> InputFrame {
    InputFrame {
        release_pressed: true,
        ..Default::default()
    }
}

/// On the forward swing, past the vine's hanging line, fast: the moment to let go.
fn swinging_forward_past(world: &World, x: f32) -> bool {
    world.player().pos.x > x + 1.5 && world.player().vel.x > 6.0 && world.player().vel.y > 0.0
}

fn walk(dir: i8) -> InputFrame {
    InputFrame {
        move_x: dir,
        ..Default::default()
    }
}

fn jump(dir: i8) -> InputFrame {
    InputFrame {
        move_x: dir,
        jump_pressed: true,
        jump_held: true,
        ..Default::default()
    }
}

fn held_jump(dir: i8) -> InputFrame {
    InputFrame {
        move_x: dir,
        jump_held: true,
        ..Default::default()
    }
}

fn platform_x(world: &World, index: u16) -> f32 {
    world.body_pose(Body::Platform(index)).translation.x
}

fn platform_y(world: &World, index: u16) -> f32 {
    world.body_pose(Body::Platform(index)).translation.y
}

fn plan(level: &str) -> Vec<Step> {
    use Step::*;
    match level {
        // Wait for the ferry at the edge, step on, ride to the far side, walk to the lift,
        // ride it up and walk into the goal.
        "09_ferry.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -1.2,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| platform_x(w, 0) < 0.05 && w.tick() > 10,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 1.5,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| platform_x(w, 0) > 11.9,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 20.8,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| platform_y(w, 1) < 0.05,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 23.0,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| platform_y(w, 1) > 6.9,
            },
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        // Walk onto the hanging platform and stop, ride it to the top (standing in the shaft
        // holds the switch), then jump right onto the wall with the goal.
        "10_rope_lift.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 0.0,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().vel.x.abs() < 0.05,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.player().pos.x > 2.4,
            },
            Hold {
                input: held_jump(-1),
                done: |w| w.player().vel.x < 0.5,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().grounded,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().grounded && w.winches()[0].rope.length_m <= 4.51,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().grounded,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.player().grounded || w.is_completed(),
            },
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        // Run to the edge, hook the drifting beam when it is near, ride it across, let go
        // over the far ledge.
        "11_moving_anchor.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -1.0,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| platform_x(w, 0) > 1.0,
            },
            FireAt(|w| Vec2::new(3.0 + platform_x(w, 0), 9.6)),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Hold {
                input: InputFrame {
                    move_x: 1,
                    reel: 1,
                    ..Default::default()
                },
                done: |w| w.rope().is_some_and(|r| r.length_m < 6.0),
            },
            // Ride to the far end of the beam's path, pumping, and let go on a swing forward.
            Hold {
                input: walk(1),
                done: |w| platform_x(w, 0) > 17.0,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 21.0 && w.player().vel.x > 2.5,
            },
            Tap(InputFrame {
                release_pressed: true,
                ..Default::default()
            }),
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        // Run and jump into the first vine; pump until the swing carries forward, jump off
        // into the next, and again; the last lets go over the far ledge.
        "12_vines.ron" => {
            let mut steps = vec![
                Hold {
                    input: walk(1),
                    done: |w| w.player().pos.x > -0.6,
                },
                Tap(jump(1)),
            ];
            // Catch each vine, pump, and jump off on the forward swing.
            let caught: [fn(&World) -> bool; 4] = [
                |w| w.held_vine() == Some(0),
                |w| w.held_vine() == Some(1),
                |w| w.held_vine() == Some(2),
                |w| w.held_vine() == Some(3),
            ];
            let let_go: [fn(&World) -> bool; 4] = [
                |w| swinging_forward_past(w, 3.0),
                |w| swinging_forward_past(w, 8.5),
                |w| swinging_forward_past(w, 14.0),
                |w| swinging_forward_past(w, 19.0),
            ];
            for (caught, let_go) in caught.into_iter().zip(let_go) {
                steps.push(Hold {
                    input: held_jump(1),
                    done: caught,
                });
                steps.push(Drive {
                    input: pump,
                    done: let_go,
                });
                steps.push(Tap(jump(1)));
            }
            // Steer for the middle of the goal while flying.
            steps.push(Drive {
                input: |w| walk(if w.player().pos.x < 28.5 { 1 } else { -1 }),
                done: |w| w.is_completed(),
            });
            steps
        }
        // World 2: hook the shuttling block from the edge, reel in and ride it to its far end,
        // let go over the island; wait for the riser at the bottom, hook it, swing while it
        // lifts you and let go over the high ledge.
        "13_shuttle_hooks.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -1.0,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().vel.x.abs() < 0.05,
            },
            FireAt(|w| Vec2::new(4.0 + platform_x(w, 0), 9.0 + platform_y(w, 0))),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Hold {
                input: InputFrame {
                    reel: 1,
                    ..Default::default()
                },
                done: |w| w.rope().is_some_and(|r| r.length_m < 5.0),
            },
            Hold {
                input: InputFrame::default(),
                done: |w| platform_x(w, 0) > 8.0,
            },
            Drive {
                input: |w| walk(if w.player().vel.x >= 0.0 { 1 } else { -1 }),
                done: |w| w.player().pos.x > 14.5 && w.player().vel.x < 2.5,
            },
            Tap(InputFrame {
                release_pressed: true,
                ..Default::default()
            }),
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().grounded,
            },
            Drive {
                input: |w| walk(if w.player().pos.x < 18.0 { 1 } else { 0 }),
                done: |w| w.player().pos.x >= 18.0 && w.player().vel.x.abs() < 0.05,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| platform_y(w, 1) < 0.05,
            },
            FireAt(|w| Vec2::new(23.0 + platform_x(w, 1), 3.0 + platform_y(w, 1))),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| InputFrame {
                    move_x: if w.player().vel.x >= 0.0 { 1 } else { -1 },
                    reel: if w.rope().is_some_and(|r| r.length_m > 4.0) {
                        1
                    } else {
                        0
                    },
                    ..Default::default()
                },
                done: |w| {
                    w.player().pos.x > 24.5 && w.player().pos.y > 8.0 && w.player().vel.x > 1.0
                },
            },
            Tap(InputFrame {
                release_pressed: true,
                ..Default::default()
            }),
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        // World 2: stand on the plate until the bridge is up, run and jump onto it and off to
        // the far floor; hook the weight, step off into its shaft (which hauls it up), pump and
        // let go over the tower.
        "14_drawbridge.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -2.0,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| w.winches()[0].rope.length_m <= 11.95,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -0.4,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 8.4,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 18.5,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().vel.x.abs() < 0.05,
            },
            FireAt(|w| w.winches()[1].rope.end() - Vec2::new(0.0, 0.67)),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Hold {
                input: walk(1),
                done: |w| !w.player().grounded,
            },
            Drive {
                input: |w| InputFrame {
                    move_x: if w.player().vel.x >= 0.0 { 1 } else { -1 },
                    reel: if w.rope().is_some_and(|r| r.length_m > 3.0) {
                        1
                    } else {
                        0
                    },
                    ..Default::default()
                },
                done: |w| {
                    w.player().pos.x > 24.0
                        && w.player().pos.y > 10.5
                        && w.player().vel.x > 3.0
                        && w.player().vel.y > 0.0
                },
            },
            Tap(InputFrame {
                release_pressed: true,
                ..Default::default()
            }),
            Drive {
                input: |w| walk(if w.player().pos.x < 29.0 { 1 } else { -1 }),
                done: |w| w.is_completed(),
            },
        ],
        // World 2: jump into the first vine, pump, and let go over the ferry when it is at the
        // near end; ride it to the far end, jump into the second vine, swing to the third and
        // let go over the goal.
        "15_vine_ferry.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -0.6,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.held_vine() == Some(0),
            },
            Drive {
                input: pump,
                done: |w| {
                    swinging_forward_past(w, 3.0)
                        && platform_x(w, 0) < 2.0
                        && w.player().pos.y > 6.0
                },
            },
            Tap(jump(1)),
            Drive {
                input: |w| {
                    walk(if w.player().pos.x < 11.0 + platform_x(w, 0) {
                        1
                    } else {
                        -1
                    })
                },
                done: |w| w.player().grounded,
            },
            Drive {
                input: |w| {
                    walk(if w.player().pos.x < 11.0 + platform_x(w, 0) {
                        1
                    } else {
                        -1
                    })
                },
                done: |w| platform_x(w, 0) > 6.95,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 19.5,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.held_vine() == Some(1),
            },
            Drive {
                input: pump,
                done: |w| swinging_forward_past(w, 23.0),
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.held_vine() == Some(2),
            },
            Drive {
                input: pump,
                done: |w| swinging_forward_past(w, 29.0),
            },
            Tap(jump(1)),
            Drive {
                input: |w| walk(if w.player().pos.x < 36.5 { 1 } else { -1 }),
                done: |w| w.is_completed(),
            },
        ],
        // World 2's finale, the plans of 14, 15 and 13 in turn: raise the bridge and run across,
        // vine, ferry, vines, then hook the riser and let it lift you to the goal.
        "16_mill_run.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -2.0,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| w.winches()[0].rope.length_m <= 11.95,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -0.4,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 8.4,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 19.4,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.held_vine() == Some(0),
            },
            Drive {
                input: pump_gently,
                done: |w| {
                    swinging_forward_past(w, 23.0)
                        && platform_x(w, 0) < 2.0
                        && w.player().pos.y > 4.0
                },
            },
            Tap(jump(1)),
            Drive {
                input: |w| {
                    walk(if w.player().pos.x < 31.0 + platform_x(w, 0) {
                        1
                    } else {
                        -1
                    })
                },
                done: |w| w.player().grounded,
            },
            Drive {
                input: |w| {
                    walk(if w.player().pos.x < 31.0 + platform_x(w, 0) {
                        1
                    } else {
                        -1
                    })
                },
                done: |w| platform_x(w, 0) > 6.95,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 39.5,
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.held_vine() == Some(1),
            },
            Drive {
                input: pump,
                done: |w| swinging_forward_past(w, 43.0),
            },
            Tap(jump(1)),
            Hold {
                input: held_jump(1),
                done: |w| w.held_vine() == Some(2),
            },
            Drive {
                input: pump,
                done: |w| swinging_forward_past(w, 49.0),
            },
            Tap(jump(1)),
            Drive {
                input: |w| walk(if w.player().pos.x < 56.5 { 1 } else { -1 }),
                done: |w| w.player().grounded,
            },
            Drive {
                input: |w| walk(if w.player().pos.x < 60.0 { 1 } else { 0 }),
                done: |w| w.player().pos.x >= 60.0 && w.player().vel.x.abs() < 0.05,
            },
            Hold {
                input: InputFrame::default(),
                done: |w| platform_y(w, 1) < 0.05,
            },
            FireAt(|w| Vec2::new(65.0 + platform_x(w, 1), 3.0 + platform_y(w, 1))),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| InputFrame {
                    move_x: if w.player().vel.x >= 0.0 { 1 } else { -1 },
                    reel: if w.rope().is_some_and(|r| r.length_m > 4.0) {
                        1
                    } else {
                        0
                    },
                    ..Default::default()
                },
                done: |w| {
                    w.player().pos.x > 66.5 && w.player().pos.y > 8.0 && w.player().vel.x > 1.0
                },
            },
            Tap(InputFrame {
                release_pressed: true,
                ..Default::default()
            }),
            Drive {
                input: |w| walk(if w.player().pos.x < 71.5 { 1 } else { -1 }),
                done: |w| w.is_completed(),
            },
        ],
        // World 1, level 4: hook the ring over the shaft from its edge, step off and let rope
        // out to hang level with the tunnel, swing into it and let go, walk through to the
        // chamber, hook the second ring, reel in and swing onto the block with the goal.
        "04_down_the_shaft.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -1.0,
            },
            FireAt(|_| Vec2::new(3.5, 3.0)),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Hold {
                input: walk(1),
                done: |w| !w.player().grounded,
            },
            Hold {
                input: InputFrame {
                    reel: -1,
                    ..Default::default()
                },
                done: |w| w.rope().is_some_and(|r| r.length_m > 11.8),
            },
            Drive {
                input: |w| walk(if w.player().vel.x >= 0.0 { 1 } else { -1 }),
                done: |w| w.player().pos.x > 5.4,
            },
            Tap(InputFrame {
                release_pressed: true,
                ..Default::default()
            }),
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 23.0 && w.player().grounded,
            },
            FireAt(|_| Vec2::new(28.0, 1.0)),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Hold {
                input: InputFrame {
                    reel: 1,
                    ..Default::default()
                },
                done: |w| w.rope().is_some_and(|r| r.length_m < 3.0),
            },
            Drive {
                input: |w| walk(if w.player().vel.x >= 0.0 { 1 } else { -1 }),
                done: |w| w.player().pos.x > 29.4 && w.player().pos.y > -3.0,
            },
            Tap(InputFrame {
                release_pressed: true,
                ..Default::default()
            }),
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        // World 1, level 5: hook the first wooden plank in the steel roof, swing and let go over
        // the middle ledge, hook the second plank from there and swing to the goal.
        "05_steel_roof.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -1.5,
            },
            Tap(jump(1)),
            FireAt(|_| Vec2::new(5.5, 8.4)),
            Hold {
                input: held_jump(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 8.0),
                done: |w| w.player().pos.x > 10.5 && w.player().vel.x < 2.0,
            },
            Tap(release()),
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 14.2,
            },
            Tap(jump(1)),
            FireAt(|_| Vec2::new(20.5, 8.4)),
            Hold {
                input: held_jump(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 8.0),
                done: |w| w.player().pos.x > 25.5 && w.player().vel.x > 0.0,
            },
            Tap(release()),
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        // World 1, level 6: swing over the first spike bed and let go over the island, hook the
        // second ring, reel in to clear the raised bed and swing to the goal.
        "06_spike_pits.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -1.5,
            },
            Tap(jump(1)),
            FireAt(|_| Vec2::new(6.0, 6.0)),
            Hold {
                input: held_jump(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 7.0),
                done: |w| w.player().pos.x > 11.0 && w.player().vel.x < 2.0,
            },
            Tap(release()),
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 15.2,
            },
            FireAt(|_| Vec2::new(22.0, 6.5)),
            Hold {
                input: walk(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 6.0),
                done: |w| w.player().pos.x > 27.0 && w.player().vel.x > 0.0,
            },
            Tap(release()),
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        // World 1, level 7: ring to ring over three spike pits, landing on both islands (their
        // checkpoints) under the steel curtains.
        "07_long_haul.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -1.5,
            },
            Tap(jump(1)),
            FireAt(|_| Vec2::new(5.0, 6.0)),
            Hold {
                input: held_jump(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 5.5),
                done: |w| w.player().pos.x > 9.5 && w.player().vel.x < 5.0,
            },
            Tap(release()),
            Hold {
                input: walk(1),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 14.2,
            },
            FireAt(|_| Vec2::new(20.0, 6.5)),
            Hold {
                input: walk(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 6.0),
                done: |w| w.player().pos.x > 22.0 && w.player().vel.x > 0.0,
            },
            FireAt(|_| Vec2::new(26.5, 7.0)),
            Hold {
                input: walk(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 6.0),
                done: |w| w.player().pos.x > 30.0 && w.player().vel.x > 0.0,
            },
            Tap(release()),
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 34.2,
            },
            FireAt(|_| Vec2::new(40.0, 7.0)),
            Hold {
                input: walk(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 6.0),
                done: |w| w.player().pos.x > 44.5 && w.player().vel.x > 0.0,
            },
            FireAt(|_| Vec2::new(48.0, 7.5)),
            Hold {
                input: walk(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| walk(if w.player().vel.x >= 0.0 { 1 } else { -1 }),
                done: |w| {
                    w.player().pos.x > 50.5 && w.player().vel.x > 4.0 && w.player().vel.y > 0.0
                },
            },
            Tap(release()),
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        // World 1, level 8: swing to the island, hook the ring over the shaft and let rope out
        // to swing into the tunnel, walk to the chamber, reel up the ring over its far wall onto
        // the ledge, then ring to ring over the last pit to the goal.
        "08_quarry_floor.ron" => vec![
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > -1.5,
            },
            Tap(jump(1)),
            FireAt(|_| Vec2::new(6.0, 6.5)),
            Hold {
                input: held_jump(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 6.0),
                done: |w| w.player().pos.x > 10.5 && w.player().vel.x < 2.0,
            },
            Tap(release()),
            Hold {
                input: InputFrame::default(),
                done: |w| w.player().grounded,
            },
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 15.0,
            },
            FireAt(|_| Vec2::new(19.5, 4.0)),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Hold {
                input: walk(1),
                done: |w| !w.player().grounded,
            },
            Hold {
                input: InputFrame {
                    reel: -1,
                    ..Default::default()
                },
                done: |w| w.rope().is_some_and(|r| r.length_m > 11.8),
            },
            Drive {
                input: |w| walk(if w.player().vel.x >= 0.0 { 1 } else { -1 }),
                done: |w| w.player().pos.x > 21.4,
            },
            Tap(release()),
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 35.5 && w.player().grounded,
            },
            FireAt(|_| Vec2::new(39.0, 2.0)),
            Hold {
                input: InputFrame::default(),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Hold {
                input: InputFrame {
                    reel: 1,
                    ..Default::default()
                },
                done: |w| w.rope().is_some_and(|r| r.length_m < 2.6),
            },
            Drive {
                input: |w| walk(if w.player().vel.x >= 0.0 { 1 } else { -1 }),
                done: |w| w.player().pos.x > 40.4 && w.player().pos.y > -0.3,
            },
            Tap(release()),
            Hold {
                input: walk(1),
                done: |w| w.player().pos.x > 46.5 && w.player().grounded,
            },
            Tap(jump(1)),
            FireAt(|_| Vec2::new(51.5, 6.0)),
            Hold {
                input: held_jump(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| reel_to(w, 6.0),
                done: |w| w.player().pos.x > 53.5 && w.player().vel.x > 0.0,
            },
            FireAt(|_| Vec2::new(57.5, 6.5)),
            Hold {
                input: walk(1),
                done: |w| matches!(w.hook(), Hook::Attached { .. }),
            },
            Drive {
                input: |w| walk(if w.player().vel.x >= 0.0 { 1 } else { -1 }),
                done: |w| {
                    w.player().pos.x > 60.0 && w.player().vel.x > 4.0 && w.player().vel.y > 0.0
                },
            },
            Tap(release()),
            Hold {
                input: walk(1),
                done: |w| w.is_completed(),
            },
        ],
        other => panic!("no scripted plan for {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level_path = Path::new(
        args.first()
            .expect("usage: script_solutions levels/NAME.ron"),
    );
    let name = level_path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let tuning = tether::cli::load_tuning(Path::new(".")).expect("tuning");
    let start = tether::cli::load_world(level_path, Arc::clone(&tuning)).expect("level");
    let mut world = start.clone();
    let mut replay = Replay::new(&name);
    let mut aim = (0.0, 0.0);
    // SCRIPT_TRACE=N prints the player every N ticks while planning a level.
    let trace_every: u64 = std::env::var("SCRIPT_TRACE")
        .ok()
        .map_or(0, |v| v.parse().unwrap_or(15).max(1));
    for (index, step) in plan(&name).iter().enumerate() {
        let began = world.tick();
        loop {
            let mut input = match step {
                Step::Hold { input, done } => {
                    if done(&world) {
                        break;
                    }
                    *input
                }
                Step::Tap(input) => *input,
                Step::Drive { input, done } => {
                    if done(&world) {
                        break;
                    }
                    input(&world)
                }
                Step::FireAt(target) => {
                    aim = InputFrame::quantize_aim(target(&world) - world.player().pos);
                    InputFrame {
                        fire_pressed: true,
                        ..Default::default()
                    }
                }
            };
            // The aim stays where it was last fired (as a player's mouse would).
            (input.aim_x, input.aim_y) = aim;
            replay.push(input);
            let events = world.step(&input);
            if trace_every > 0 && world.tick().is_multiple_of(trace_every) {
                eprintln!(
                    "t{} step {index} pos ({:.2}, {:.2}) vel ({:.2}, {:.2}) grounded {} hook {}",
                    world.tick(),
                    world.player().pos.x,
                    world.player().pos.y,
                    world.player().vel.x,
                    world.player().vel.y,
                    world.player().grounded,
                    if matches!(world.hook(), Hook::Attached { .. }) {
                        "on"
                    } else {
                        "-"
                    },
                );
            }
            if let Some(died) = events
                .iter()
                .find(|e| matches!(e, tether::sim::Event::Died { .. }))
            {
                eprintln!("step {index}: {died:?} at tick {}", world.tick());
                std::process::exit(1);
            }
            if world.tick() - began > STEP_LIMIT_TICKS {
                eprintln!(
                    "step {index} never finished (player at {:?}, grounded {}, hook {:?}, vine {:?})",
                    world.player().pos,
                    world.player().grounded,
                    world.hook(),
                    world.held_vine()
                );
                std::process::exit(1);
            }
            if matches!(step, Step::Tap(_) | Step::FireAt(_)) || world.is_completed() {
                break;
            }
        }
    }
    if !world.is_completed() {
        eprintln!(
            "the plan ended short of the goal at {:?}",
            world.player().pos
        );
        std::process::exit(1);
    }
    let check = replay.run(&mut start.clone());
    eprintln!("re-run of the recorded inputs: {check}");
    let out = Path::new("levels/solutions").join(&name);
    std::fs::write(&out, replay.to_ron()).expect("write replay");
    eprintln!("wrote {} ({} ticks)", out.display(), replay.tick_count());
}
