//! The grappling rope: a Verlet chain from a fixed anchor to the player, who is its heavy last node.
//!
//! Method (see docs/rope.md for the measurements behind it):
//! - small steps: the tick is split into `substeps`, each with one Gauss-Seidel pass of the
//!   distance constraints (Macklin et al. 2019), which converges far better than many passes of
//!   one big step;
//! - long-range attachments (Kim et al. 2012) from the last node touching the level (the pivot
//!   the rope wraps around), or from the anchor: no node may be further from the pivot than the
//!   rope length between them. This makes the rope inextensible where the player feels it;
//! - collision per segment (a capsule of the rope's radius against each nearby shape, through
//!   parry's contact query), so a corner cannot slip between two nodes and the rope wraps;
//! - one broad-phase query per tick through Rapier's BVH, the narrow phase per substep.

use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};
use rapier2d::parry::query;
use rapier2d::parry::shape::{Segment, SharedShape};

use super::geometry::{groups, Geometry};
use super::math::{Pose, Vec2};
use super::tuning::RopeTuning;

/// A nearby solid, gathered once per tick for the per-substep narrow phase.
#[derive(Clone)]
struct NearbySolid {
    pose: Pose,
    shape: SharedShape,
    aabb: Aabb,
}

#[derive(Clone)]
pub struct Rope {
    /// Node positions; `[0]` is the anchor, the last is the player's centre.
    pub nodes: Vec<Vec2>,
    prev: Vec<Vec2>,
    /// Inverse mass per node: 0 for the anchor, 1 for rope nodes, 1/ratio for the player.
    inv_mass: Vec<f32>,
    /// Whether the segment starting at each node touched the level in the last substep.
    touching: Vec<bool>,
    /// Current total rest length, between the tuning's min and the level's max.
    pub length_m: f32,
    /// The rest length at the start of the tick: reeling moves from it to `length_m` across the
    /// substeps, so a tick's reel is a steady pull, not a one-substep jolt that Verlet would
    /// turn into a huge velocity.
    length_at_tick_start_m: f32,
    nearby: Vec<NearbySolid>,
}

impl std::fmt::Debug for Rope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rope")
            .field("nodes", &self.nodes.len())
            .field("length_m", &self.length_m)
            .finish()
    }
}

impl PartialEq for Rope {
    fn eq(&self, other: &Self) -> bool {
        self.nodes == other.nodes && self.prev == other.prev && self.length_m == other.length_m
    }
}

impl Rope {
    /// A straight rope from `anchor` to `player_pos` whose length is their distance, clamped.
    /// The node count follows from the longest the rope may get, so reeling keeps it constant.
    pub fn new(anchor: Vec2, player_pos: Vec2, max_length_m: f32, tuning: &RopeTuning) -> Rope {
        let segments = ((max_length_m / tuning.segment_length_m).ceil() as usize).clamp(4, 512);
        let length_m = anchor
            .distance(player_pos)
            .clamp(tuning.min_length_m, max_length_m);
        let nodes: Vec<Vec2> = (0..=segments)
            .map(|i| anchor.lerp(player_pos, i as f32 / segments as f32))
            .collect();
        let mut inv_mass = vec![1.0; segments + 1];
        inv_mass[0] = 0.0;
        inv_mass[segments] = 1.0 / tuning.player_mass_ratio;
        Rope {
            prev: nodes.clone(),
            touching: vec![false; segments + 1],
            nodes,
            inv_mass,
            length_m,
            length_at_tick_start_m: length_m,
            nearby: Vec::new(),
        }
    }

    pub fn anchor(&self) -> Vec2 {
        self.nodes[0]
    }

    pub fn segment_count(&self) -> usize {
        self.nodes.len() - 1
    }

    pub fn segment_rest_m(&self) -> f32 {
        self.length_m / self.segment_count() as f32
    }

    /// The segment rest length `fraction` of the way through the tick's reel.
    fn segment_rest_during_tick_m(&self, fraction: f32) -> f32 {
        let length =
            self.length_at_tick_start_m + (self.length_m - self.length_at_tick_start_m) * fraction;
        length / self.segment_count() as f32
    }

    /// Sum of the segment lengths as they are now.
    pub fn measured_length_m(&self) -> f32 {
        self.nodes.windows(2).map(|w| w[0].distance(w[1])).sum()
    }

    /// The last node touching the level (the point the player swings around), or the anchor.
    pub fn pivot(&self) -> Vec2 {
        self.nodes[self.pivot_index()]
    }

    fn pivot_index(&self) -> usize {
        let last = self.segment_count();
        (1..last).rev().find(|&i| self.touching[i]).unwrap_or(0)
    }

    /// Sets the rest length, clamped to `[min, max]`.
    pub fn set_length(&mut self, length_m: f32, min_m: f32, max_m: f32) {
        self.length_m = length_m.clamp(min_m, max_m);
    }

    /// Advances the rope by `dt_s` with the player as its last node. The player enters with its
    /// position and velocity (already including this tick's gravity and input) and leaves with
    /// where the rope lets it go; the caller then moves the player there through the level.
    pub fn step(
        &mut self,
        geometry: &Geometry,
        tuning: &RopeTuning,
        gravity: Vec2,
        player_pos: Vec2,
        player_vel: Vec2,
        dt_s: f32,
    ) -> (Vec2, Vec2) {
        let last = self.segment_count();
        self.nodes[last] = player_pos;
        self.prev[last] = player_pos;
        let substeps = tuning.substeps.max(1);
        let h = dt_s / substeps as f32;
        self.gather_nearby(geometry, player_vel.length() * dt_s + tuning.radius_m);
        // Velocity damping per substep from the per-second retention.
        let keep = libm::powf(tuning.node_damping_per_s.clamp(0.0, 1.0), h);
        let mut player_v = player_vel;
        for k in 0..substeps {
            let rest = self.segment_rest_during_tick_m((k + 1) as f32 / substeps as f32);
            self.integrate(gravity, keep, player_v, h);
            self.solve_distances(rest);
            self.solve_tethers(rest);
            self.collide(tuning.radius_m);
            player_v = (self.nodes[last] - self.prev[last]) / h;
        }
        self.length_at_tick_start_m = self.length_m;
        (self.nodes[last], player_v)
    }

    /// After the player was moved through the level, the rope's end follows it exactly.
    pub fn set_player(&mut self, pos: Vec2) {
        let last = self.segment_count();
        self.nodes[last] = pos;
        self.prev[last] = pos;
    }

    fn gather_nearby(&mut self, geometry: &Geometry, margin_m: f32) {
        let mut aabb = Aabb::new_invalid();
        for &p in &self.nodes {
            aabb.take_point(p);
        }
        let aabb = aabb.loosened(margin_m + 0.5);
        self.nearby.clear();
        let pipeline = geometry.pipeline(groups::SOLID);
        for (_, collider) in pipeline.intersect_aabb_conservative(aabb) {
            self.nearby.push(NearbySolid {
                pose: *collider.position(),
                shape: collider.shared_shape().clone(),
                aabb: collider.compute_aabb(),
            });
        }
    }

    fn integrate(&mut self, gravity: Vec2, keep: f32, player_v: Vec2, h: f32) {
        let last = self.segment_count();
        for i in 1..last {
            let v = (self.nodes[i] - self.prev[i]) * keep;
            self.prev[i] = self.nodes[i];
            self.nodes[i] += v + gravity * (h * h);
        }
        self.prev[last] = self.nodes[last];
        self.nodes[last] += player_v * h;
    }

    fn solve_distances(&mut self, rest: f32) {
        for i in 0..self.segment_count() {
            let (wa, wb) = (self.inv_mass[i], self.inv_mass[i + 1]);
            let w = wa + wb;
            if w == 0.0 {
                continue;
            }
            let delta = self.nodes[i + 1] - self.nodes[i];
            let dist = delta.length();
            if dist < 1e-9 {
                continue;
            }
            let correction = delta * ((dist - rest) / (dist * w));
            self.nodes[i] += correction * wa;
            self.nodes[i + 1] -= correction * wb;
        }
    }

    /// Long-range attachments: a node may be no further from the pivot (or, before the pivot,
    /// from the anchor) than the rest length of the rope between them.
    fn solve_tethers(&mut self, rest: f32) {
        let pivot = self.pivot_index();
        let last = self.segment_count();
        for i in 1..=last {
            let base = if i > pivot { pivot } else { 0 };
            let max_dist = (i - base) as f32 * rest;
            let delta = self.nodes[i] - self.nodes[base];
            let dist = delta.length();
            if dist > max_dist {
                self.nodes[i] = self.nodes[base] + delta * (max_dist / dist);
            }
        }
    }

    /// Pushes every segment (a capsule of `radius_m`) out of the nearby solids. The anchor and the
    /// player do not move here: the anchor is fixed and the player has its own collision.
    fn collide(&mut self, radius_m: f32) {
        let last = self.segment_count();
        for flag in self.touching.iter_mut() {
            *flag = false;
        }
        let identity = Pose::IDENTITY;
        for i in 0..last {
            let (a, b) = (self.nodes[i], self.nodes[i + 1]);
            let seg_aabb = Aabb::new(a.min(b), a.max(b)).loosened(radius_m);
            for solid in &self.nearby {
                if !solid.aabb.intersects(&seg_aabb) {
                    continue;
                }
                let segment = Segment::new(self.nodes[i], self.nodes[i + 1]);
                let Ok(Some(contact)) = query::contact(
                    &identity,
                    &segment,
                    &solid.pose,
                    solid.shape.as_ref(),
                    radius_m,
                ) else {
                    continue;
                };
                let depth = radius_m - contact.dist;
                if depth <= 0.0 {
                    continue;
                }
                self.touching[i] = true;
                self.touching[i + 1] = true;
                // Split the push between the segment's ends by where along it the contact is;
                // the anchor and the player are treated as fixed.
                let seg = self.nodes[i + 1] - self.nodes[i];
                let len2 = seg.length_squared();
                let t = if len2 > 1e-12 {
                    ((contact.point1 - self.nodes[i]).dot(seg) / len2).clamp(0.0, 1.0)
                } else {
                    0.5
                };
                let wa = if i == 0 { 0.0 } else { 1.0 };
                let wb = if i + 1 == last { 0.0 } else { 1.0 };
                let denom = wa * (1.0 - t) * (1.0 - t) + wb * t * t;
                if denom < 1e-6 {
                    continue;
                }
                let push = -contact.normal1 * (depth / denom);
                self.nodes[i] += push * (wa * (1.0 - t));
                self.nodes[i + 1] += push * (wb * t);
            }
        }
    }
}
