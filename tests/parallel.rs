//! The level objects step on every core (`sim::parallel`): vines, winch ropes and cloths side by
//! side. Each touches only itself, so the thread count must not change a bit of the world. These
//! tests run the same worlds on one thread and on four (more threads than this machine's cores,
//! so the steps really interleave) and compare the state hash after every tick.

mod common;

// Each user of the shared module needs a different part of it.
#[allow(dead_code)]
#[path = "../benches/step_support/mod.rs"]
mod step_support;

use tether::sim::parallel::MIN_PARALLEL_WORK;
use tether::sim::{InputFrame, World};

fn on_threads<R: Send>(threads: usize, run: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(run)
}

/// The state hash after each of `ticks` ticks of `world`, the player holding still, and whether
/// any of the level's objects moved on any tick (the hash includes the tick, so it changes even
/// when nothing moves, and the player falling to the floor is not what steps in parallel).
fn hashes(mut world: World, ticks: usize) -> (Vec<u64>, bool) {
    let input = InputFrame::default();
    let mut moved = false;
    let hashes = (0..ticks)
        .map(|_| {
            let before = common::object_positions(&world);
            world.step(&input);
            moved |= common::object_positions(&world) != before;
            world.state_hash()
        })
        .collect();
    (hashes, moved)
}

fn assert_same_on_one_and_four_threads(name: &str, world: &World, ticks: usize) {
    // Enough objects moving that they do step side by side.
    let vines: usize = world.vines().iter().map(|v| v.rope.step_work()).sum();
    let cloths: usize = world.cloths().iter().map(|c| c.step_work()).sum();
    assert!(
        vines.max(cloths) >= MIN_PARALLEL_WORK,
        "{name}: vines {vines}, cloths {cloths}: too light to use the cores"
    );
    let (one, moved) = on_threads(1, || hashes(world.clone(), ticks));
    let (four, _) = on_threads(4, || hashes(world.clone(), ticks));
    let first_difference = one.iter().zip(&four).position(|(a, b)| a != b);
    assert_eq!(
        first_difference, None,
        "{name}: one thread and four part at that tick"
    );
    // The worlds moved: still worlds would compare equal whatever ran.
    assert!(moved, "{name}: nothing moved");
}

#[test]
fn the_stress_level_is_the_same_on_one_thread_and_on_four() {
    // 20 moving platforms knocking 30 vines about, 5 loaded winches reeling.
    assert_same_on_one_and_four_threads("stress", &step_support::stress_world(), 120);
}

#[test]
fn the_weather_level_is_the_same_on_one_thread_and_on_four() {
    // 30 vines and 4 banners in gusts.
    assert_same_on_one_and_four_threads("weather", &step_support::weather_world(true), 60);
}

#[test]
fn a_tearing_solution_replay_is_the_same_on_one_thread_and_on_four() {
    // Level 19's solution, whole: banners in gusts, and a net the player runs through and tears.
    let path = common::root().join("levels/solutions/19_banner_hall.ron");
    let run = || tether::cli::run_replay_file(&common::root(), &path).expect("replay runs");
    let (one, four) = (on_threads(1, run), on_threads(4, run));
    assert!(one.goal_reached, "{one}");
    assert_eq!(one, four);
}
