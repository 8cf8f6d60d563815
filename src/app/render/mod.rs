//! Drawing. Reads the world (and the previous tick's snapshot for interpolation); never changes it.

pub mod art;
pub mod background;
pub mod bodies;
pub mod effects;
pub mod hud;
pub mod materials;
pub mod objects;
pub mod player_sprite;
pub mod rope_mesh;
pub mod scene;
pub mod text;
pub mod textures;

use crate::sim::geometry::Body;
use crate::sim::hook::Hook;
use crate::sim::math::{Pose, Vec2};
use crate::sim::World;

/// What moves between ticks, captured before each tick so drawing can interpolate.
#[derive(Clone, Default)]
pub struct Snapshot {
    pub player_pos: Vec2,
    pub rope_nodes: Vec<Vec2>,
    pub hook_pos: Option<Vec2>,
    /// Every moving body's pose: platforms, then winch loads.
    pub bodies: Vec<(Body, Pose)>,
    /// Each winch's rope, in the level's order.
    pub level_ropes: Vec<Vec<Vec2>>,
    /// Each vine whole (a held one: above the hand, then below), in the level's order.
    pub vine_ropes: Vec<Vec<Vec2>>,
    /// Pieces of broken ropes, in the world's order.
    pub loose_ropes: Vec<Vec<Vec2>>,
    /// Each cloth's particles, in the level's order.
    pub cloths: Vec<Vec<Vec2>>,
    pub tick: u64,
}

impl Snapshot {
    pub fn of(world: &World) -> Snapshot {
        let (rope_nodes, hook_pos) = match world.hook() {
            Hook::Attached { rope, .. } => (rope.nodes.clone(), None),
            Hook::Flying { pos, .. } | Hook::Retracting { pos } => (Vec::new(), Some(*pos)),
            Hook::Idle => (Vec::new(), None),
        };
        let platforms = (0..world.level().platforms.len()).map(|i| Body::Platform(i as u16));
        let loads = (0..world.winches().len()).map(|i| Body::WinchLoad(i as u16));
        let moving = platforms
            .chain(loads)
            .map(|body| (body, world.body_pose(body)));
        Snapshot {
            player_pos: world.player().pos,
            rope_nodes,
            hook_pos,
            bodies: moving.chain(objects::fragile::beam_poses(world)).collect(),
            level_ropes: world
                .winches()
                .iter()
                .map(|w| w.rope.nodes.clone())
                .collect(),
            vine_ropes: world
                .vines()
                .iter()
                .enumerate()
                .map(|(i, vine)| match world.rope() {
                    Some(above) if world.held_vine() == Some(i) => {
                        let mut nodes = above.nodes.clone();
                        nodes.extend_from_slice(&vine.rope.nodes[1..]);
                        nodes
                    }
                    _ => vine.rope.nodes.clone(),
                })
                .collect(),
            loose_ropes: world
                .loose_ropes()
                .iter()
                .map(|l| l.rope.nodes.clone())
                .collect(),
            cloths: world
                .cloths()
                .iter()
                .map(|c| c.positions().to_vec())
                .collect(),
            tick: world.tick(),
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
        let lerp_nodes = |a: &[Vec2], b: &[Vec2]| -> Vec<Vec2> {
            if a.len() == b.len() {
                a.iter().zip(b).map(|(&a, &b)| lerp(a, b)).collect()
            } else {
                b.to_vec()
            }
        };
        let rope_nodes = lerp_nodes(&prev.rope_nodes, &now.rope_nodes);
        let bodies = if prev.bodies.len() == now.bodies.len() {
            prev.bodies
                .iter()
                .zip(&now.bodies)
                .map(|((_, a), (body, b))| (*body, a.lerp(b, alpha)))
                .collect()
        } else {
            now.bodies.clone()
        };
        let lerp_ropes = |a: &[Vec<Vec2>], b: &[Vec<Vec2>]| -> Vec<Vec<Vec2>> {
            if a.len() == b.len() {
                a.iter().zip(b).map(|(a, b)| lerp_nodes(a, b)).collect()
            } else {
                b.to_vec()
            }
        };
        let level_ropes = lerp_ropes(&prev.level_ropes, &now.level_ropes);
        let vine_ropes = lerp_ropes(&prev.vine_ropes, &now.vine_ropes);
        let loose_ropes = lerp_ropes(&prev.loose_ropes, &now.loose_ropes);
        let cloths = lerp_ropes(&prev.cloths, &now.cloths);
        let hook_pos = match (prev.hook_pos, now.hook_pos) {
            (Some(a), Some(b)) => Some(lerp(a, b)),
            (_, b) => b,
        };
        Snapshot {
            player_pos: lerp(prev.player_pos, now.player_pos),
            rope_nodes,
            hook_pos,
            bodies,
            level_ropes,
            vine_ropes,
            loose_ropes,
            cloths,
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
