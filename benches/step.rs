//! One full `World::step` (player, hook, rope substeps and every Rapier query) on the largest
//! shipped level, with the player swinging on the rope: the game's per-tick cost.
//! The figure is reported in the README and docs/performance.md; no test asserts a time.

use std::path::Path;
use std::sync::Arc;

mod step_support;

use criterion::{criterion_group, criterion_main, Criterion};
use step_support::{banner_in_gale, step_banner, stress_world, weather_world};
use tether::sim::{Replay, World};

/// Loads the level with the most objects and plays its solution until the rope is attached.
fn swinging_world_on_largest_level() -> (World, Vec<tether::sim::InputFrame>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tuning = tether::cli::load_tuning(root).expect("tuning");
    let mut best: Option<(usize, String)> = None;
    for entry in std::fs::read_dir(root.join("levels")).expect("levels") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "ron") || path.ends_with("index.ron") {
            continue;
        }
        let world = tether::cli::load_world(&path, Arc::clone(&tuning)).expect("level");
        // Solid, hazards and rings: the levels whose solution swings (the object levels have
        // their own stress bench below).
        if !world.level().platforms.is_empty() || !world.level().winches.is_empty() {
            continue;
        }
        let size = world.level().solids.len()
            + world.level().hazards.len()
            + world.level().grapple_points.len();
        if best.as_ref().is_none_or(|(s, _)| size > *s) {
            best = Some((
                size,
                path.file_name().unwrap().to_string_lossy().into_owned(),
            ));
        }
    }
    let name = best.expect("a level").1;
    swinging_world(&name, tuning)
}

/// The level's world, played through its solution until the player has swung 10 ticks.
fn swinging_world(
    name: &str,
    tuning: Arc<tether::sim::Tuning>,
) -> (World, Vec<tether::sim::InputFrame>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let replay_text =
        std::fs::read_to_string(root.join("levels/solutions").join(name)).expect("solution");
    let replay = Replay::from_ron(&replay_text, name).expect("replay");
    let mut world =
        tether::cli::load_world(&root.join("levels").join(name), tuning).expect("level");
    let frames: Vec<_> = replay.frames().copied().collect();
    let mut next = 0;
    while world.rope().is_none() {
        world.step(&frames[next]);
        next += 1;
    }
    // A few more ticks so the rope is mid-swing, not just attached.
    for _ in 0..10 {
        world.step(&frames[next]);
        next += 1;
    }
    (world, frames[next..].to_vec())
}

fn bench_step(c: &mut Criterion) {
    let (world, frames) = swinging_world_on_largest_level();
    let input = frames[0];
    c.bench_function("step/largest_level_swinging", |b| {
        b.iter_batched_ref(
            || world.clone(),
            |w| w.step(&input),
            criterion::BatchSize::SmallInput,
        )
    });
    let mut idle = world.clone();
    idle.set_hook(tether::sim::hook::Hook::Idle);
    c.bench_function("step/largest_level_running", |b| {
        b.iter_batched_ref(
            || idle.clone(),
            |w| w.step(&input),
            criterion::BatchSize::SmallInput,
        )
    });
}

fn bench_world(c: &mut Criterion, name: &str, world: &World) {
    let input = tether::sim::InputFrame::default();
    c.bench_function(name, |b| {
        b.iter_batched_ref(
            || world.clone(),
            |w| w.step(&input),
            criterion::BatchSize::SmallInput,
        )
    });
}

fn bench_stress(c: &mut Criterion) {
    // A second in: the winches are reeling and the loads swinging.
    let world = stress_world();
    bench_world(c, "step/stress_objects_swinging", &world);
}

fn bench_weather(c: &mut Criterion) {
    let world = weather_world(false);
    bench_world(c, "step/weather_without_cloth_swinging", &world);
    let world = weather_world(true);
    bench_world(c, "step/weather_swinging", &world);
    // One banner alone, in a 15 m/s wind gusting to 25, beside a wall it blows against.
    let (geometry, banner) = banner_in_gale();
    c.bench_function("cloth/banner_32x24_gale", |b| {
        b.iter_batched_ref(
            || banner.clone(),
            |cloth| step_banner(&geometry, cloth),
            criterion::BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench_step, bench_stress, bench_weather);
criterion_main!(benches);
