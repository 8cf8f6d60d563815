//! The cloth against the world: particles pushed aside by the player and the player's rope, and
//! projected out of the level (a swept ray for fast ones).

use super::{Cloth, Pusher, FRICTION, PARTICLE_RADIUS_M, PUSH_SHARE};
use crate::geometry::Geometry;
use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};
use rapier2d::parry::query::Ray;

impl Cloth {
    /// Pushes particles out of the pushers; a pushed particle takes on some of their velocity.
    pub(super) fn push_out(&mut self, pushers: &[Pusher], h: f32) {
        for pusher in pushers {
            let aabb = pusher.aabb().loosened(PARTICLE_RADIUS_M);
            for i in 0..self.pos.len() {
                let p = self.pos[i];
                if self.inv_mass[i] == 0.0 || !aabb.contains_local_point(p) {
                    continue;
                }
                if let Some(out) = pusher.push_out(p, PARTICLE_RADIUS_M) {
                    let velocity = (p - self.prev[i]) / h;
                    let shared = velocity.lerp(pusher.velocity(), PUSH_SHARE);
                    self.pos[i] = out;
                    self.prev[i] = out - shared * h;
                }
            }
        }
    }

    /// Keeps every particle a radius outside the level's solids, with a swept test for fast ones.
    /// Moving solids are where they are `progress` of the way through the tick.
    pub(super) fn collide(&mut self, geometry: &Geometry, progress: f32) {
        if self.scratch.near.is_empty() {
            return;
        }
        let scratch = &mut *self.scratch;
        scratch.near_poses.clear();
        scratch.near_poses.extend(
            scratch
                .near
                .iter()
                .map(|&(at, _)| geometry.collider_pose_at(at, progress)),
        );
        let radius_m = PARTICLE_RADIUS_M;
        for i in 0..self.pos.len() {
            if self.inv_mass[i] == 0.0 {
                continue;
            }
            let from = self.prev[i];
            for (&(at, collider_aabb), pose) in
                self.scratch.near.iter().zip(&self.scratch.near_poses)
            {
                let p = self.pos[i];
                // Cheap reject: the particle's path this substep, a radius around, misses the
                // collider's box.
                let path = Aabb::new(from.min(p), from.max(p)).loosened(radius_m);
                if !path.intersects(&collider_aabb) {
                    continue;
                }
                let shape = geometry.collider(at).shape();
                let motion = p - from;
                let moved_m = motion.length();
                // A fast particle: stop it at the surface it would have crossed.
                if moved_m > radius_m * 0.5 {
                    let ray = Ray::new(from, motion / moved_m);
                    if let Some(hit) = shape.cast_ray_and_get_normal(pose, &ray, moved_m, true) {
                        let stopped = ray.point_at(hit.time_of_impact) + hit.normal * radius_m;
                        self.pos[i] = stopped;
                        continue;
                    }
                }
                if !collider_aabb.loosened(radius_m).contains_local_point(p) {
                    continue;
                }
                let projection = shape.project_point(pose, p, false);
                let to_surface = projection.point - p;
                let dist = to_surface.length();
                let normal = if projection.is_inside {
                    if dist < 1e-9 {
                        continue;
                    }
                    to_surface / dist
                } else if dist < radius_m && dist > 1e-9 {
                    -to_surface / dist
                } else {
                    continue;
                };
                let out = projection.point + normal * radius_m;
                let push_m = out.distance(p);
                // Position-based friction, as the rope's.
                let slide = (out - from) - normal * (out - from).dot(normal);
                let slip_m = slide.length();
                let limit_m = FRICTION * push_m;
                let friction = if slip_m <= limit_m {
                    slide
                } else {
                    slide * (limit_m / slip_m)
                };
                self.pos[i] = out - friction;
            }
        }
    }
}
