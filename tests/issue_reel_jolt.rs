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
    world.place_player(Vec2::new(0.0, 1.4));
    world.set_player_velocity(Vec2::ZERO);
    let rope = Rope::new(
        anchor,
        world.player().pos,
        tuning.rope.max_length_m,
        &tuning.rope,
    );
    world.set_hook(Hook::attached_fixed(rope, AttachKind::Surface));
    for _ in 0..30 {
        world.step(&InputFrame::default());
    }
    let start_y = world.player().pos.y;
    let mut fastest = 0.0f32;
    for _ in 0..60 {
        world.step(&InputFrame {
            reel: 1,
            ..Default::default()
        });
        fastest = fastest.max(world.player().vel.length());
    }
    let reel = tuning.rope.reel_speed_m_per_s;
    // Hanging straight down, reeling in pulls the player straight up at the reel speed: over
    // the half second, within 10 % of reel × 0.5 s, never faster than 10 % over the reel speed
    // (measured: 3.500 m and 7.0001 m/s at 7 m/s).
    let climb_m = world.player().pos.y - start_y;
    let expected_m = reel * 0.5;
    assert!(
        fastest < reel * 1.1,
        "reeling at {reel} m/s moved the player at {fastest} m/s"
    );
    assert!(
        (climb_m - expected_m).abs() < 0.1 * expected_m,
        "reeling at {reel} m/s for 0.5 s climbed {climb_m} m, expected {expected_m} m"
    );
}
