//! The rope against the level: one broad phase per step through the BVH, a chunk of segments
//! at a time; per substep each segment's capsule against the shapes its chunk found, with
//! position-based Coulomb friction; a swept test for nodes that moved further than their radius.

use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};
use rapier2d::parry::query::{self, Contact, Ray};
use rapier2d::parry::shape::{Segment, Shape};

use super::step::EndMotion;
use super::{Rope, BROADPHASE_SLOP_M, CHUNK_SEGMENTS, SWEEP_THRESHOLD_RADII};
use crate::geometry::{groups, ColliderRef, Geometry};
use crate::math::{Pose, Vec2};

impl Rope {
    /// Moves the far end `by_m` along `out` (unit) with its previous position, so the move adds
    /// no velocity, and takes off the part of its velocity that points against `out`: the end
    /// stops at a face it was carried into, as a contact without bounce would stop it. For a
    /// winch's load, whose box only the level's queries see (the rope's step collides the end
    /// node's ball, not the box hanging under it).
    pub fn push_end_out(&mut self, out: Vec2, by_m: f32) {
        let last = self.segment_count();
        self.nodes[last] += out * by_m;
        self.prev[last] += out * by_m;
        let inward_m = (self.nodes[last] - self.prev[last]).dot(out);
        if inward_m < 0.0 {
            self.prev[last] += out * inward_m;
        }
        self.still_steps = 0;
    }

    /// Gathers, once per step, the solids each chunk of segments may touch during the step.
    pub(super) fn broad_phase(&mut self, geometry: &Geometry, travel_m: f32) {
        let margin_m = travel_m + self.params.radius_m + BROADPHASE_SLOP_M;
        let segments = self.segment_count();
        let scratch = &mut *self.scratch;
        scratch.broad_margin_m = margin_m;
        scratch.chunk_boxes.clear();
        scratch.pairs.clear();
        for (chunk, nodes) in chunk_nodes(segments) {
            let aabb = points_box(&self.nodes[nodes]).loosened(margin_m);
            scratch.chunk_boxes.push(aabb);
            let near = &mut scratch.near;
            gather_chunk(geometry, (chunk, aabb), near, &mut scratch.pairs);
        }
    }

    /// The broad phase's travel bound covers the nodes' motion, not the position corrections
    /// of the substeps: a fold opened against the player's end turns the node next to it about
    /// the player, up to two segments in one substep, into a wall no chunk gathered (fresh-seed
    /// streams ended ticks with a node 17 cm inside a wall beside a player reeling there). A
    /// chunk whose nodes left its box gets the box widened over them (by the step's margin
    /// again, so a rope moving on does not widen it every substep) and its pairs gathered
    /// again; the other chunks keep theirs. A wider box only adds colliders, in handle order
    /// among the old ones, so a step in which no added collider is touched plays to the same
    /// bits.
    fn widen_broad_phase_if_left(&mut self, geometry: &Geometry) {
        let radius_m = self.params.radius_m;
        let segments = self.segment_count();
        let scratch = &mut *self.scratch;
        scratch.widened_chunks.clear();
        for (chunk, nodes) in chunk_nodes(segments) {
            let nodes_box = points_box(&self.nodes[nodes]);
            let chunk_box = &mut scratch.chunk_boxes[chunk];
            if !chunk_box.contains(&nodes_box.loosened(radius_m)) {
                *chunk_box = chunk_box.merged(&nodes_box.loosened(scratch.broad_margin_m));
                scratch.widened_chunks.push(chunk);
            }
        }
        if scratch.widened_chunks.is_empty() {
            return;
        }
        let old = std::mem::take(&mut scratch.pairs);
        let mut rebuilt = std::mem::take(&mut scratch.pairs_rebuilt);
        rebuilt.clear();
        let mut next = 0;
        for (chunk, &aabb) in scratch.chunk_boxes.iter().enumerate() {
            let first = next;
            while next < old.len() && old[next].0 == chunk {
                next += 1;
            }
            if scratch.widened_chunks.contains(&chunk) {
                let near = &mut scratch.near;
                gather_chunk(geometry, (chunk, aabb), near, &mut rebuilt);
            } else {
                rebuilt.extend_from_slice(&old[first..next]);
            }
        }
        scratch.pairs = rebuilt;
        scratch.pairs_rebuilt = old;
    }

    /// Swept test for fast nodes, then pushes every segment (a capsule of the rope's radius) out
    /// of the solids its chunk may touch, with friction. The anchor never moves here; in the game
    /// the player neither (it has its own collision). Moving solids are where they are
    /// `progress` of the way through the step (`Geometry::collider_pose_at`).
    pub(super) fn collide(&mut self, geometry: &Geometry, end: EndMotion, progress: f32) {
        // Not level ropes: widened too, they caught moving platforms mid-rope in the stress
        // bench and were yanked out of them (a segment 600 % long, the tick 40 % dearer).
        if let EndMotion::Player(_) | EndMotion::Loose = end {
            self.widen_broad_phase_if_left(geometry);
        }
        self.touching.fill(false);
        for p in 0..self.scratch.pairs.len() {
            let pair = self.scratch.pairs[p];
            self.collide_with_solid(geometry, pair, end, progress);
        }
    }

    /// `collide` against one solid the broad phase paired with one chunk of segments.
    fn collide_with_solid(
        &mut self,
        geometry: &Geometry,
        (chunk, at, solid_aabb): (usize, ColliderRef, Aabb),
        end: EndMotion,
        progress: f32,
    ) {
        let radius_m = self.params.radius_m;
        let last = self.segment_count();
        let weight = |rope: &Rope, i: usize| rope.contact_weight(i, end);
        let shape = geometry.collider(at).shape();
        let SolidPlace {
            pose,
            aabb: solid_aabb,
            segments_end: last_met,
        } = self.solid_place(geometry, at, solid_aabb, progress);
        let pose = &pose;
        let first = chunk * CHUNK_SEGMENTS;
        let end_seg = (first + CHUNK_SEGMENTS).min(last_met);
        if first >= end_seg {
            return;
        }
        // Swept test: a node that moved far this substep may have jumped a thin wall whole.
        // Each node is swept once, by the chunk that starts at or contains it.
        let sweep_to = if end_seg == last_met {
            last_met
        } else {
            end_seg - 1
        };
        let solid_box = shape.compute_aabb(pose).loosened(SWEEP_BOX_SLACK_M);
        self.sweep_nodes(first.max(1)..=sweep_to, (shape, pose, &solid_box), end);
        for i in first..end_seg {
            let (a, b) = (self.nodes[i], self.nodes[i + 1]);
            let seg_aabb = Aabb::new(a.min(b), a.max(b)).loosened(radius_m);
            if !solid_aabb.intersects(&seg_aabb) {
                continue;
            }
            // A segment hanging from an anchor on a box's face (every vine and winch rope
            // from its ceiling): the contact is at the anchor itself, where the push moves
            // nothing (`push_segment` returns for a zero share at a fixed end): the same
            // state to the bit, all solutions' hashes unchanged. Parry's query for it is a
            // penetration query (EPA, three allocations), the dearest of all.
            if weight(self, i) == 0.0
                && shape
                    .as_cuboid()
                    .is_some_and(|c| leaves_face_at_start(a, b, pose, c.half_extents))
            {
                continue;
            }
            // Cheap exact reject before the contact query (GJK for boxes and polygons): the
            // capsule cannot reach a shape further from its midpoint than half its length
            // plus its radius.
            let reach_m = 0.5 * a.distance(b) + radius_m;
            if shape.distance_to_point(pose, (a + b) * 0.5, true) > reach_m {
                continue;
            }
            let Some(contact) = self.segment_contact([a, b], shape, pose, radius_m) else {
                continue;
            };
            let depth_m = radius_m - contact.dist;
            if depth_m <= 0.0 {
                continue;
            }
            self.push_segment(
                i,
                contact.point1,
                -contact.normal1,
                depth_m,
                [weight(self, i), weight(self, i + 1)],
                max_contact_lever(i, last, end),
            );
        }
    }

    /// The step's last act for every rope (the player's, vines, winches, loose pieces): every
    /// segment whose axis (not just its capsule) ended the step inside a solid is pushed until
    /// its axis is `AXIS_CLEARANCE_M` out. Not a radius out, as `collide` pushes: a rope pinched
    /// in a gap narrower than itself (below an anchor on a wall, a winch's platform swung up
    /// 5 cm from the wall) then goes from one solid into the other; its axis fits. The contact
    /// solve after the last substep's collisions moves the nodes it left light, and a yank from
    /// the player can carry one of them through the surface the collisions had just cleared (a
    /// jerked rope's free node into the floor, the node below an anchor into the face it hangs
    /// along). Only an axis inside a solid is touched, which no shallow resting contact is, so
    /// an unbroken rope plays to the same bits.
    pub(super) fn push_axes_out_of_solids(&mut self, geometry: &Geometry, end: EndMotion) {
        for p in 0..self.scratch.pairs.len() {
            let (chunk, at, solid_aabb) = self.scratch.pairs[p];
            let shape = geometry.collider(at).shape();
            let SolidPlace {
                pose,
                aabb: solid_aabb,
                segments_end: last_met,
            } = self.solid_place(geometry, at, solid_aabb, 1.0);
            let pose = &pose;
            let first = chunk * CHUNK_SEGMENTS;
            for i in first..(first + CHUNK_SEGMENTS).min(last_met) {
                let (a, b) = (self.nodes[i], self.nodes[i + 1]);
                if !solid_aabb.intersects(&Aabb::new(a.min(b), a.max(b))) {
                    continue;
                }
                // The axis cannot reach a shape further from its midpoint than half its length.
                if shape.distance_to_point(pose, (a + b) * 0.5, true) > 0.5 * a.distance(b) {
                    continue;
                }
                let contact = self.segment_contact([a, b], shape, pose, 0.0);
                let Some(contact) = contact.filter(|c| c.dist < 0.0) else {
                    continue;
                };
                let (wa, wb) = (self.contact_weight(i, end), self.contact_weight(i + 1, end));
                let depth_m = AXIS_CLEARANCE_M - contact.dist;
                self.push_segment_out(i, contact.point1, -contact.normal1, depth_m, [wa, wb]);
            }
        }
    }

    /// A rope just laid (the hook taking hold) with every segment's axis out of the solids, its
    /// nodes still at rest. The path a new rope is laid along is only known clear for a ray: back
    /// along the hook's flight its first leg starts at the anchor, a radius and a half off the
    /// surface, not where the flight met it, so it passes up to that much beside the flight, and
    /// a rope laid under 10 Rope Lift's platform by a hook that flew 3 cm below its corner had
    /// its axis 3.7 cm inside the platform. The rope's first step would push it out, but the tick
    /// the hook takes hold ends with the rope as laid. The anchor is not moved (nor the player).
    pub fn lay_axes_out_of_solids(&mut self, geometry: &Geometry) {
        let laid_still = EndMotion::Player(Vec2::ZERO);
        self.broad_phase(geometry, 0.0);
        self.push_axes_out_of_solids(geometry, laid_still);
        self.prev.copy_from_slice(&self.nodes);
    }

    /// `push_segment` without its friction, for `push_axes_out_of_solids`: friction cancels a
    /// node's motion over the substep along the contact, and that motion holds the push out of
    /// the neighbouring segment's contact. Below an anchor on a wall, over the wall's corner,
    /// the second segment's contact took back what the first's had pushed the node out by, and
    /// the node stayed 2.2 cm inside the wall.
    fn push_segment_out(
        &mut self,
        i: usize,
        contact_point: Vec2,
        normal: Vec2,
        depth_m: f32,
        [wa, wb]: [f32; 2],
    ) {
        let Some((ka, kb, denom)) = self.lever_split(i, contact_point, [wa, wb]) else {
            return;
        };
        for (node, k) in [(i, ka), (i + 1, kb)] {
            if k > 0.0 {
                self.nodes[node] += normal * (k * depth_m / denom).min(MAX_CONTACT_LEVER * depth_m);
                self.touching[node] = true;
            }
        }
    }

    /// How a push at `contact_point` on segment `i` is shared between its ends, weighted
    /// `[wa, wb]` (their inverse masses in collision): each end's share `ka`, `kb` of the lever
    /// (the nearer end moves more) and the segment's effective inverse mass `denom` there, so that
    /// an end moves `k × depth / denom` and the contact point moves the depth. `None` when
    /// neither end can move.
    fn lever_split(
        &self,
        i: usize,
        contact_point: Vec2,
        [wa, wb]: [f32; 2],
    ) -> Option<(f32, f32, f32)> {
        let seg = self.nodes[i + 1] - self.nodes[i];
        let len2 = seg.length_squared();
        let t = if len2 > 1e-12 {
            ((contact_point - self.nodes[i]).dot(seg) / len2).clamp(0.0, 1.0)
        } else {
            0.5
        };
        let (ka, kb) = (wa * (1.0 - t), wb * t);
        let denom = ka * (1.0 - t) + kb * t;
        if denom < 1e-9 {
            None
        } else {
            Some((ka, kb, denom))
        }
    }

    /// Where solid `at` (its box `aabb` from the broad phase) is for this rope `progress` of the
    /// way through the step, and the segments it meets. The load the rope carries hangs from
    /// the end node, so it is placed where that node is now: the level poses it once a tick,
    /// after the rope's step, and a rope lying on a rising load met it a tick low and ended the
    /// tick up to a tick's rise inside it (10 Rope Lift's platform, pulled up by the player's
    /// rope under its slack winch rope). Its last segment holds the load and never meets it:
    /// a push on it would move the end node, and with it the load, by the load itself.
    fn solid_place(
        &self,
        geometry: &Geometry,
        at: ColliderRef,
        aabb: Aabb,
        progress: f32,
    ) -> SolidPlace {
        let last = self.segment_count();
        let carried = self
            .carried_body
            .is_some_and(|body| geometry.tag(at).body == body);
        if !carried {
            return SolidPlace {
                pose: geometry.collider_pose_at(at, progress),
                aabb,
                segments_end: last,
            };
        }
        let pose = geometry.collider_pose_on_body(at, Pose::from_translation(self.nodes[last]));
        SolidPlace {
            pose,
            aabb: geometry.collider(at).shape().compute_aabb(&pose),
            segments_end: last.saturating_sub(1),
        }
    }

    /// The contact of the segment `a`–`b`, a capsule of `radius_m`, with `shape` at `pose`, if
    /// they are within the radius: boxes by `box_contact` (no allocation), the rest by parry.
    fn segment_contact(
        &mut self,
        [a, b]: [Vec2; 2],
        shape: &dyn Shape,
        pose: &Pose,
        radius_m: f32,
    ) -> Option<Contact> {
        let segment = Segment::new(a, b);
        match shape.as_cuboid() {
            Some(cuboid) => box_contact::contact_segment_cuboid(
                &mut self.scratch.epa.0,
                &segment,
                pose,
                cuboid,
                radius_m,
            ),
            _ => query::contact(&Pose::IDENTITY, &segment, pose, shape, radius_m)
                .ok()
                .flatten(),
        }
    }

    /// A node's inverse mass in collision: the player's end is not pushed (it has its own).
    fn contact_weight(&self, i: usize, end: EndMotion) -> f32 {
        match end {
            EndMotion::Player(_) if i == self.segment_count() => 0.0,
            _ => self.inv_mass[i],
        }
    }

    /// The swept test of `collide` for `nodes` against one solid (its shape, pose and box at
    /// that pose): a node that moved further than `SWEEP_THRESHOLD_RADII` of the radius this
    /// substep may have jumped a thin wall whole, and is stopped a radius out from where its
    /// path meets the surface.
    fn sweep_nodes(
        &mut self,
        nodes: std::ops::RangeInclusive<usize>,
        (shape, pose, solid_box): (&dyn Shape, &Pose, &Aabb),
        end: EndMotion,
    ) {
        let radius_m = self.params.radius_m;
        let sweep_min_m = radius_m * SWEEP_THRESHOLD_RADII;
        for i in nodes {
            if self.contact_weight(i, end) == 0.0 {
                continue;
            }
            let motion = self.nodes[i] - self.prev[i];
            let dist = motion.length();
            if dist <= sweep_min_m {
                continue;
            }
            // The path lies in the box of its ends: a path whose box misses the solid's cannot
            // meet it (on whip-200, 1 ray in 2 million hit, and the casts were 3 % of the step).
            let path_box = Aabb::new(
                self.prev[i].min(self.nodes[i]),
                self.prev[i].max(self.nodes[i]),
            );
            if !path_box.intersects(solid_box) {
                continue;
            }
            let ray = Ray::new(self.prev[i], motion / dist);
            if let Some(hit) = shape.cast_ray_and_get_normal(pose, &ray, dist, true) {
                // Stop at the surface, a radius out along its normal; the segment pass
                // below settles the rest.
                self.nodes[i] = ray.point_at(hit.time_of_impact) + hit.normal * radius_m;
                self.touching[i] = true;
            }
        }
    }

    /// Moves the ends of segment `i` so that its point nearest `contact_point` moves `depth_m`
    /// along `normal`, split by where along the segment the contact is and by the ends' inverse
    /// masses, each by at most `max_lever` × the depth; then applies Coulomb friction to the
    /// ends' motion over this substep.
    pub(super) fn push_segment(
        &mut self,
        i: usize,
        contact_point: Vec2,
        normal: Vec2,
        depth_m: f32,
        [wa, wb]: [f32; 2],
        max_lever: f32,
    ) {
        let Some((ka, kb, denom)) = self.lever_split(i, contact_point, [wa, wb]) else {
            return;
        };
        let scale = depth_m / denom;
        let friction = self.params.friction;
        for (node, k) in [(i, ka), (i + 1, kb)] {
            if k == 0.0 {
                continue;
            }
            let push_m = (k * scale).min(max_lever * depth_m);
            self.nodes[node] += normal * push_m;
            self.touching[node] = true;
            // Position-based friction (Macklin 2014): cancel the tangential motion of this
            // substep up to μ times the normal correction, so a resting rope stays put.
            let motion = self.nodes[node] - self.prev[node];
            let tangential = motion - normal * motion.dot(normal);
            let slip_m = tangential.length();
            let limit_m = friction * push_m;
            if slip_m <= limit_m {
                self.nodes[node] -= tangential;
            } else if slip_m > 0.0 {
                self.nodes[node] -= tangential * (limit_m / slip_m);
            }
        }
    }
}

/// Slack on a solid's box when it rejects swept tests whose path misses it: far above the
/// rounding of the box and of the ray's end (`prev + direction × length`), so that no path a
/// ray cast would find a hit on is skipped.
const SWEEP_BOX_SLACK_M: f32 = 1e-3;

/// How far out of a solid `Rope::push_axes_out_of_solids` leaves a segment's axis.
const AXIS_CLEARANCE_M: f32 = 0.001;

/// Most a contact may move a segment's node, as a multiple of its depth. A contact near a node
/// that cannot move (the anchor, or the player, who has their own collision) levers the other
/// node by depth / (1 − t): a rope over a corner right beside the player threw its last free
/// node 1.4 m in one substep (1 369 m/s), and the chain then yanked the player after it. Capped,
/// the segment comes out of the corner over a few substeps instead. At 8 no solution replay
/// changes (4 changed level 11's and it missed its goal).
const MAX_CONTACT_LEVER: f32 = 8.0;
/// Most a contact on the player's segment may move its free node, as a multiple of the depth
/// (`MAX_CONTACT_LEVER` elsewhere). The player's end cannot move in the rope step, so a contact
/// near it levers the other node by depth / (1 − t): 08 Quarry Floor's segment, run into the
/// ledge's corner, threw that node 0.39 m in one substep (277 m/s). At 1 it moves as far as
/// the contact point must; the segment comes out of the corner over a few substeps.
const MAX_PLAYER_SEGMENT_CONTACT_LEVER: f32 = 1.0;

/// Most a contact on segment `i` (of `last`) may move a node, as a multiple of its depth: the
/// player's segment is capped tighter (`MAX_PLAYER_SEGMENT_CONTACT_LEVER`).
fn max_contact_lever(i: usize, last: usize, end: EndMotion) -> f32 {
    match end {
        EndMotion::Player(_) if i + 1 == last => MAX_PLAYER_SEGMENT_CONTACT_LEVER,
        _ => MAX_CONTACT_LEVER,
    }
}

/// The shortcut of `Rope::collide` past parry's general contact query for boxes:
/// `contact_segment_cuboid`, parry's own steps with the EPA's buffers kept (the same contact to
/// the bit), on every target.
pub(super) mod box_contact {
    use rapier2d::parry::query::epa::EPA;
    use rapier2d::parry::query::gjk::{self, CsoPoint, GJKResult, VoronoiSimplex};
    use rapier2d::parry::query::Contact;
    use rapier2d::parry::shape::{Cuboid, Segment};

    use super::{Pose, Vec2};

    /// parry's EPA, which is not `Clone`: a copy of a rope starts with empty buffers (they hold
    /// nothing between queries).
    #[derive(Default)]
    pub(in crate::rope) struct ReusedEpa(pub(super) EPA);

    impl Clone for ReusedEpa {
        fn clone(&self) -> Self {
            ReusedEpa::default()
        }
    }

    /// `query::contact` of a segment (at the identity) and a cuboid at `pose`, step for step as
    /// parry computes it (the dispatcher's support-map path), so the result is the same to the bit,
    /// but with the EPA's buffers kept: parry's own allocates three vectors per penetrating query,
    /// which was most of a rope's allocations per tick.
    pub(super) fn contact_segment_cuboid(
        epa: &mut EPA,
        segment: &Segment,
        pose: &Pose,
        cuboid: &Cuboid,
        prediction: f32,
    ) -> Option<Contact> {
        let identity = Pose::IDENTITY;
        let pos12 = identity.inv_mul(pose);
        let dir = pos12.translation.try_normalize().unwrap_or(Vec2::X);
        let mut simplex = VoronoiSimplex::new();
        simplex.reset(CsoPoint::from_shapes(&pos12, segment, cuboid, dir));
        let result =
            match gjk::closest_points(&pos12, segment, cuboid, prediction, true, &mut simplex) {
                GJKResult::Intersection => epa.closest_points(&pos12, segment, cuboid, &simplex)?,
                GJKResult::ClosestPoints(p1, p2, n) => (p1, p2, n),
                _ => return None,
            };
        let (point1, point2_1, normal1) = result;
        let dist = (point2_1 - point1).dot(normal1);
        let point2 = pos12.inverse_transform_point(point2_1);
        let normal2 = pos12.rotation.inverse() * -normal1;
        let mut contact = Contact::new(point1, point2, normal1, normal2, dist);
        contact.transform_by_mut(&identity, pose);
        Some(contact)
    }
}

/// A solid as one rope meets it (`Rope::solid_place`): its pose and box, and the end of the
/// range of segments that meet it.
struct SolidPlace {
    pose: Pose,
    aabb: Aabb,
    segments_end: usize,
}

/// Appends to `pairs` the (chunk, collider, collider box) of every solid near `aabb`, in handle
/// order; `near` is working memory.
fn gather_chunk(
    geometry: &Geometry,
    (chunk, aabb): (usize, Aabb),
    near: &mut Vec<(ColliderRef, Aabb)>,
    pairs: &mut Vec<(usize, ColliderRef, Aabb)>,
) {
    near.clear();
    geometry.colliders_near(aabb, groups::SOLID, near);
    pairs.extend(
        near.iter()
            .map(|&(at, collider_aabb)| (chunk, at, collider_aabb)),
    );
}

/// The smallest box around `points`.
/// Each broad-phase chunk with the nodes it spans: `CHUNK_SEGMENTS` segments, both end nodes.
fn chunk_nodes(segments: usize) -> impl Iterator<Item = (usize, std::ops::RangeInclusive<usize>)> {
    (0..segments)
        .step_by(CHUNK_SEGMENTS)
        .enumerate()
        .map(move |(chunk, start)| (chunk, start..=(start + CHUNK_SEGMENTS).min(segments)))
}
fn points_box(points: &[Vec2]) -> Aabb {
    let mut aabb = Aabb::new_invalid();
    for &p in points {
        aabb.take_point(p);
    }
    aabb
}

/// Whether segment `a`–`b` touches the box of `half` extents at `pose` only at `a`, so that any
/// contact parry reports for it is at `a` (to rounding): `a` lies on a face of the box (within
/// `ON_FACE_M`, inside or out) at least `FACE_EDGE_CLEARANCE_M` from the face's ends, and the
/// segment leaves that face outward at `LEAVING_FACE_MIN_SIN` or steeper. Then the box's
/// other faces and the segment's sides are all centimetres from being the way out, and the
/// segment's other points are further from the box the further they are from `a`.
fn leaves_face_at_start(a: Vec2, b: Vec2, pose: &Pose, half: Vec2) -> bool {
    let (a, b) = (
        pose.inverse_transform_point(a),
        pose.inverse_transform_point(b),
    );
    let ab = b - a;
    let len = ab.length();
    for (axis, sign) in [(0, 1.0f32), (0, -1.0), (1, 1.0), (1, -1.0)] {
        let across = 1 - axis;
        if (a[axis] * sign - half[axis]).abs() <= ON_FACE_M
            && a[across].abs() <= half[across] - FACE_EDGE_CLEARANCE_M
            && ab[axis] * sign >= LEAVING_FACE_MIN_SIN * len
        {
            return true;
        }
    }
    false
}

/// Tolerances of `leaves_face_at_start`: how far from a face its anchor may sit, how far from
/// the face's ends, and the steepest a segment leaving the face may not be (sin 30°). All far
/// outside rounding, so that parry's answer there is surely the anchor.
const ON_FACE_M: f32 = 1e-4;
const FACE_EDGE_CLEARANCE_M: f32 = 0.01;
const LEAVING_FACE_MIN_SIN: f32 = 0.5;
