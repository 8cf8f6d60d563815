//! Running on flat ground used to stutter: gravity pushed the box into the floor every tick and
//! the character controller now and then stopped the whole move short (0.002 m instead of
//! 0.067 m at 8 m/s). At full speed on flat ground every tick must cover run speed × dt.

mod common;

use tether::sim::{InputFrame, TICK_DT_S};

#[test]
fn running_on_flat_ground_moves_the_same_distance_every_tick() {
    let mut world = common::world_from(
        r#"Level(
            name: "flat",
            spawn: (0.0, 0.5),
            goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
            solids: [(shape: Box(center: (40.0, -1.0), half_extents: (60.0, 1.0)))],
        )"#,
    );
    let run = InputFrame {
        move_x: 1,
        ..Default::default()
    };
    for _ in 0..60 {
        world.step(&run);
    }
    let expected_m = common::tuning().player.run_speed_m_per_s * TICK_DT_S;
    for tick in 0..600 {
        let before = world.player().pos;
        world.step(&run);
        let moved = world.player().pos - before;
        assert!(world.player().grounded, "tick {tick}: left the ground");
        assert!(
            (moved.x - expected_m).abs() < 1e-3 && moved.y.abs() < 1e-3,
            "tick {tick}: moved {moved:?}, expected ({expected_m}, 0)"
        );
    }
}
