//! The level's colliders in two layers, and the queries the simulation runs on them.
//!
//! The fixed layer (solids, hazards, rings, checkpoints, the goal) is built once per level and
//! shared between every copy of a world. The moving layer holds the colliders of moving objects
//! (platforms, winch loads): the world sets their bodies' poses at the start of each tick, before
//! any query, and the layer's bounding-volume tree is rebuilt then (a few dozen colliders: cheaper
//! and simpler than tracking Rapier's incremental updates). Every collision question (player,
//! hook, rope, triggers) goes through Rapier's query pipeline on both layers.

use std::sync::Arc;

use rapier2d::geometry::{
    BroadPhaseBvh, Collider, ColliderBuilder, ColliderHandle, ColliderSet, Group,
    InteractionGroups, InteractionTestMode, Ray, SharedShape,
};
use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};
use rapier2d::parry::query::{
    DefaultQueryDispatcher, PointProjection, ShapeCastHit, ShapeCastOptions,
};
use rapier2d::parry::shape::Shape;
use rapier2d::pipeline::{QueryFilter, QueryPipeline};
use rapier2d::prelude::{IntegrationParameters, RigidBodySet};

use super::math::{sort_short_by_key, Pose, Rotation, Vec2};

/// What a collider is, stored in its `user_data` with its object's index and body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColliderKind {
    Solid { hookable: bool },
    Hazard,
    GrapplePoint,
    Checkpoint,
    Goal,
    Switch,
}

/// What a collider moves with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Body {
    /// Never moves.
    Fixed,
    /// A moving platform (index into the level's `platforms`).
    Platform(u16),
    /// The load hanging from a winch (index into the level's `winches`).
    WinchLoad(u16),
    /// A fragile anchor (index into the level's `fragile`): still until it breaks, then gone.
    Fragile(u16),
}

impl Body {
    /// A number for the state hash.
    pub fn code(self) -> u64 {
        match self {
            Body::Fixed => 0,
            Body::Platform(i) => (1 << 16) | i as u64,
            Body::WinchLoad(i) => (2 << 16) | i as u64,
            Body::Fragile(i) => (3 << 16) | i as u64,
        }
    }
}

/// Collision groups; queries filter by them so that, say, the player never collides with a
/// grapple point and the hook never stops at a checkpoint.
pub mod groups {
    use super::Group;
    pub const SOLID: Group = Group::GROUP_1;
    pub const HAZARD: Group = Group::GROUP_2;
    pub const GRAPPLE_POINT: Group = Group::GROUP_3;
    pub const CHECKPOINT: Group = Group::GROUP_4;
    pub const GOAL: Group = Group::GROUP_5;
    pub const SWITCH: Group = Group::GROUP_6;
}

/// The kind, object index and body a collider was built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColliderTag {
    pub kind: ColliderKind,
    /// Index of the object in its kind's list.
    pub index: usize,
    pub body: Body,
}

impl ColliderTag {
    fn encode(self) -> u128 {
        let kind = match self.kind {
            ColliderKind::Solid { hookable: false } => 0u128,
            ColliderKind::Solid { hookable: true } => 1,
            ColliderKind::Hazard => 2,
            ColliderKind::GrapplePoint => 3,
            ColliderKind::Checkpoint => 4,
            ColliderKind::Goal => 5,
            ColliderKind::Switch => 6,
        };
        let body = self.body.code() as u128;
        (kind << 96) | (body << 64) | (self.index as u64) as u128
    }

    fn decode(data: u128) -> ColliderTag {
        let kind = match data >> 96 {
            0 => ColliderKind::Solid { hookable: false },
            1 => ColliderKind::Solid { hookable: true },
            2 => ColliderKind::Hazard,
            3 => ColliderKind::GrapplePoint,
            4 => ColliderKind::Checkpoint,
            5 => ColliderKind::Goal,
            _ => ColliderKind::Switch,
        };
        let body_bits = (data >> 64) as u32;
        let body_index = (body_bits & 0xffff) as u16;
        let body = match body_bits >> 16 {
            0 => Body::Fixed,
            1 => Body::Platform(body_index),
            2 => Body::WinchLoad(body_index),
            _ => Body::Fragile(body_index),
        };
        ColliderTag {
            kind,
            index: (data & u64::MAX as u128) as usize,
            body,
        }
    }

    fn group(self) -> Group {
        match self.kind {
            ColliderKind::Solid { .. } => groups::SOLID,
            ColliderKind::Hazard => groups::HAZARD,
            ColliderKind::GrapplePoint => groups::GRAPPLE_POINT,
            ColliderKind::Checkpoint => groups::CHECKPOINT,
            ColliderKind::Goal => groups::GOAL,
            ColliderKind::Switch => groups::SWITCH,
        }
    }

    /// A stable order for query results (a BVH's leaf order is an implementation detail).
    fn sort_key(self) -> (u128, usize) {
        (self.encode() >> 64, self.index)
    }
}

/// Which of the level's two layers a query looks at: the fixed solids, the moving ones
/// (platforms, winch loads, fragile anchors), or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layers {
    All,
    Fixed,
    Moving,
}

/// A collider of either layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ColliderRef {
    moving: bool,
    index: u32,
    generation: u32,
}

/// A hit of a ray against the level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    pub tag: ColliderTag,
    pub distance_m: f32,
    pub point: Vec2,
    pub normal: Vec2,
}

/// Colliders with a bounding-volume tree over them.
#[derive(Clone)]
struct Layer {
    colliders: ColliderSet,
    bodies: RigidBodySet,
    tree: BroadPhaseBvh,
}

impl Layer {
    fn new() -> Layer {
        Layer {
            colliders: ColliderSet::new(),
            bodies: RigidBodySet::new(),
            tree: BroadPhaseBvh::new(),
        }
    }

    fn insert(&mut self, collider: Collider) -> ColliderHandle {
        let aabb = collider.compute_aabb();
        let handle = self.colliders.insert(collider);
        self.tree
            .set_aabb(&IntegrationParameters::default(), handle, aabb);
        handle
    }

    fn pipeline(&self, target: Group) -> QueryPipeline<'_> {
        let filter = QueryFilter::new().groups(InteractionGroups::new(
            Group::ALL,
            target,
            InteractionTestMode::And,
        ));
        self.tree.as_query_pipeline(
            &DefaultQueryDispatcher,
            &self.bodies,
            &self.colliders,
            filter,
        )
    }
}

/// A moving collider: its handle, its body, its pose in the body's frame, and its world pose
/// before the last `set_body_poses` (substepped solvers move it from there across their
/// substeps, see `Geometry::collider_pose_at`).
#[derive(Clone)]
struct MovingCollider {
    handle: ColliderHandle,
    body: Body,
    pose_in_body: Pose,
    previous_pose: Pose,
}

/// The level's colliders: a fixed layer shared by every copy of the world, and a moving layer.
#[derive(Clone)]
pub struct Geometry {
    fixed: Arc<Layer>,
    moving: Layer,
    moving_colliders: Vec<MovingCollider>,
}

/// What the colliders of a level are built with, besides the definitions.
pub struct BuildContext {
    pub grapple_point_radius_m: f32,
}

/// One collider an object owns. `pose` is in its body's frame: the world for `Body::Fixed`, the
/// pose as written for a moving body (whose own pose starts at identity).
pub struct ColliderSpec {
    pub shape: SharedShape,
    pub pose: Pose,
    pub kind: ColliderKind,
    pub body: Body,
}

impl Geometry {
    /// The geometry of every object's colliders, `(index, spec)` with the object's index in its
    /// kind's list, in the order given, every body at its starting pose (as written).
    pub fn from_specs(specs: impl IntoIterator<Item = (usize, ColliderSpec)>) -> Geometry {
        let mut fixed = Layer::new();
        let mut moving = Layer::new();
        let mut moving_colliders = Vec::new();
        for (
            index,
            ColliderSpec {
                shape,
                pose,
                kind,
                body,
            },
        ) in specs
        {
            let tag = ColliderTag { kind, index, body };
            let collider = ColliderBuilder::new(shape)
                .position(pose)
                .user_data(tag.encode())
                .collision_groups(InteractionGroups::new(
                    tag.group(),
                    Group::ALL,
                    InteractionTestMode::And,
                ))
                .build();
            if body == Body::Fixed {
                fixed.insert(collider);
            } else {
                let handle = moving.insert(collider);
                // Inserted in order and never removed: a handle's index is its place in
                // `moving_colliders` (`collider_pose_at` relies on it).
                debug_assert_eq!(handle.into_raw_parts().0 as usize, moving_colliders.len());
                moving_colliders.push(MovingCollider {
                    handle,
                    body,
                    pose_in_body: pose,
                    previous_pose: pose,
                });
            }
        }
        Geometry {
            fixed: Arc::new(fixed),
            moving,
            moving_colliders,
        }
    }

    /// Moves every moving collider to its body's pose (`pose_of(body)`, from the body's frame
    /// to the world) and rebuilds the moving layer's tree. Called once per tick, before queries.
    /// A body whose pose is `None` is gone (a fragile anchor that broke): its colliders are left
    /// out of the tree, so no query finds them.
    pub fn set_body_poses(&mut self, pose_of: impl Fn(Body) -> Option<Pose>) {
        if self.moving_colliders.is_empty() {
            return;
        }
        let mut tree = BroadPhaseBvh::new();
        let params = IntegrationParameters::default();
        for moving in &mut self.moving_colliders {
            let collider = &mut self.moving.colliders[moving.handle];
            moving.previous_pose = *collider.position();
            let Some(pose) = pose_of(moving.body) else {
                continue;
            };
            collider.set_position(pose * moving.pose_in_body);
            let aabb = collider.compute_aabb();
            tree.set_aabb(&params, moving.handle, aabb);
        }
        self.moving.tree = tree;
    }

    /// Whether any collider moves.
    pub fn has_moving(&self) -> bool {
        !self.moving_colliders.is_empty()
    }

    fn layers(&self) -> [(bool, &Layer); 2] {
        [(false, &*self.fixed), (true, &self.moving)]
    }

    /// The layers a query looks at, each with whether it is the moving one.
    fn layers_in(&self, which: Layers) -> impl Iterator<Item = (bool, &Layer)> {
        self.layers()
            .into_iter()
            .filter(move |(moving, _)| match which {
                Layers::All => true,
                Layers::Fixed => !moving,
                Layers::Moving => *moving,
            })
    }

    fn reference(moving: bool, handle: ColliderHandle) -> ColliderRef {
        let (index, generation) = handle.into_raw_parts();
        ColliderRef {
            moving,
            index,
            generation,
        }
    }

    pub fn collider(&self, at: ColliderRef) -> &Collider {
        let layer = if at.moving {
            &self.moving
        } else {
            &*self.fixed
        };
        &layer.colliders[ColliderHandle::from_raw_parts(at.index, at.generation)]
    }

    pub fn tag(&self, at: ColliderRef) -> ColliderTag {
        ColliderTag::decode(self.collider(at).user_data)
    }

    /// Every collider of `target` whose box may overlap `aabb` (conservatively), in a stable
    /// order: fixed layer first, then by handle. A moving collider's box covers both its pose
    /// before the last `set_body_poses` and its pose now.
    pub fn colliders_near(&self, aabb: Aabb, target: Group, out: &mut Vec<(ColliderRef, Aabb)>) {
        let first = out.len();
        for (moving, layer) in self.layers() {
            for (handle, collider) in layer.pipeline(target).intersect_aabb_conservative(aabb) {
                let at = Self::reference(moving, handle);
                let mut collider_aabb = collider.compute_aabb();
                if let Some(previous) = self.previous_pose(at) {
                    collider_aabb.merge(&collider.shape().compute_aabb(&previous));
                }
                out.push((at, collider_aabb));
            }
        }
        // Each collider comes once, so no two keys tie: an unstable sort gives the stable order
        // (and its code is a fraction of the stable one's, in the browser's download).
        out[first..].sort_unstable_by_key(|(at, _)| *at);
    }

    /// Whether any moving collider of `target` may overlap `aabb` (conservatively).
    pub fn any_moving_near(&self, aabb: Aabb, target: Group) -> bool {
        self.moving
            .pipeline(target)
            .intersect_aabb_conservative(aabb)
            .next()
            .is_some()
    }

    /// Where moving collider `at` is when its body is at `body_pose` (a fixed collider is
    /// where it always is).
    pub fn collider_pose_on_body(&self, at: ColliderRef, body_pose: Pose) -> Pose {
        let moving = at
            .moving
            .then(|| self.moving_colliders.get(at.index as usize));
        match moving.flatten() {
            Some(moving) => body_pose * moving.pose_in_body,
            None => *self.collider(at).position(),
        }
    }

    /// A moving collider's world pose before the last `set_body_poses`.
    fn previous_pose(&self, at: ColliderRef) -> Option<Pose> {
        at.moving
            .then(|| self.moving_colliders.get(at.index as usize))
            .flatten()
            .map(|m| m.previous_pose)
    }

    /// Where collider `at` is `progress` (0 to 1) of the way from its pose before the last
    /// `set_body_poses` to its pose now (translation and rotation interpolated linearly, the
    /// rotation renormalised: a tick turns a body a few degrees at most). Fixed colliders are
    /// where they always are. A solver taking substeps moves a platform this way across them,
    /// instead of the whole tick's motion at the first substep, which kicked what it touched
    /// at (substeps × its speed).
    pub fn collider_pose_at(&self, at: ColliderRef, progress: f32) -> Pose {
        let now = *self.collider(at).position();
        let Some(before) = self.previous_pose(at) else {
            return now;
        };
        if before == now || progress >= 1.0 {
            return now;
        }
        let (re, im) = (
            before.rotation.re + (now.rotation.re - before.rotation.re) * progress,
            before.rotation.im + (now.rotation.im - before.rotation.im) * progress,
        );
        let norm = (re * re + im * im).sqrt();
        let rotation = if norm > 1e-6 {
            Rotation::from_cos_sin_unchecked(re / norm, im / norm)
        } else {
            now.rotation
        };
        Pose::from_parts(before.translation.lerp(now.translation, progress), rotation)
    }

    /// The first collider of `target` along the segment `from → from + delta`.
    pub fn cast_ray(&self, from: Vec2, delta: Vec2, target: Group) -> Option<RayHit> {
        self.cast_ray_over(from, delta, target, Layers::All)
    }

    /// `cast_ray` against the moving colliders only (platforms, winch loads, fragile anchors).
    pub fn cast_ray_on_moving(&self, from: Vec2, delta: Vec2, target: Group) -> Option<RayHit> {
        self.cast_ray_over(from, delta, target, Layers::Moving)
    }

    fn cast_ray_over(
        &self,
        from: Vec2,
        delta: Vec2,
        target: Group,
        which: Layers,
    ) -> Option<RayHit> {
        let length = delta.length();
        if length <= 1e-9 {
            return None;
        }
        let dir = delta / length;
        let ray = Ray::new(from, dir);
        let mut best: Option<RayHit> = None;
        for (_, layer) in self.layers_in(which) {
            let Some((handle, hit)) = layer
                .pipeline(target)
                .cast_ray_and_get_normal(&ray, length, true)
            else {
                continue;
            };
            if best.is_none_or(|b| hit.time_of_impact < b.distance_m) {
                best = Some(RayHit {
                    tag: ColliderTag::decode(layer.colliders[handle].user_data),
                    distance_m: hit.time_of_impact,
                    point: from + dir * hit.time_of_impact,
                    normal: hit.normal,
                });
            }
        }
        best
    }

    /// The closest point on any solid to `point`, if within `max_dist_m`.
    pub fn project_on_solids(&self, point: Vec2, max_dist_m: f32) -> Option<PointProjection> {
        let mut best: Option<(f32, PointProjection)> = None;
        for (_, layer) in self.layers() {
            let Some((_, projection)) = layer
                .pipeline(groups::SOLID)
                .project_point(point, max_dist_m, true)
            else {
                continue;
            };
            let distance = if projection.is_inside {
                0.0
            } else {
                projection.point.distance(point)
            };
            if best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, projection));
            }
        }
        best.map(|(_, projection)| projection)
    }

    /// Sweeps `shape` from `pose` along `delta` against solids, stopping `skin_m` short of the
    /// first one. A shape that starts touching or slightly inside a solid is not stopped when it
    /// moves away from it (depenetration handles overlaps). Also says what was hit.
    pub fn cast_shape_on_solids(
        &self,
        pose: &Pose,
        delta: Vec2,
        shape: &dyn Shape,
        skin_m: f32,
    ) -> Option<(ColliderTag, ShapeCastHit)> {
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: skin_m,
            stop_at_penetration: false,
            compute_impact_geometry_on_penetration: true,
        };
        let mut best: Option<(ColliderTag, ShapeCastHit)> = None;
        for (_, layer) in self.layers() {
            let Some((handle, hit)) = layer
                .pipeline(groups::SOLID)
                .cast_shape(pose, delta, shape, options)
            else {
                continue;
            };
            if best.is_none_or(|(_, b)| hit.time_of_impact < b.time_of_impact) {
                best = Some((ColliderTag::decode(layer.colliders[handle].user_data), hit));
            }
        }
        best
    }

    /// The deepest overlap of `shape` at `pose` with a solid: the direction to push the shape
    /// out (unit) and how far. `None` when it overlaps nothing.
    pub fn deepest_solid_overlap(&self, pose: &Pose, shape: &dyn Shape) -> Option<(Vec2, f32)> {
        self.deepest_overlap(pose, shape, Layers::All)
    }

    /// `deepest_solid_overlap` with the level's fixed solids only (no platform, winch load or
    /// fragile anchor).
    pub fn deepest_fixed_solid_overlap(
        &self,
        pose: &Pose,
        shape: &dyn Shape,
    ) -> Option<(Vec2, f32)> {
        self.deepest_overlap(pose, shape, Layers::Fixed)
    }

    fn deepest_overlap(
        &self,
        pose: &Pose,
        shape: &dyn Shape,
        which: Layers,
    ) -> Option<(Vec2, f32)> {
        let mut deepest: Option<(Vec2, f32)> = None;
        for (_, layer) in self.layers_in(which) {
            let pipeline = layer.pipeline(groups::SOLID);
            for (_, collider) in pipeline.intersect_shape(*pose, shape) {
                let contact = rapier2d::parry::query::contact(
                    pose,
                    shape,
                    collider.position(),
                    collider.shape(),
                    0.0,
                );
                if let Ok(Some(contact)) = contact {
                    let depth = -contact.dist;
                    if depth > 0.0 && deepest.is_none_or(|(_, d)| depth > d) {
                        // normal1 points from the shape toward the solid: push the other way.
                        deepest = Some((-contact.normal1, depth));
                    }
                }
            }
        }
        deepest
    }

    /// Tags of all colliders of `target` that `shape` at `pose` overlaps, in a stable order.
    pub fn overlaps(&self, pose: Pose, shape: &dyn Shape, target: Group) -> Vec<ColliderTag> {
        let mut tags: Vec<ColliderTag> = Vec::new();
        for (_, layer) in self.layers() {
            tags.extend(
                layer
                    .pipeline(target)
                    .intersect_shape(pose, shape)
                    .map(|(_, collider)| ColliderTag::decode(collider.user_data)),
            );
        }
        // What one shape overlaps: a handful.
        sort_short_by_key(&mut tags, |t| t.sort_key());
        tags
    }
}
