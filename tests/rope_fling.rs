//! Issue 32: a rope that never flings. The repro (tests/data/fling-20-tailwind.ron, recorded on
//! 20 Tailwind: hook the first platform's top beside you at its edge and reel, the rope over the
//! corner) threw the player at 159 m/s at tick 1453: a contact right beside the player levered
//! the rope's last free node 1.4 m in one substep and the chain yanked the player after it.

mod common;

use tether::cli;
use tether::sim::Replay;

/// Fastest the repro may move the player. Running is 8 m/s, falling is capped at 20 m/s and
/// the reel takes rope in at 7 m/s; a swing from the level's rings reaches 22.4 m/s (tick 405,
/// the same before and after the fix), which gravity explains: 25 m/s leaves room for it and
/// none for a fling.
const MAX_SPEED_M_PER_S: f32 = 25.0;

#[test]
fn reeling_over_a_platform_corner_beside_you_never_flings() {
    let root = common::root();
    let text = common::read(&root.join("tests/data/fling-20-tailwind.ron"));
    let replay = Replay::from_ron(&text, "fling-20-tailwind.ron").expect("the repro parses");
    let mut world = cli::load_world(&root.join("levels/20_tailwind.ron"), common::tuning())
        .expect("level 20 loads");
    let (mut fastest_m_per_s, mut at_tick) = (0.0f32, 0);
    let mut worst_solver_j_per_kg = 0.0f32;
    for (tick, input) in replay.frames().enumerate() {
        world.step(input);
        let speed = world.player().vel.length();
        if speed > fastest_m_per_s {
            (fastest_m_per_s, at_tick) = (speed, tick + 1);
        }
        worst_solver_j_per_kg = worst_solver_j_per_kg.max(world.energy().solver_added_j_per_kg());
    }
    // Measured: before the fix 159.35 m/s at tick 1453 (the rope's step put 12 668 J/kg into
    // the player in that tick); after it 22.35 m/s at tick 405, and the rope's step never more
    // than 54 J/kg beyond the reel's rated work.
    println!(
        "fastest {fastest_m_per_s} m/s at tick {at_tick}; the solver added at most {worst_solver_j_per_kg} J/kg"
    );
    assert!(
        fastest_m_per_s <= MAX_SPEED_M_PER_S,
        "the player reached {fastest_m_per_s} m/s at tick {at_tick} (bound {MAX_SPEED_M_PER_S})"
    );
}

/// The energy account adds up: its credits sum to the change of the player's mechanical energy
/// over each tick (so no stage's change goes unaccounted).
#[test]
fn the_energy_account_adds_up_every_tick() {
    assert_the_energy_account_adds_up_every_tick("fling-20-tailwind.ron");
}

/// The same on 10 Rope Lift's kept stream (docs/rope.md, stop 49), which rides the elevator
/// platform, lands on it and walks off it (tick 282), so the moving solid's hand-on is in it.
#[test]
fn the_energy_account_adds_up_every_tick_riding_the_lift() {
    assert_the_energy_account_adds_up_every_tick("rope-step-10-rope-lift-stop49.ron");
}

/// Plays the replay `file` of tests/data on its level, checking the account every tick.
fn assert_the_energy_account_adds_up_every_tick(file: &str) {
    let root = common::root();
    let text = common::read(&root.join("tests/data").join(file));
    let replay = Replay::from_ron(&text, file).expect("the replay parses");
    let mut world = cli::load_world(&root.join("levels").join(&replay.level), common::tuning())
        .expect("the level loads");
    let mut before = world.energy().mechanical_j_per_kg();
    let g = world.tuning().player.gravity_m_per_s2;
    before = before.max(0.5 * world.player().vel.length_squared() + g * world.player().pos.y);
    for (tick, input) in replay.frames().enumerate() {
        world.step(input);
        let e = world.energy();
        let credits = e.gravity_j_per_kg
            + e.moving_solids_j_per_kg
            + e.jump_j_per_kg
            + e.run_and_pump_j_per_kg
            + e.wind_j_per_kg
            + e.rope_j_per_kg
            + e.free_move_j_per_kg
            + e.other_j_per_kg;
        let change = e.mechanical_j_per_kg() - before;
        assert!(
            (credits - change).abs() <= 1e-3 * (1.0 + change.abs() + e.mechanical_j_per_kg().abs()),
            "{file} tick {}: credits {credits} J/kg, change {change} J/kg ({e:?})",
            tick + 1
        );
        before = e.mechanical_j_per_kg();
    }
}
