//! The level's static geometry as Rapier colliders, and the queries the simulation runs on it.
//!
//! Every collision question (player, hook, rope, triggers) goes through Rapier's query pipeline;
//! this module only builds the collider set and names the filters.

use rapier2d::geometry::{
    BroadPhaseBvh, Collider, ColliderBuilder, ColliderHandle, ColliderSet, Group,
    InteractionGroups, InteractionTestMode, Ray, SharedShape,
};
use rapier2d::parry::query::{
    DefaultQueryDispatcher, PointProjection, ShapeCastHit, ShapeCastOptions,
};
use rapier2d::parry::shape::Shape;
use rapier2d::pipeline::{QueryFilter, QueryPipeline};
use rapier2d::prelude::{IntegrationParameters, RigidBodySet};

use super::level::{LevelDef, RectDef, ShapeDef, SolidDef, P};
use super::math::{rotation_from_deg, Pose, Vec2};

/// What a collider is, stored in its `user_data` together with its index in the level's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColliderKind {
    Solid { hookable: bool },
    Hazard,
    GrapplePoint,
    Checkpoint,
    Goal,
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
}

/// The kind and list index a collider was built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColliderTag {
    pub kind: ColliderKind,
    pub index: usize,
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
        };
        (kind << 64) | self.index as u128
    }

    fn decode(data: u128) -> ColliderTag {
        let kind = match data >> 64 {
            0 => ColliderKind::Solid { hookable: false },
            1 => ColliderKind::Solid { hookable: true },
            2 => ColliderKind::Hazard,
            3 => ColliderKind::GrapplePoint,
            4 => ColliderKind::Checkpoint,
            _ => ColliderKind::Goal,
        };
        ColliderTag {
            kind,
            index: (data & u64::MAX as u128) as usize,
        }
    }

    fn group(self) -> Group {
        match self.kind {
            ColliderKind::Solid { .. } => groups::SOLID,
            ColliderKind::Hazard => groups::HAZARD,
            ColliderKind::GrapplePoint => groups::GRAPPLE_POINT,
            ColliderKind::Checkpoint => groups::CHECKPOINT,
            ColliderKind::Goal => groups::GOAL,
        }
    }
}

/// A hit of a ray against the level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    pub tag: ColliderTag,
    pub distance_m: f32,
    pub point: Vec2,
    pub normal: Vec2,
}

/// Static level geometry with a bounding-volume hierarchy for queries. Built once per level
/// load; never changes afterwards.
#[derive(Clone)]
pub struct Geometry {
    colliders: ColliderSet,
    bodies: RigidBodySet,
    broad_phase: BroadPhaseBvh,
}

impl Geometry {
    /// Builds the colliders of a validated level. `grapple_point_radius_m` comes from tuning.
    /// Fails (with the object's name) only for a polygon parry cannot turn into a convex shape.
    pub fn from_level(
        level: &LevelDef,
        grapple_point_radius_m: f32,
    ) -> Result<Geometry, (String, String)> {
        let mut geometry = Geometry {
            colliders: ColliderSet::new(),
            bodies: RigidBodySet::new(),
            broad_phase: BroadPhaseBvh::new(),
        };
        let params = IntegrationParameters::default();
        let add = |geometry: &mut Geometry, builder: ColliderBuilder, tag: ColliderTag| {
            let collider = builder
                .user_data(tag.encode())
                .collision_groups(InteractionGroups::new(
                    tag.group(),
                    Group::ALL,
                    InteractionTestMode::And,
                ))
                .build();
            let aabb = collider.compute_aabb();
            let handle = geometry.colliders.insert(collider);
            geometry.broad_phase.set_aabb(&params, handle, aabb);
        };
        for (index, solid) in level.solids.iter().enumerate() {
            let builder = collider_for_shape(&solid.shape).ok_or_else(|| {
                (
                    format!("solids[{index}]"),
                    "is not a valid convex polygon".to_string(),
                )
            })?;
            let kind = ColliderKind::Solid {
                hookable: solid.hookable,
            };
            add(&mut geometry, builder, ColliderTag { kind, index });
        }
        for (index, hazard) in level.hazards.iter().enumerate() {
            let builder = collider_for_shape(hazard).ok_or_else(|| {
                (
                    format!("hazards[{index}]"),
                    "is not a valid convex polygon".to_string(),
                )
            })?;
            add(
                &mut geometry,
                builder,
                ColliderTag {
                    kind: ColliderKind::Hazard,
                    index,
                },
            );
        }
        for (index, point) in level.grapple_points.iter().enumerate() {
            let builder = ColliderBuilder::ball(grapple_point_radius_m)
                .position(Pose::from_translation(point.v()));
            add(
                &mut geometry,
                builder,
                ColliderTag {
                    kind: ColliderKind::GrapplePoint,
                    index,
                },
            );
        }
        for (index, rect) in level.checkpoints.iter().enumerate() {
            add(
                &mut geometry,
                collider_for_rect(rect),
                ColliderTag {
                    kind: ColliderKind::Checkpoint,
                    index,
                },
            );
        }
        add(
            &mut geometry,
            collider_for_rect(&level.goal),
            ColliderTag {
                kind: ColliderKind::Goal,
                index: 0,
            },
        );
        Ok(geometry)
    }

    /// Geometry of hookable `solids` alone (spawn and goal far away): for rope tests and
    /// benches that need shapes to collide with but no level around them.
    pub fn of_solids(solids: Vec<ShapeDef>) -> Geometry {
        let level = LevelDef {
            name: "solids".into(),
            spawn: P(-5000.0, 5000.0),
            goal: RectDef {
                min: P(5000.0, 5000.0),
                max: P(5001.0, 5001.0),
            },
            max_rope_length_m: None,
            view_height_m: 18.0,
            kill_y_m: -10_000.0,
            solids: solids
                .into_iter()
                .map(|shape| SolidDef {
                    shape,
                    hookable: true,
                })
                .collect(),
            hazards: vec![],
            checkpoints: vec![],
            grapple_points: vec![],
        };
        Geometry::from_level(&level, 0.3)
            .unwrap_or_else(|(object, message)| panic!("{object}: {message}"))
    }

    /// A query pipeline over the colliders in `target` groups.
    pub fn pipeline(&self, target: Group) -> QueryPipeline<'_> {
        let filter = QueryFilter::new().groups(InteractionGroups::new(
            Group::ALL,
            target,
            InteractionTestMode::And,
        ));
        self.broad_phase.as_query_pipeline(
            &DefaultQueryDispatcher,
            &self.bodies,
            &self.colliders,
            filter,
        )
    }

    pub fn tag(&self, handle: ColliderHandle) -> ColliderTag {
        ColliderTag::decode(self.colliders[handle].user_data)
    }

    pub fn collider(&self, handle: ColliderHandle) -> &Collider {
        &self.colliders[handle]
    }

    /// The first collider of `target` along the segment `from → from + delta`.
    pub fn cast_ray(&self, from: Vec2, delta: Vec2, target: Group) -> Option<RayHit> {
        let length = delta.length();
        if length <= 1e-9 {
            return None;
        }
        let dir = delta / length;
        let ray = Ray::new(from, dir);
        let (handle, hit) = self
            .pipeline(target)
            .cast_ray_and_get_normal(&ray, length, true)?;
        Some(RayHit {
            tag: self.tag(handle),
            distance_m: hit.time_of_impact,
            point: from + dir * hit.time_of_impact,
            normal: hit.normal,
        })
    }

    /// The closest point on any solid to `point`, if within `max_dist_m`.
    pub fn project_on_solids(&self, point: Vec2, max_dist_m: f32) -> Option<PointProjection> {
        self.pipeline(groups::SOLID)
            .project_point(point, max_dist_m, true)
            .map(|(_, projection)| projection)
    }

    /// Sweeps `shape` from `pose` along `delta` against solids, stopping `skin_m` short of the
    /// first one. A shape that starts touching or slightly inside a solid is not stopped when it
    /// moves away from it (depenetration handles overlaps).
    pub fn cast_shape_on_solids(
        &self,
        pose: &Pose,
        delta: Vec2,
        shape: &dyn Shape,
        skin_m: f32,
    ) -> Option<ShapeCastHit> {
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: skin_m,
            stop_at_penetration: false,
            compute_impact_geometry_on_penetration: true,
        };
        self.pipeline(groups::SOLID)
            .cast_shape(pose, delta, shape, options)
            .map(|(_, hit)| hit)
    }

    /// The deepest overlap of `shape` at `pose` with a solid: the direction to push the shape
    /// out (unit) and how far. `None` when it overlaps nothing.
    pub fn deepest_solid_overlap(&self, pose: &Pose, shape: &dyn Shape) -> Option<(Vec2, f32)> {
        let pipeline = self.pipeline(groups::SOLID);
        let mut deepest: Option<(Vec2, f32)> = None;
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
        deepest
    }

    /// Tags of all colliders of `target` that `shape` at `pose` overlaps, in collider order.
    pub fn overlaps(&self, pose: Pose, shape: &dyn Shape, target: Group) -> Vec<ColliderTag> {
        let pipeline = self.pipeline(target);
        let mut tags: Vec<ColliderTag> = pipeline
            .intersect_shape(pose, shape)
            .map(|(_, collider)| ColliderTag::decode(collider.user_data))
            .collect();
        // The BVH's leaf order is an implementation detail: sort for determinism.
        tags.sort_by_key(|t| (t.encode() >> 64, t.index));
        tags
    }
}

fn collider_for_shape(shape: &ShapeDef) -> Option<ColliderBuilder> {
    Some(match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => ColliderBuilder::cuboid(half_extents.0, half_extents.1).position(Pose::from_parts(
            center.v(),
            rotation_from_deg(*rotation_deg),
        )),
        ShapeDef::Circle { center, radius } => {
            ColliderBuilder::ball(*radius).position(Pose::from_translation(center.v()))
        }
        ShapeDef::Polygon { points } => {
            let mut points: Vec<Vec2> = points.iter().map(|p| p.v()).collect();
            // parry wants counter-clockwise outlines; authors may write either winding.
            let twice_area: f32 = (0..points.len())
                .map(|i| points[i].perp_dot(points[(i + 1) % points.len()]))
                .sum();
            if twice_area < 0.0 {
                points.reverse();
            }
            ColliderBuilder::new(SharedShape::convex_polyline(points)?)
        }
    })
}

fn collider_for_rect(rect: &RectDef) -> ColliderBuilder {
    let center = (rect.min.v() + rect.max.v()) * 0.5;
    let half = (rect.max.v() - rect.min.v()) * 0.5;
    ColliderBuilder::cuboid(half.x, half.y).position(Pose::from_translation(center))
}
