//! Drawing. Reads the world (and the previous tick's snapshot for interpolation); never changes it.

pub mod art;
pub mod background;
pub mod effects;
pub mod hud;
pub mod materials;
pub mod player_sprite;
pub mod rope_mesh;
pub mod scene;

use crate::sim::hook::Hook;
use crate::sim::math::Vec2;
use crate::sim::World;

/// What moves between ticks, captured before each tick so drawing can interpolate.
#[derive(Clone, Default)]
pub struct Snapshot {
    pub player_pos: Vec2,
    pub rope_nodes: Vec<Vec2>,
    pub hook_pos: Option<Vec2>,
    pub tick: u64,
}

impl Snapshot {
    pub fn of(world: &World) -> Snapshot {
        let (rope_nodes, hook_pos) = match &world.hook {
            Hook::Attached { rope, .. } => (rope.nodes.clone(), None),
            Hook::Flying { pos, .. } | Hook::Retracting { pos } => (Vec::new(), Some(*pos)),
            Hook::Idle => (Vec::new(), None),
        };
        Snapshot {
            player_pos: world.player.pos,
            rope_nodes,
            hook_pos,
            tick: world.tick,
        }
    }

    /// The state `alpha` of the way from `prev` to `now`. Across a teleport (respawn) or a change
    /// in what the hook is doing, there is nothing sensible to blend: draw `now` as it is.
    pub fn interpolate(
        prev: &Snapshot,
        now: &Snapshot,
        alpha: f32,
        teleported_at_tick: Option<u64>,
    ) -> Snapshot {
        let teleported = teleported_at_tick == Some(now.tick) || prev.tick + 1 != now.tick;
        if teleported {
            return now.clone();
        }
        let lerp = |a: Vec2, b: Vec2| a.lerp(b, alpha);
        let rope_nodes = if prev.rope_nodes.len() == now.rope_nodes.len() {
            prev.rope_nodes
                .iter()
                .zip(&now.rope_nodes)
                .map(|(&a, &b)| lerp(a, b))
                .collect()
        } else {
            now.rope_nodes.clone()
        };
        let hook_pos = match (prev.hook_pos, now.hook_pos) {
            (Some(a), Some(b)) => Some(lerp(a, b)),
            (_, b) => b,
        };
        Snapshot {
            player_pos: lerp(prev.player_pos, now.player_pos),
            rope_nodes,
            hook_pos,
            tick: now.tick,
        }
    }
}

/// Converts the simulation's glam vector to macroquad's (they are different glam versions).
pub fn mq(v: Vec2) -> macroquad::math::Vec2 {
    macroquad::math::Vec2::new(v.x, v.y)
}

/// And back.
pub fn sim_vec(v: macroquad::math::Vec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}
