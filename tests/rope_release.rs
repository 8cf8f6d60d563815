//! Letting go of the rope keeps the player's velocity exactly (only gravity acts that tick), a
//! jump off the rope adds the tuned boost, and firing while attached re-hooks.

mod common;

use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::{Event, InputFrame, World, TICK_DT_S};

const SWING: &str = r#"Level(
    name: "swing",
    spawn: (-6.0, 6.0),
    goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
    kill_y_m: -100.0,
    solids: [(shape: Box(center: (0.0, -30.0), half_extents: (60.0, 1.0)))],
    grapple_points: [(0.0, 8.0), (5.0, 7.0)],
)"#;

/// Hooks the first ring from the spawn and swings until the player moves fast at the bottom.
fn swinging_fast() -> World {
    let mut world = common::world_from(SWING);
    let aim = Vec2::new(0.0, 8.0) - world.player.pos;
    let (aim_x, aim_y) = InputFrame::quantize_aim(aim);
    world.step(&InputFrame {
        fire_pressed: true,
        aim_x,
        aim_y,
        ..Default::default()
    });
    while world.rope().is_none() {
        world.step(&InputFrame::default());
        assert!(world.tick < 60, "the hook attaches");
    }
    while world.player.vel.length() < 10.0 {
        world.step(&InputFrame::default());
        assert!(world.tick < 600, "the swing builds speed");
    }
    world
}

#[test]
fn release_keeps_velocity_exactly() {
    let mut world = swinging_fast();
    let before = world.player.vel;
    let events = world.step(&InputFrame {
        release_pressed: true,
        ..Default::default()
    });
    assert!(events.contains(&Event::Released));
    assert!(matches!(world.hook, Hook::Idle));
    let gravity = common::tuning().player.gravity_m_per_s2;
    assert_eq!(
        world.player.vel.x, before.x,
        "horizontal speed kept exactly"
    );
    assert!((world.player.vel.y - (before.y - gravity * TICK_DT_S)).abs() < 1e-4);
    // And it is still kept a while later (flung, not steered).
    let vx = world.player.vel.x;
    for _ in 0..20 {
        world.step(&InputFrame::default());
    }
    assert_eq!(world.player.vel.x, vx);
}

#[test]
fn jumping_off_the_rope_adds_the_boost() {
    let mut plain = swinging_fast();
    let mut jumped = plain.clone();
    plain.step(&InputFrame {
        release_pressed: true,
        ..Default::default()
    });
    let events = jumped.step(&InputFrame {
        jump_pressed: true,
        jump_held: true,
        ..Default::default()
    });
    assert!(events.contains(&Event::Released));
    let boost = common::tuning().rope.jump_release_boost_m_per_s;
    assert!((jumped.player.vel.y - plain.player.vel.y - boost).abs() < 1e-3);
}

#[test]
fn firing_while_attached_rehooks() {
    let mut world = swinging_fast();
    let aim = Vec2::new(5.0, 7.0) - world.player.pos;
    let (aim_x, aim_y) = InputFrame::quantize_aim(aim);
    let events = world.step(&InputFrame {
        fire_pressed: true,
        aim_x,
        aim_y,
        ..Default::default()
    });
    assert!(events.contains(&Event::Released) && events.contains(&Event::HookFired));
    let mut attached_to = None;
    for _ in 0..60 {
        for event in world.step(&InputFrame::default()) {
            if let Event::HookAttached { at, .. } = event {
                attached_to = Some(at);
            }
        }
    }
    assert_eq!(attached_to, Some(Vec2::new(5.0, 7.0)));
}

#[test]
fn the_rope_is_inextensible_for_the_player() {
    // However hard the swing, the player stays within the rope's length of the anchor.
    let mut world = swinging_fast();
    for _ in 0..600 {
        world.step(&InputFrame {
            move_x: 1,
            ..Default::default()
        });
        let rope = world.rope().expect("still attached");
        let reach = rope.anchor().distance(world.player.pos);
        assert!(
            reach <= rope.length_m * 1.001,
            "player {reach} m from the anchor of a {} m rope",
            rope.length_m
        );
    }
}
