//! `ref-gs80`: a port of the reference algorithm of the 2020 article "Verlet Rope in Games",
//! used only as the baseline of the rope benchmarks (never by the game).
//!
//! Per step: Verlet integration of every node; once per step each node gathers the colliders
//! near it (the article's per-node overlap query, here Rapier's BVH); then 80 Gauss-Seidel passes
//! over the distance constraints, each followed by per-node collision against the gathered
//! circles and boxes (point projection, pushed out to the rope's radius).

use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};
use tether::sim::geometry::{groups, ColliderRef, Geometry};
use tether::sim::math::Vec2;

/// Constraint passes per step, as in the article.
pub const PASSES: usize = 80;
/// Most colliders one node remembers per step (the article's fixed-size overlap buffer).
const MAX_NEARBY_PER_NODE: usize = 8;

#[derive(Clone)]
pub struct RefRope {
    pub nodes: Vec<Vec2>,
    prev: Vec<Vec2>,
    inv_mass: Vec<f32>,
    rest_m: f32,
    radius_m: f32,
    /// Velocity kept per step (same air drag as the project's rope gets).
    keep_per_step: f32,
    /// Per node, the colliders near it this step (`MAX_NEARBY_PER_NODE` slots each).
    nearby: Vec<Option<ColliderRef>>,
    /// Scratch for the broad phase, kept to avoid an allocation per node.
    candidates: Vec<(ColliderRef, Aabb)>,
}

impl RefRope {
    /// `points` are the initial nodes; node 0 is pinned; the last node weighs `end_mass_ratio`.
    pub fn new(
        points: &[Vec2],
        rest_m: f32,
        radius_m: f32,
        end_mass_ratio: f32,
        keep_per_step: f32,
    ) -> RefRope {
        let n = points.len();
        let mut inv_mass = vec![1.0; n];
        inv_mass[0] = 0.0;
        inv_mass[n - 1] = 1.0 / end_mass_ratio;
        RefRope {
            nodes: points.to_vec(),
            prev: points.to_vec(),
            inv_mass,
            rest_m,
            radius_m,
            keep_per_step,
            nearby: vec![None; n * MAX_NEARBY_PER_NODE],
            candidates: Vec::new(),
        }
    }

    /// One fixed step; the pinned node 0 is moved to `anchor`.
    pub fn step(&mut self, geometry: &Geometry, gravity: Vec2, anchor: Vec2, dt_s: f32) {
        let gravity_step = gravity * (dt_s * dt_s);
        for i in 1..self.nodes.len() {
            let v = (self.nodes[i] - self.prev[i]) * self.keep_per_step;
            self.prev[i] = self.nodes[i];
            self.nodes[i] += v + gravity_step;
        }
        self.prev[0] = self.nodes[0];
        self.nodes[0] = anchor;
        self.snapshot_nearby(geometry);
        for _ in 0..PASSES {
            self.apply_constraints();
            self.adjust_collisions(geometry);
        }
    }

    fn snapshot_nearby(&mut self, geometry: &Geometry) {
        for (i, &p) in self.nodes.iter().enumerate() {
            let motion = (p - self.prev[i]).length();
            let aabb = Aabb::new(p, p).loosened(self.radius_m + motion + self.rest_m);
            let slots = &mut self.nearby[i * MAX_NEARBY_PER_NODE..(i + 1) * MAX_NEARBY_PER_NODE];
            slots.fill(None);
            self.candidates.clear();
            geometry.colliders_near(aabb, groups::SOLID, &mut self.candidates);
            for (slot, (at, _)) in slots.iter_mut().zip(&self.candidates) {
                *slot = Some(*at);
            }
        }
    }

    fn apply_constraints(&mut self) {
        for i in 0..self.nodes.len() - 1 {
            let (wa, wb) = (self.inv_mass[i], self.inv_mass[i + 1]);
            let delta = self.nodes[i + 1] - self.nodes[i];
            let dist = delta.length();
            if dist < 1e-9 {
                continue;
            }
            let correction = delta * ((dist - self.rest_m) / (dist * (wa + wb)));
            self.nodes[i] += correction * wa;
            self.nodes[i + 1] -= correction * wb;
        }
    }

    fn adjust_collisions(&mut self, geometry: &Geometry) {
        for i in 1..self.nodes.len() {
            for slot in 0..MAX_NEARBY_PER_NODE {
                let Some(handle) = self.nearby[i * MAX_NEARBY_PER_NODE + slot] else {
                    break;
                };
                let collider = geometry.collider(handle);
                let p = self.nodes[i];
                let proj = collider
                    .shape()
                    .project_point(collider.position(), p, false);
                let offset = p - proj.point;
                let dist = offset.length();
                if proj.is_inside {
                    // Inside: out through the nearest surface point, plus the radius.
                    let normal = if dist > 1e-9 { -offset / dist } else { Vec2::Y };
                    self.nodes[i] = proj.point + normal * self.radius_m;
                } else if dist < self.radius_m && dist > 1e-9 {
                    self.nodes[i] = proj.point + offset * (self.radius_m / dist);
                }
            }
        }
    }
}
