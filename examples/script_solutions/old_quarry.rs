//! Plans for Old Quarry (World 1): levels 04–08 (01–03 are solved by examples/solve.rs).

use super::steps::Step::{self, Drive, FireAt, Hold, Tap};
use super::steps::*;
use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::InputFrame;

/// World 1, level 4: hook the ring over the shaft from its edge, step off and let rope
/// out to hang level with the tunnel, swing into it and let go, walk through to the
/// chamber, hook the second ring, reel in and swing onto the block with the goal.
pub fn down_the_shaft() -> Vec<Step> {
    vec![
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
    ]
}

/// World 1, level 5: hook the first wooden plank in the steel roof, swing and let go over
/// the middle ledge, hook the second plank from there and swing to the goal.
pub fn steel_roof() -> Vec<Step> {
    vec![
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
    ]
}

/// World 1, level 6: swing over the first spike bed and let go over the island, hook the
/// second ring, reel in to clear the raised bed and swing to the goal.
pub fn spike_pits() -> Vec<Step> {
    vec![
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
    ]
}

/// World 1, level 7: ring to ring over three spike pits, landing on both islands (their
/// checkpoints) under the steel curtains.
pub fn long_haul() -> Vec<Step> {
    vec![
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
            done: |w| w.player().pos.x > 50.5 && w.player().vel.x > 4.0 && w.player().vel.y > 0.0,
        },
        Tap(release()),
        Hold {
            input: walk(1),
            done: |w| w.is_completed(),
        },
    ]
}

/// World 1, level 8: swing to the island, hook the ring over the shaft and let rope out
/// to swing into the tunnel, walk to the chamber, reel up the ring over its far wall onto
/// the ledge, then ring to ring over the last pit to the goal.
pub fn quarry_floor() -> Vec<Step> {
    [quarry_floor_to_the_tunnel(), quarry_floor_to_the_goal()].concat()
}

/// Level 8, first half: swing to the island, hook the ring over the shaft, let rope out and swing into the tunnel.
fn quarry_floor_to_the_tunnel() -> Vec<Step> {
    vec![
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
    ]
}

/// Level 8, second half: walk to the chamber, reel up the ring onto the ledge, then ring to ring over the last pit.
fn quarry_floor_to_the_goal() -> Vec<Step> {
    vec![
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
            done: |w| w.player().pos.x > 60.0 && w.player().vel.x > 4.0 && w.player().vel.y > 0.0,
        },
        Tap(release()),
        Hold {
            input: walk(1),
            done: |w| w.is_completed(),
        },
    ]
}
