//! Nothing fast passes a thin wall: the hook at its full flight speed, at every angle, and the
//! player at the capped fall speed, on a taut rope at the fastest speed a swing reaches, and just
//! after letting go at that speed. Walls here are 2 cm thick, far thinner than one tick of motion.

mod common;

use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::rope::Rope;
use tether::sim::{AttachKind, Event, InputFrame, World, TICK_DT_S};

/// Half the thickness of every thin wall: 2 cm walls.
const HALF_THICK_M: f32 = 0.01;

/// A level with only `solids` (RON list items) and the player floating at the origin.
fn level(solids: &str) -> World {
    common::world_from(&format!(
        r#"Level(
            name: "thin",
            spawn: (0.0, 0.0),
            goal: (min: (900.0, 900.0), max: (901.0, 901.0)),
            kill_y_m: -1000.0,
            solids: [{solids}],
        )"#
    ))
}

fn thin_wall(center: Vec2, half_length_m: f32, rotation_deg: f32, hookable: bool) -> String {
    format!(
        "(shape: Box(center: ({:.5}, {:.5}), half_extents: ({HALF_THICK_M}, {half_length_m}), \
         rotation_deg: {rotation_deg:.3}), hookable: {hookable}),",
        center.x, center.y
    )
}

fn aim_at(offset: Vec2) -> InputFrame {
    let (aim_x, aim_y) = InputFrame::quantize_aim(offset);
    InputFrame {
        aim_x,
        aim_y,
        ..Default::default()
    }
}

/// Fires the hook along `angle_deg` at a 2 cm wall `distance_m` away, perpendicular to the shot;
/// returns the event that ended the flight and the distance the hook flew per tick.
fn shoot_at_thin_wall(angle_deg: f32, distance_m: f32, hookable: bool) -> (Event, f32, Vec2) {
    let dir = Vec2::new(
        libm::cosf(angle_deg.to_radians()),
        libm::sinf(angle_deg.to_radians()),
    );
    let mut world = level(&thin_wall(dir * distance_m, 3.0, angle_deg, hookable));
    world.step(&InputFrame {
        fire_pressed: true,
        ..aim_at(dir * 10.0)
    });
    let mut step_m = 0.0f32;
    let mut last: Option<Vec2> = None;
    for _ in 0..60 {
        if let Hook::Flying { pos, .. } = *world.hook() {
            if let Some(last) = last {
                step_m = step_m.max(pos.distance(last));
            }
            last = Some(pos);
        }
        for event in world.step(&InputFrame::default()) {
            if matches!(
                event,
                Event::HookAttached { .. } | Event::HookBounced { .. } | Event::HookMissed
            ) {
                return (event, step_m, dir);
            }
        }
    }
    panic!("the hook never stopped (angle {angle_deg}°, {distance_m} m)");
}

#[test]
fn the_hook_never_passes_a_thin_wall_at_any_angle() {
    let tuning = common::tuning();
    let per_tick_m = tuning.hook.flight_speed_m_per_s * TICK_DT_S;
    assert!(
        per_tick_m > 20.0 * 2.0 * HALF_THICK_M,
        "the test is only meaningful if the hook moves much more than the wall's thickness per tick"
    );
    let mut shots = 0;
    for i in 0..48 {
        let angle_deg = i as f32 * 7.5 + 0.3;
        // Distances that put the wall at many phases within one tick of flight.
        let distance_m = 3.0 + (i % 8) as f32 * per_tick_m / 8.0 + 0.013 * i as f32;
        for hookable in [true, false] {
            let (event, step_m, dir) = shoot_at_thin_wall(angle_deg, distance_m, hookable);
            shots += 1;
            let stopped_at = match event {
                Event::HookAttached {
                    kind: AttachKind::Surface,
                    at,
                } if hookable => at,
                Event::HookBounced { at } if !hookable => at,
                other => panic!(
                    "angle {angle_deg}°, wall {distance_m} m, hookable {hookable}: {other:?}"
                ),
            };
            // Stopped on the near face of the wall, not beyond it (the attach point sits a
            // little in front of the face, off the surface by a rope radius or so).
            let along = stopped_at.dot(dir);
            assert!(
                along <= distance_m - HALF_THICK_M + 1e-3 && along > distance_m - 0.2,
                "angle {angle_deg}°: the hook stopped {along} m out, the wall's near face is at {}",
                distance_m - HALF_THICK_M
            );
            assert!(
                (step_m - per_tick_m).abs() < 1e-3,
                "the hook flew {step_m} m per tick, its full speed is {per_tick_m} m per tick"
            );
        }
    }
    assert_eq!(shots, 96);
}

/// The player's box must stay on the near side of a wall whose near face is at `face` along
/// `normal` (pointing back toward the player).
fn assert_in_front(world: &World, face_m: f32, axis: Vec2, what: &str) {
    let tuning = &world.tuning().player;
    let half = (axis.x.abs() * tuning.half_width_m) + (axis.y.abs() * tuning.half_height_m);
    let leading = world.player().pos.dot(axis) + half;
    assert!(
        leading <= face_m + 2e-3,
        "{what}: the player's leading edge is at {leading} m, past the wall's face at {face_m} m \
         (pos {:?}, vel {:?})",
        world.player().pos,
        world.player().vel
    );
}

#[test]
fn the_player_never_falls_through_a_thin_floor_at_the_capped_fall_speed() {
    let tuning = common::tuning();
    let max_fall = tuning.player.max_fall_speed_m_per_s;
    for i in 0..12 {
        // Drops from different heights so the floor lies at different phases of a tick's move.
        let drop_m = 15.0 + i as f32 * max_fall * TICK_DT_S / 12.0;
        let floor_top = -drop_m;
        let floor = format!(
            "(shape: Box(center: (0.0, {:.5}), half_extents: (4.0, {HALF_THICK_M}))),",
            floor_top - HALF_THICK_M
        );
        let mut world = level(&floor);
        let mut fastest = 0.0f32;
        let mut landed = false;
        for _ in 0..240 {
            fastest = fastest.max(-world.player().vel.y);
            // A pure fall: "down" is -y, so check against -(top) along -y.
            assert_in_front(&world, -floor_top, Vec2::new(0.0, -1.0), "falling");
            landed |= world
                .step(&InputFrame::default())
                .iter()
                .any(|e| matches!(e, Event::Landed { .. }));
        }
        assert!(
            (fastest - max_fall).abs() < 1e-3,
            "the player reached {fastest} m/s, not the capped {max_fall} m/s"
        );
        assert!(
            landed && world.player().grounded,
            "drop {drop_m}: landed on the floor"
        );
    }
}

/// A taut rope 12 m (the longest) from a ring, the player held horizontal and let go: the fastest
/// swing the tuning allows without pumping. Also pumps toward the bottom to go faster still.
fn fastest_swing(solids: &str) -> World {
    let mut world = level(solids);
    let tuning = common::tuning();
    let length_m = world.max_rope_length_m();
    let anchor = Vec2::new(0.0, length_m);
    world.place_player(Vec2::new(-length_m, length_m));
    world.set_hook(Hook::attached_fixed(
        Rope::new(anchor, world.player().pos, length_m, &tuning.rope),
        AttachKind::GrapplePoint,
    ));
    world
}

/// Pumping toward the swing's direction from horizontal: the speed at the bottom and the tick.
fn swing_peak() -> (f32, u64) {
    let mut world = fastest_swing("");
    let mut best = (0.0f32, 0u64);
    for _ in 0..240 {
        world.step(&InputFrame {
            move_x: 1,
            ..Default::default()
        });
        let speed = world.player().vel.length();
        if speed > best.0 {
            best = (speed, world.tick());
        }
    }
    best
}

#[test]
fn a_fast_swing_on_a_taut_rope_never_passes_a_thin_wall() {
    let (peak_m_per_s, peak_tick) = swing_peak();
    let gravity = common::tuning().player.gravity_m_per_s2;
    let drop_speed = (2.0 * gravity * common::tuning().rope.max_length_m).sqrt();
    assert!(
        peak_m_per_s > 0.9 * drop_speed,
        "the test swing reaches {peak_m_per_s} m/s (a 12 m drop alone gives {drop_speed})"
    );
    println!("fastest swing: {peak_m_per_s:.1} m/s at tick {peak_tick}");
    let per_tick_m = peak_m_per_s * TICK_DT_S;
    for i in 0..10 {
        // A vertical 2 cm wall just right of the bottom of the swing, met at full speed.
        let face_x = 1.0 + i as f32 * per_tick_m / 10.0;
        let wall = format!(
            "(shape: Box(center: ({:.5}, 3.25), half_extents: ({HALF_THICK_M}, 4.75))),",
            face_x + HALF_THICK_M
        );
        let mut world = fastest_swing(&wall);
        let mut fastest_near_wall = 0.0f32;
        let half_h = world.tuning().player.half_height_m;
        for _ in 0..240 {
            let before = world.player().pos;
            world.step(&InputFrame {
                move_x: 1,
                ..Default::default()
            });
            // A crossing of the wall's face (x) below its top (y 8) is a tunnel; going over the
            // top is not.
            let below_top = before.y.max(world.player().pos.y) < 8.0 + half_h;
            if below_top {
                assert_in_front(&world, face_x, Vec2::new(1.0, 0.0), "swinging");
            }
            if world.player().pos.x > face_x - 1.0 {
                fastest_near_wall = fastest_near_wall.max(world.player().vel.x);
            }
        }
        assert!(
            fastest_near_wall > 0.8 * peak_m_per_s,
            "the swing reached the wall"
        );
    }
}

#[test]
fn a_release_at_the_fastest_swing_never_passes_a_thin_wall() {
    let (peak_m_per_s, peak_tick) = swing_peak();
    let per_tick_m = peak_m_per_s * TICK_DT_S;
    // Where the player is and how it moves on the release tick, without any wall.
    let mut free = fastest_swing("");
    while free.tick() + 1 < peak_tick {
        free.step(&InputFrame {
            move_x: 1,
            ..Default::default()
        });
    }
    free.step(&InputFrame {
        release_pressed: true,
        ..Default::default()
    });
    let released_at = free.player().pos;
    let dir = free.player().vel.normalize();
    assert!(
        free.player().vel.length() > 0.9 * peak_m_per_s,
        "released at full speed"
    );
    for i in 0..10 {
        // A 2 cm wall across the flight path, a little ahead of the release point.
        let face_m = 1.5 + i as f32 * per_tick_m / 10.0;
        let center = released_at + dir * (face_m + HALF_THICK_M);
        let angle_deg = libm::atan2f(dir.y, dir.x).to_degrees();
        // The whole player box must stop: the wall spans it with room to spare.
        let mut world = fastest_swing(&thin_wall(center, 3.0, angle_deg, true));
        let mut released = false;
        for _ in 0..200 {
            let release = world.tick() + 1 == peak_tick;
            let events = world.step(&InputFrame {
                move_x: if released || release { 0 } else { 1 },
                release_pressed: release,
                ..Default::default()
            });
            released |= events.contains(&Event::Released);
            if released {
                // The box's corner furthest along the flight stays before the wall's face.
                let p = &world.tuning().player;
                let half_along = dir.x.abs() * p.half_width_m + dir.y.abs() * p.half_height_m;
                let leading = (world.player().pos - released_at).dot(dir) + half_along;
                assert!(
                    leading <= face_m + 2e-3,
                    "released player passed the wall: leading edge {leading} m along the \
                     flight, face at {face_m} m (pos {:?})",
                    world.player().pos
                );
            }
        }
        assert!(released, "the release happened");
    }
}
