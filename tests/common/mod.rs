//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod prop;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tether::sim::math::Vec2;
use tether::sim::{InputFrame, LevelDef, Tuning, World};

/// No button held, no aim: a tick of standing still.
pub const IDLE: InputFrame = InputFrame {
    move_x: 0,
    reel: 0,
    jump_held: false,
    jump_pressed: false,
    fire_pressed: false,
    release_pressed: false,
    wheel_notches: 0,
    aim_x: 0.0,
    aim_y: 0.0,
};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn tuning() -> Arc<Tuning> {
    tether::cli::load_tuning(&root()).expect("assets/tuning.ron loads")
}

/// A world from level RON text.
pub fn world_from(text: &str) -> World {
    let level = LevelDef::from_ron(text, "test.ron").expect("test level parses");
    World::from_level(level, tuning(), "test.ron").expect("test level builds")
}

pub fn level_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("levels"))
        .expect("levels/ exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron") && !p.ends_with("index.ron"))
        .collect();
    files.sort();
    files
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("readable")
}

/// A fresh, empty folder for one test (`kind` and `name` keep tests apart).
pub fn temp_dir(kind: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tether-{kind}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Where every moving thing in `world` is: the player, their rope, the vines, the winch ropes,
/// loose rope pieces and cloth particles. Unlike the state hash it leaves out the tick and the
/// counters, so two ticks give equal lists exactly when nothing moved.
pub fn body_positions(world: &World) -> Vec<Vec2> {
    let mut all = vec![world.player.pos];
    if let Some(rope) = world.rope() {
        all.extend_from_slice(&rope.nodes);
    }
    for vine in &world.vines {
        all.extend_from_slice(&vine.rope.nodes);
    }
    for winch in &world.winches {
        all.extend_from_slice(&winch.rope.nodes);
    }
    for piece in &world.loose_ropes {
        all.extend_from_slice(&piece.rope.nodes);
    }
    for cloth in &world.cloths {
        all.extend_from_slice(cloth.positions());
    }
    all
}
