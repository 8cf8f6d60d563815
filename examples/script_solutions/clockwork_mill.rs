//! Plans for Clockwork Mill (World 2): levels 09–16, the moving objects, vines and switches.

use super::steps::Step::{self, Drive, FireAt, Hold, Tap};
use super::steps::*;
use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::{InputFrame, World};

/// Wait for the ferry at the edge, step on, ride to the far side, walk to the lift,
/// ride it up and walk into the goal.
pub fn ferry() -> Vec<Step> {
    vec![
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
    ]
}

/// Walk onto the hanging platform and stop, ride it to the top (standing in the shaft
/// holds the switch), then jump right onto the wall with the goal.
pub fn rope_lift() -> Vec<Step> {
    vec![
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
    ]
}

/// Run to the edge, hook the drifting beam when it is near, ride it across, let go
/// over the far ledge.
pub fn moving_anchor() -> Vec<Step> {
    vec![
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
    ]
}

/// Run and jump into the first vine; pump until the swing carries forward, jump off
/// into the next, and again; the last lets go over the far ledge.
pub fn vines() -> Vec<Step> {
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

/// World 2: hook the shuttling block from the edge, reel in and ride it to its far end,
/// let go over the island; wait for the riser at the bottom, hook it, swing while it
/// lifts you and let go over the high ledge.
pub fn shuttle_hooks() -> Vec<Step> {
    vec![
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
            done: |w| w.player().pos.x > 24.5 && w.player().pos.y > 8.0 && w.player().vel.x > 1.0,
        },
        Tap(InputFrame {
            release_pressed: true,
            ..Default::default()
        }),
        Hold {
            input: walk(1),
            done: |w| w.is_completed(),
        },
    ]
}

/// World 2: stand on the plate until the bridge is up, run and jump onto it and off to
/// the far floor; hook the weight, step off into its shaft (which hauls it up), pump and
/// let go over the tower.
pub fn drawbridge() -> Vec<Step> {
    vec![
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
    ]
}

/// World 2: jump into the first vine, pump, and let go over the ferry when it is at the
/// near end; ride it to the far end, jump into the second vine, swing to the third and
/// let go over the goal.
pub fn vine_ferry() -> Vec<Step> {
    vec![
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
                swinging_forward_past(w, 3.0) && platform_x(w, 0) < 2.0 && w.player().pos.y > 6.0
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
    ]
}

/// World 2's finale, the plans of 14, 15 and 13 in turn: raise the bridge and run across,
/// vine, ferry, vines, then hook the riser and let it lift you to the goal.
pub fn mill_run() -> Vec<Step> {
    [
        mill_run_bridge(),
        mill_run_vines_and_ferry(),
        mill_run_riser(),
    ]
    .concat()
}

/// Level 16, as 14: raise the bridge and run across it to the first vine.
fn mill_run_bridge() -> Vec<Step> {
    vec![
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
    ]
}

/// Level 16, as 15: vine, ferry, and the two vines beyond it.
fn mill_run_vines_and_ferry() -> Vec<Step> {
    vec![
        Tap(jump(1)),
        Hold {
            input: held_jump(1),
            done: |w| w.held_vine() == Some(0),
        },
        Drive {
            input: pump_gently,
            done: |w| {
                swinging_forward_past(w, 23.0) && platform_x(w, 0) < 2.0 && w.player().pos.y > 4.0
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
    ]
}

/// Level 16, as 13: land by the riser's shaft, hook the riser and let it lift you to the goal.
fn mill_run_riser() -> Vec<Step> {
    vec![
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
            done: |w| w.player().pos.x > 66.5 && w.player().pos.y > 8.0 && w.player().vel.x > 1.0,
        },
        Tap(InputFrame {
            release_pressed: true,
            ..Default::default()
        }),
        Drive {
            input: |w| walk(if w.player().pos.x < 71.5 { 1 } else { -1 }),
            done: |w| w.is_completed(),
        },
    ]
}
