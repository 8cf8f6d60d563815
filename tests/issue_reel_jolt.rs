//! Reeling in used to move the rope's whole per-tick length change in one substep, which Verlet
//! turned into a ~50 m/s yank (the player shot up the wall in level 2). Reeling must pull the
//! player in at about the reel speed.

mod common;

use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::rope::Rope;
use tether::sim::{AttachKind, InputFrame};

#[test]
fn reeling_in_pulls_at_the_reel_speed_not_a_jolt() {
    let tuning = common::tuning();
    let mut world = common::world_from(
        r#"Level(
            name: "reel",
            spawn: (0.0, 1.0),
            goal: (min: (50.0, 0.0), max: (52.0, 2.0)),
            kill_y_m: -100.0,
            solids: [(shape: Box(center: (0.0, 12.0), half_extents: (3.0, 0.5)))],
        )"#,
    );
    // Hanging still, 10 m under the anchor.
    let anchor = Vec2::new(0.0, 11.4);
    world.player.pos = Vec2::new(0.0, 1.4);
    world.player.vel = Vec2::ZERO;
    let rope = Rope::new(
        anchor,
        world.player.pos,
        tuning.rope.max_length_m,
        &tuning.rope,
    );
    world.hook = Hook::attached_fixed(rope, AttachKind::Surface);
    for _ in 0..30 {
        world.step(&InputFrame::default());
    }
    let mut fastest = 0.0f32;
    for _ in 0..60 {
        world.step(&InputFrame {
            reel: 1,
            ..Default::default()
        });
        fastest = fastest.max(world.player.vel.length());
    }
    let reel = tuning.rope.reel_speed_m_per_s;
    assert!(
        fastest < reel * 1.5,
        "reeling at {reel} m/s moved the player at {fastest} m/s"
    );
    assert!(
        world.player.pos.y > 1.4 + reel * 0.3,
        "the reel did pull the player up: y = {}",
        world.player.pos.y
    );
}
