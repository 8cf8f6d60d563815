//! One full `World::step` (player, hook, rope substeps and every Rapier query) on the largest
//! shipped level, with the player swinging on the rope: the game's per-tick cost.
//! The figure is reported in README; no test asserts a time.

use std::path::Path;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use tether::sim::level::{ShapeDef, P};
use tether::sim::math::Vec2;
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
        if !world.level.platforms.is_empty() || !world.level.winches.is_empty() {
            continue;
        }
        let size =
            world.level.solids.len() + world.level.hazards.len() + world.level.grapple_points.len();
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
    idle.hook = tether::sim::hook::Hook::Idle;
    c.bench_function("step/largest_level_running", |b| {
        b.iter_batched_ref(
            || idle.clone(),
            |w| w.step(&input),
            criterion::BatchSize::SmallInput,
        )
    });
}

/// The stress level of issue 9: 20 moving platforms (paths and turning), 30 vines of 40 nodes,
/// 5 winches with loads (weights and platforms, on timers), a 60 m floor and walls, and the player swinging on a full
/// rope from a ring among them. Written as RON so it goes through the same loader as a level.
fn stress_level() -> String {
    let mut platforms = String::new();
    for i in 0..20 {
        let x = -40.0 + i as f32 * 4.0;
        let y = 6.0 + (i % 4) as f32 * 3.0;
        if i % 3 == 0 {
            platforms += &format!(
                "(shape: Box(center: ({x}, {y}), half_extents: (1.2, 0.2)), \
                 motion: Rotate(pivot: ({x}, {y}), deg_per_s: 45.0)),\n"
            );
        } else {
            let (x2, y2) = (x + 2.0, y + 2.0);
            platforms += &format!(
                "(shape: Box(center: ({x}, {y}), half_extents: (1.2, 0.2)), \
                 motion: Path(points: [({x}, {y}), ({x2}, {y}), ({x2}, {y2})], speed_m_per_s: 3.0, ping_pong: {})),\n",
                i % 2 == 0
            );
        }
    }
    let mut winches = String::new();
    for i in 0..5 {
        let x = -30.0 + i as f32 * 14.0;
        let load = if i % 2 == 0 {
            "Weight(radius_m: 0.6, mass_kg: 80.0)"
        } else {
            "Platform(half_extents: (1.2, 0.2), mass_kg: 60.0)"
        };
        winches += &format!(
            "(at: ({x}, 24.0), min_length_m: 4.0, max_length_m: 16.0, speed_m_per_s: 3.0, \
             load: {load}, drive: Timer(wait_s: 0.5)),\n"
        );
    }
    let mut vines = String::new();
    for i in 0..30 {
        // 12 m: 40 nodes of the rope's 0.3 m segments.
        let x = -45.0 + i as f32 * 3.0;
        vines += &format!("(at: ({x}, 24.0), length_m: 12.0),\n");
    }
    format!(
        r#"Level(
            name: "stress",
            spawn: (0.0, 1.0),
            goal: (min: (70.0, 0.0), max: (72.0, 2.0)),
            kill_y_m: -30.0,
            solids: [
                (shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0))),
                (shape: Box(center: (0.0, 25.0), half_extents: (60.0, 1.0))),
                (shape: Box(center: (-60.0, 12.0), half_extents: (1.0, 12.0))),
                (shape: Box(center: (60.0, 12.0), half_extents: (1.0, 12.0))),
            ],
            hazards: [],
            grapple_points: [(0.0, 20.0)],
            platforms: [{platforms}],
            winches: [{winches}],
            vines: [{vines}],
        )"#
    )
}

/// A world of `level_text` with the player swinging from the ring at (0, 20) on a full rope,
/// 30° out, after `settle_ticks` of play.
fn swinging_from_ring(level_text: &str, settle_ticks: usize) -> World {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tuning = tether::cli::load_tuning(root).expect("tuning");
    let level = tether::sim::LevelDef::from_ron(level_text, "bench.ron").expect("bench level");
    let mut world = World::from_level(level, Arc::clone(&tuning), "bench.ron").expect("builds");
    let anchor = tether::sim::math::Vec2::new(0.0, 20.0);
    world.player.pos = anchor + tether::sim::math::Vec2::new(6.0, -10.4);
    world.hook = tether::sim::hook::Hook::attached_fixed(
        tether::sim::rope::Rope::new(
            anchor,
            world.player.pos,
            tuning.rope.max_length_m,
            &tuning.rope,
        ),
        tether::sim::AttachKind::GrapplePoint,
    );
    let input = tether::sim::InputFrame::default();
    for _ in 0..settle_ticks {
        world.step(&input);
    }
    assert!(world.rope().is_some(), "still swinging");
    world
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
    let world = swinging_from_ring(&stress_level(), 120);
    bench_world(c, "step/stress_objects_swinging", &world);
}

/// Issue 10's weather workload: 30 vines of 40 nodes and (with `banners`) 4 banners of 32 × 24
/// particles in a wind with gusts over the whole level, and the player swinging among them.
fn weather_level(banners: bool) -> String {
    let cloths: String = if banners {
        (0..4)
            .map(|i| {
                format!(
                    "(top_left: ({}, 23.9), columns: 32, rows: 24, spacing_m: 0.1, pins: TopRow),\n",
                    -40.0 + i as f32 * 22.0
                )
            })
            .collect()
    } else {
        String::new()
    };
    let vines: String = (0..30)
        .map(|i| {
            format!(
                "(at: ({}, 24.0), length_m: 12.0),\n",
                -45.0 + i as f32 * 3.0
            )
        })
        .collect();
    format!(
        r#"Level(
            name: "weather",
            spawn: (0.0, 1.0),
            goal: (min: (70.0, 0.0), max: (72.0, 2.0)),
            kill_y_m: -30.0,
            solids: [
                (shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0))),
                (shape: Box(center: (0.0, 25.0), half_extents: (60.0, 1.0))),
                (shape: Box(center: (-60.0, 12.0), half_extents: (1.0, 12.0))),
                (shape: Box(center: (60.0, 12.0), half_extents: (1.0, 12.0))),
            ],
            grapple_points: [(0.0, 20.0)],
            vines: [{vines}],
            cloths: [{cloths}],
            wind: [(region: Box(center: (0.0, 12.0), half_extents: (59.0, 12.0)),
                    direction_deg: 0.0, speed_m_per_s: 8.0,
                    gust: (extra_m_per_s: 12.0, period_s: 3.0))],
        )"#
    )
}

fn bench_weather(c: &mut Criterion) {
    // Two seconds in, in a gust (the 3 s period's pulse peaks at 0.9 s and 3.9 s).
    let world = swinging_from_ring(&weather_level(false), 240);
    bench_world(c, "step/weather_without_cloth_swinging", &world);
    let world = swinging_from_ring(&weather_level(true), 240);
    bench_world(c, "step/weather_swinging", &world);
    // One banner alone, in a 15 m/s wind gusting to 25, beside a wall it blows against.
    let geometry = tether::sim::geometry::Geometry::of_solids(vec![ShapeDef::Box {
        center: P(4.0, 8.5),
        half_extents: P(0.3, 2.0),
        rotation_deg: 0.0,
    }]);
    let pins: Vec<(usize, usize)> = (0..32).map(|c| (c, 0)).collect();
    let mut banner = tether::sim::cloth::Cloth::new(Vec2::new(0.0, 10.0), 32, 24, 0.1, &pins, None);
    let gravity = Vec2::new(0.0, -40.0);
    let air = |p: Vec2| Vec2::new(20.0 + 5.0 * (p.y - 8.0).clamp(-1.0, 1.0), -2.0);
    for _ in 0..240 {
        banner.step(&geometry, gravity, Some(&air), &[], 1.0 / 120.0);
    }
    c.bench_function("cloth/banner_32x24_gale", |b| {
        b.iter_batched_ref(
            || banner.clone(),
            |cloth| cloth.step(&geometry, gravity, Some(&air), &[], 1.0 / 120.0),
            criterion::BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench_step, bench_stress, bench_weather);
criterion_main!(benches);
