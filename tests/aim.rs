//! The reticle never lies: for aims all around the player, the preview's verdict (ring, wood,
//! steel, out of range) is what firing on the next tick does. Plus the aim-assist angle, a
//! level's own rope length, the reel limits, the mouse wheel and pumping a swing.

mod common;

use tether::sim::hook::{AimTarget, Hook};
use tether::sim::math::Vec2;
use tether::sim::rope::Rope;
use tether::sim::{AttachKind, Event, InputFrame, World, TICK_DT_S};

/// Wooden floor and right wall, a steel left wall and a steel beam overhead, two rings, a wooden
/// ceiling partly out of reach; elsewhere above nothing within the 12 m rope.
const ROOM: &str = r#"Level(
    name: "room",
    spawn: (0.0, 0.5),
    goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
    kill_y_m: -100.0,
    solids: [
        (shape: Box(center: (0.0, -1.0), half_extents: (30.0, 1.0))),
        (shape: Box(center: (7.0, 3.0), half_extents: (0.5, 3.0))),
        (shape: Box(center: (-7.0, 3.0), half_extents: (0.5, 3.0)), hookable: false),
        (shape: Box(center: (0.0, 8.0), half_extents: (2.0, 0.3)), hookable: false),
        (shape: Box(center: (-3.0, 4.0), half_extents: (0.4, 0.4), rotation_deg: 30.0)),
        // A wooden ceiling straddling the end of the rope's reach (11.4 to 14 m away).
        (shape: Box(center: (6.5, 11.5), half_extents: (2.5, 0.3))),
    ],
    grapple_points: [(3.5, 5.0), (-4.5, 7.0)],
)"#;

fn aim_input(offset: Vec2) -> InputFrame {
    let (aim_x, aim_y) = InputFrame::quantize_aim(offset);
    InputFrame {
        aim_x,
        aim_y,
        ..Default::default()
    }
}

fn standing(level: &str) -> World {
    let mut world = common::world_from(level);
    for _ in 0..30 {
        world.step(&InputFrame::default());
    }
    assert!(world.player().grounded);
    world
}

/// Fires with `input`'s aim and returns the event that ends the hook's flight.
fn fire(world: &mut World, input: InputFrame) -> Event {
    let mut events = world.step(&InputFrame {
        fire_pressed: true,
        ..input
    });
    assert!(events.contains(&Event::HookFired));
    for _ in 0..120 {
        // The hook's first flight step runs on the tick it is fired.
        for event in events {
            if matches!(
                event,
                Event::HookAttached { .. } | Event::HookBounced { .. } | Event::HookMissed
            ) {
                return event;
            }
        }
        events = world.step(&InputFrame::default());
    }
    panic!("the hook never landed");
}

#[test]
fn the_reticle_verdict_is_what_firing_does() {
    let world = standing(ROOM);
    let rope_radius = world.tuning().rope.radius_m;
    let mut seen = [0usize; 4];
    for i in 0..360 {
        let angle = (i as f32 + 0.37) * std::f32::consts::TAU / 360.0;
        // Vary the aim's length too: only its direction matters.
        let length = 2.0 + (i % 5) as f32 * 3.0;
        let input = aim_input(Vec2::new(libm::cosf(angle), libm::sinf(angle)) * length);
        // The reticle is drawn from the world after a tick; firing happens on the next one.
        let preview = world.preview_aim(input.aim());
        let mut shot = world.clone();
        let event = fire(&mut shot, input);
        let what = format!(
            "aim {:.1}°: preview {preview:?}, firing gave {event:?}",
            i as f32
        );
        match (preview.target, event) {
            (AimTarget::GrapplePoint(ring), Event::HookAttached { kind, at }) => {
                assert_eq!(kind, AttachKind::GrapplePoint, "{what}");
                assert_eq!(at, world.level().grapple_points[ring].v(), "{what}");
                assert_eq!(at, preview.end, "{what}");
                seen[0] += 1;
            }
            (AimTarget::Hookable, Event::HookAttached { kind, at }) => {
                assert_eq!(kind, AttachKind::Surface, "{what}");
                assert!(at.distance(preview.end) < rope_radius * 2.0, "{what}");
                seen[1] += 1;
            }
            (AimTarget::NotHookable, Event::HookBounced { at }) => {
                assert!(at.distance(preview.end) < 1e-3, "{what}");
                seen[2] += 1;
            }
            (AimTarget::OutOfRange, Event::HookMissed) => seen[3] += 1,
            _ => panic!("the reticle lied: {what}"),
        }
    }
    // Every verdict was exercised by a fair number of aims.
    assert!(seen.iter().all(|&n| n >= 5), "verdicts seen: {seen:?}");
}

/// A ring 8 m away at 40° from a standing player, and nothing else to hit.
const RING: &str = r#"Level(
    name: "ring",
    spawn: (0.0, 0.5),
    goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
    solids: [(shape: Box(center: (0.0, -1.0), half_extents: (3.0, 1.0)))],
    grapple_points: [(6.12836, 5.64230)],
)"#;

#[test]
fn aim_assist_snaps_within_its_angle_and_not_beyond() {
    let world = standing(RING);
    let assist_deg = world.tuning().hook.aim_assist_angle_deg;
    let ring = world.level().grapple_points[0].v();
    let to_ring = ring - world.player().pos;
    let ring_deg = libm::atan2f(to_ring.y, to_ring.x).to_degrees();
    for side in [-1.0f32, 1.0] {
        for (offset_deg, snaps) in [(assist_deg - 0.5, true), (assist_deg + 0.5, false)] {
            let deg = ring_deg + side * offset_deg;
            let dir = Vec2::new(libm::cosf(deg.to_radians()), libm::sinf(deg.to_radians()));
            let input = aim_input(dir * 10.0);
            let preview = world.preview_aim(input.aim());
            let event = fire(&mut world.clone(), input);
            let what = format!("aim {offset_deg}° off the ring: {preview:?}, {event:?}");
            if snaps {
                assert_eq!(preview.target, AimTarget::GrapplePoint(0), "{what}");
                assert!(preview.dir.distance(to_ring.normalize()) < 1e-5, "{what}");
                assert_eq!(
                    event,
                    Event::HookAttached {
                        kind: AttachKind::GrapplePoint,
                        at: ring
                    },
                    "{what}"
                );
            } else {
                assert_eq!(preview.target, AimTarget::OutOfRange, "{what}");
                assert_eq!(event, Event::HookMissed, "{what}");
            }
        }
    }
}

/// A level whose rope is 6 m: a wooden wall 5 m away is in reach, one 7 m away is not.
fn short_rope_level(wall_face_x: f32) -> String {
    format!(
        r#"Level(
            name: "short rope",
            spawn: (0.0, 0.5),
            goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
            max_rope_length_m: Some(6.0),
            solids: [
                (shape: Box(center: (0.0, -1.0), half_extents: (30.0, 1.0))),
                (shape: Box(center: ({}, 10.0), half_extents: (0.5, 10.0))),
            ],
        )"#,
        wall_face_x + 0.5
    )
}

#[test]
fn a_levels_max_rope_length_limits_the_hook_and_the_reel() {
    let tuning = common::tuning();
    assert!(
        tuning.rope.max_length_m > 7.5,
        "the tuning's rope must outreach the level's for this test"
    );
    let far = standing(&short_rope_level(7.0));
    assert_eq!(far.max_rope_length_m(), 6.0);
    let aim = aim_input(Vec2::new(1.0, 0.1));
    assert_eq!(far.preview_aim(aim.aim()).target, AimTarget::OutOfRange);
    assert_eq!(fire(&mut far.clone(), aim), Event::HookMissed);

    let mut near = standing(&short_rope_level(5.0));
    assert_eq!(near.preview_aim(aim.aim()).target, AimTarget::Hookable);
    assert!(matches!(fire(&mut near, aim), Event::HookAttached { .. }));
    // Reeling out stops at the level's 6 m, and the player stays within it.
    let mut wheeled = near.clone();
    for t in 0..600 {
        near.step(&InputFrame {
            reel: -1,
            move_x: -1,
            ..Default::default()
        });
        let rope = near.rope().expect("still attached");
        assert!(rope.length_m <= 6.0, "rope {} m", rope.length_m);
        let reach = rope.anchor().distance(near.player().pos);
        assert!(
            reach <= 6.0 * 1.01,
            "tick {t}: the player is {reach} m from the anchor"
        );
    }
    assert_eq!(near.rope().unwrap().length_m, 6.0);
    // So does the wheel: 30 notches ask for far more than 6 m; what is queued past the limit
    // is dropped.
    for t in 0..600 {
        wheeled.step(&InputFrame {
            wheel_notches: if t < 10 { -3 } else { 0 },
            ..Default::default()
        });
        assert!(wheeled.rope().expect("attached").length_m <= 6.0);
    }
    assert_eq!(wheeled.rope().unwrap().length_m, 6.0);
}

/// Hanging still on a taut rope `length_m` under a ceiling anchor, high above the floor.
fn hanging(length_m: f32) -> World {
    let mut world = common::world_from(
        r#"Level(
            name: "hang",
            spawn: (0.0, 1.0),
            goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
            kill_y_m: -100.0,
            solids: [(shape: Box(center: (0.0, 20.5), half_extents: (3.0, 0.5)))],
        )"#,
    );
    let tuning = common::tuning();
    let anchor = Vec2::new(0.0, 19.9);
    world.place_player(anchor - Vec2::new(0.0, length_m));
    world.set_hook(Hook::attached_fixed(
        Rope::new(
            anchor,
            world.player().pos,
            tuning.rope.max_length_m,
            &tuning.rope,
        ),
        AttachKind::Surface,
    ));
    world
}

#[test]
fn reeling_stops_at_the_rope_limits() {
    let tuning = common::tuning();
    let mut world = hanging(6.0);
    let mut shortest = f32::MAX;
    for _ in 0..600 {
        world.step(&InputFrame {
            reel: 1,
            ..Default::default()
        });
        shortest = shortest.min(world.rope().unwrap().length_m);
    }
    assert_eq!(shortest, tuning.rope.min_length_m);
    let mut longest = 0.0f32;
    for _ in 0..600 {
        world.step(&InputFrame {
            reel: -1,
            ..Default::default()
        });
        longest = longest.max(world.rope().unwrap().length_m);
    }
    assert_eq!(longest, tuning.rope.max_length_m);
}

/// A wheel notch reels one step in all, paid out at no more than the reel speed per tick (a
/// whole step at once jolted the player), and a notch the other way cancels what is still queued.
#[test]
fn each_wheel_notch_reels_one_step_at_reel_speed() {
    let tuning = common::tuning();
    let step_m = tuning.rope.wheel_reel_step_m;
    let per_tick_m = tuning.rope.reel_speed_m_per_s * TICK_DT_S;
    let mut world = hanging(6.0);
    world.step(&InputFrame::default());
    for notches in [2i8, -3, 1, -1] {
        let before = world.rope().unwrap().length_m;
        let mut last = before;
        for t in 0..240 {
            world.step(&InputFrame {
                wheel_notches: if t == 0 { notches } else { 0 },
                ..Default::default()
            });
            let now = world.rope().unwrap().length_m;
            assert!(
                (now - last).abs() <= per_tick_m + 1e-5,
                "{notches} notches: the rope went {last} m → {now} m in one tick"
            );
            last = now;
        }
        assert!(
            (before - last - notches as f32 * step_m).abs() < 1e-4,
            "{notches} notches: {before} m → {last} m, step {step_m} m"
        );
    }
    // Two notches in, then one out before the first has finished: one step in all.
    let before = world.rope().unwrap().length_m;
    for notches in [2i8, -1] {
        world.step(&InputFrame {
            wheel_notches: notches,
            ..Default::default()
        });
    }
    for _ in 0..240 {
        world.step(&InputFrame::default());
    }
    let after = world.rope().unwrap().length_m;
    assert!(
        (before - after - step_m).abs() < 1e-4,
        "+2 −1 notches: {before} m → {after} m"
    );
}

/// The fastest speed over `ticks` of a swing started with a small push, with `pump` choosing
/// move_x from the velocity.
fn swing_speed(ticks: usize, pump: impl Fn(Vec2) -> i8) -> f32 {
    let mut world = hanging(6.0);
    world.set_player_velocity(Vec2::new(2.0, 0.0));
    let mut fastest = 0.0f32;
    for t in 0..ticks {
        world.step(&InputFrame {
            move_x: pump(world.player().vel),
            ..Default::default()
        });
        if t > ticks / 2 {
            fastest = fastest.max(world.player().vel.length());
        }
    }
    fastest
}

#[test]
fn pumping_with_the_swing_builds_it_and_against_it_damps_it() {
    let ticks = 600;
    let idle = swing_speed(ticks, |_| 0);
    let with = swing_speed(ticks, |vel| vel.x.signum() as i8);
    let against = swing_speed(ticks, |vel| -vel.x.signum() as i8);
    assert!(
        with > idle * 1.5 && with > idle + 2.0,
        "pumping: {with} m/s, idle swing: {idle} m/s"
    );
    assert!(
        against < idle * 0.8,
        "pumping against: {against} m/s, idle: {idle} m/s"
    );
}
