//! The worlds of the step benches (issue 9's stress level, issue 10's weather level, one banner
//! in a gale), shared by `benches/step.rs` and `examples/tick_cost.rs` (which counts the
//! instructions of a tick, a measure the machine's load does not move).

use std::path::Path;
use std::sync::Arc;

use tether::sim::cloth::{Air, Cloth};
use tether::sim::geometry::Geometry;
use tether::sim::level::{ShapeDef, P};
use tether::sim::math::Vec2;
use tether::sim::{LevelDef, World};

/// The stress level's hall (120 × 26 m, floor, ceiling and walls; `benches/levels/weather.ron`
/// is built in the same one): a level's fields from the spawn to the solids.
const HALL: &str = r#"spawn: (0.0, 1.0),
            goal: (min: (70.0, 0.0), max: (72.0, 2.0)),
            kill_y_m: -30.0,
            solids: [
                (shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0))),
                (shape: Box(center: (0.0, 25.0), half_extents: (60.0, 1.0))),
                (shape: Box(center: (-60.0, 12.0), half_extents: (1.0, 12.0))),
                (shape: Box(center: (60.0, 12.0), half_extents: (1.0, 12.0))),
            ],"#;

/// 30 vines of 12 m (40 nodes of the rope's 0.3 m segments) hanging from the hall's ceiling,
/// 3 m apart.
fn row_of_vines() -> String {
    (0..30)
        .map(|i| {
            format!(
                "(at: ({}, 24.0), length_m: 12.0),\n",
                -45.0 + i as f32 * 3.0
            )
        })
        .collect()
}

/// The stress level of issue 9: 20 moving platforms (paths and turning), 30 vines of 40 nodes,
/// 5 winches with loads (weights and platforms, on timers), a 60 m floor and walls, and the player swinging on a full
/// rope from a ring among them. Written as RON so it goes through the same loader as a level.
pub fn stress_level() -> String {
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
    let vines = row_of_vines();
    format!(
        r#"Level(
            name: "stress",
            {HALL}
            hazards: [],
            grapple_points: [(0.0, 20.0)],
            platforms: [{platforms}],
            winches: [{winches}],
            vines: [{vines}],
        )"#
    )
}

/// A world of `level` with the player swinging from the ring at (0, 20) on a full rope,
/// 30° out, after `settle_ticks` of play.
pub fn swinging_from_ring(level: LevelDef, settle_ticks: usize) -> World {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tuning = tether::cli::load_tuning(root).expect("tuning");
    let mut world = World::from_level(level, Arc::clone(&tuning), "bench.ron").expect("builds");
    let anchor = tether::sim::math::Vec2::new(0.0, 20.0);
    world.place_player(anchor + tether::sim::math::Vec2::new(6.0, -10.4));
    world.set_hook(tether::sim::hook::Hook::attached_fixed(
        tether::sim::rope::Rope::new(
            anchor,
            world.player().pos,
            tuning.rope.max_length_m,
            &tuning.rope,
        ),
        tether::sim::AttachKind::GrapplePoint,
    ));
    let input = tether::sim::InputFrame::default();
    for _ in 0..settle_ticks {
        world.step(&input);
    }
    assert!(world.rope().is_some(), "still swinging");
    world
}

/// The stress bench's world: a second in, the winches reeling and the loads swinging.
pub fn stress_world() -> World {
    swinging_from_ring(
        LevelDef::from_ron(&stress_level(), "stress.ron").expect("the stress level"),
        120,
    )
}

/// Issue 10's weather level (`benches/levels/weather.ron`: 30 vines of 40 nodes, 4 banners of
/// 32 × 24, a wind gusting 8–20 m/s, the stress level's hall), without its banners when
/// `banners` is false. A file, so the browser test can play the same level in the page.
pub fn weather_level(banners: bool) -> LevelDef {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/levels/weather.ron");
    let text = std::fs::read_to_string(&path).expect("benches/levels/weather.ron");
    let mut level = LevelDef::from_ron(&text, "weather.ron").expect("the weather level");
    if !banners {
        level.cloths.clear();
    }
    level
}

/// The weather bench's world: two seconds in, in a gust (the 3 s period's pulse peaks at 0.9 s
/// and 3.9 s).
pub fn weather_world(banners: bool) -> World {
    swinging_from_ring(weather_level(banners), 240)
}

/// The air of the banner bench: 15 m/s gusting to 25 across the banner's height, a little down.
pub fn gale(p: Vec2) -> Vec2 {
    Vec2::new(20.0 + 5.0 * (p.y - 8.0).clamp(-1.0, 1.0), -2.0)
}

/// Gravity of the banner bench (the game's).
pub const BANNER_GRAVITY: Vec2 = Vec2::new(0.0, -40.0);
/// The game's tick, for the banner bench.
pub const BANNER_DT_S: f32 = 1.0 / 120.0;

/// One banner of 32 × 24 particles pinned along its top, beside a wall it blows against, after
/// two seconds of gale.
pub fn banner_in_gale() -> (Geometry, Cloth) {
    let geometry = Geometry::of_solids(vec![ShapeDef::Box {
        center: P(4.0, 8.5),
        half_extents: P(0.3, 2.0),
        rotation_deg: 0.0,
    }]);
    let pins: Vec<(usize, usize)> = (0..32).map(|c| (c, 0)).collect();
    let mut banner = Cloth::new(Vec2::new(0.0, 10.0), 32, 24, 0.1, &pins, None);
    for _ in 0..240 {
        step_banner(&geometry, &mut banner);
    }
    (geometry, banner)
}

/// One tick of the banner bench: the banner in the gale, nothing pushing it.
pub fn step_banner(geometry: &Geometry, banner: &mut Cloth) -> u32 {
    banner.step(
        geometry,
        BANNER_GRAVITY,
        Air::Varying(&gale),
        &[],
        BANNER_DT_S,
    )
}
