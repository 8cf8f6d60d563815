//! Cloth: banners, flags and nets as a grid of particles joined by threads, position-based as in
//! the seed articles (Verlet with substeps), with one change that makes it hang without stretch:
//! the vertical threads of each column (the ones gravity loads) are solved *directly*, by the
//! rope's own tridiagonal chain solve, instead of by Gauss-Seidel passes that would need many
//! iterations to carry a long column's weight. The horizontal, shear and bending threads are
//! projected once per substep. Threads pull but never push (a banner wrinkles instead of
//! buckling outward), except the bending ones, which keep a little shape.
//!
//! Particles collide with the level (parry point projection, a swept ray for fast ones so no
//! thin wall is crossed), are pushed aside by the player and the player's rope, feel wind across
//! their threads, and threads stretched past the tear limit tear — taking the shear and bending
//! threads across the cut with them, so a cut really parts and an unpinned piece falls away.
//!
//! Storage is column-major (`index = column × rows + row`, row 0 at the top), so each column is
//! one contiguous chain for the direct solve.

use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};
use rapier2d::parry::query::Ray;

use super::geometry::{groups, ColliderRef, Geometry};
use super::math::{Pose, Vec2};
use super::objects::wind::segment_drag_n;
use super::rope::{solve_chain, ChainScratch, Rests};
use super::state_hash::StateHasher;

/// Collision radius of a particle (the cloth's thickness, for collision only).
pub const PARTICLE_RADIUS_M: f32 = 0.04;
/// Mass of one particle.
pub const PARTICLE_MASS_KG: f32 = 0.05;
/// Wind drag per metre of thread, N·s²/m³ (as the rope's, scaled to light cloth).
pub const CLOTH_DRAG_N_S2_PER_M3: f32 = 0.12;
/// Fraction of particle velocity kept per second.
const DAMPING_PER_S: f32 = 0.3;
/// Fraction of a bending thread's error removed per tick: a little shape memory.
const BEND_STIFFNESS: f32 = 0.1;
/// Fraction of a shear thread's stretch removed per tick. Soft: in the plane of the screen a
/// banner pinned along its top can only sway by shearing, and stiff shear threads made it a
/// rigid board that the wind could only stretch.
const SHEAR_STIFFNESS: f32 = 0.05;
/// Substeps per tick: at least this, more when particles move fast (see `step`); faster than
/// the most allows, the swept test keeps particles out of thin walls.
const MIN_SUBSTEPS: u32 = 2;
const MAX_SUBSTEPS: u32 = 4;
/// Position-based friction against the level (as the rope's).
const FRICTION: f32 = 0.5;
/// Share of a pusher's velocity a particle it pushes takes on.
const PUSH_SHARE: f32 = 0.6;

/// Something that pushes cloth aside: the player's body (a circle) or a rope segment.
#[derive(Clone, Copy, Debug)]
pub enum Pusher {
    Circle {
        center: Vec2,
        radius_m: f32,
        velocity: Vec2,
    },
    Capsule {
        a: Vec2,
        b: Vec2,
        radius_m: f32,
        velocity: Vec2,
    },
}

impl Pusher {
    /// Where a particle at `p` must go to be `margin_m` clear of it, if it is closer.
    fn push_out(&self, p: Vec2, margin_m: f32) -> Option<Vec2> {
        let (closest, reach_m) = match *self {
            Pusher::Circle {
                center, radius_m, ..
            } => (center, radius_m),
            Pusher::Capsule { a, b, radius_m, .. } => {
                let ab = b - a;
                let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
                (a + ab * t, radius_m)
            }
        };
        let away = p - closest;
        let dist = away.length();
        let clear_m = reach_m + margin_m;
        if dist >= clear_m {
            return None;
        }
        let dir = if dist > 1e-6 { away / dist } else { Vec2::Y };
        Some(closest + dir * clear_m)
    }

    fn velocity(&self) -> Vec2 {
        match *self {
            Pusher::Circle { velocity, .. } | Pusher::Capsule { velocity, .. } => velocity,
        }
    }

    fn aabb(&self) -> Aabb {
        match *self {
            Pusher::Circle {
                center, radius_m, ..
            } => Aabb::new(center, center).loosened(radius_m),
            Pusher::Capsule { a, b, radius_m, .. } => {
                Aabb::new(a.min(b), a.max(b)).loosened(radius_m)
            }
        }
    }
}

/// A thread between two particles.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Thread {
    a: u32,
    b: u32,
    rest_m: f32,
}

#[derive(Clone, Default)]
struct Scratch {
    near: Vec<(ColliderRef, Aabb)>,
    /// The pose of each `near` collider at the current substep.
    near_poses: Vec<Pose>,
    chain: ChainScratch,
    weights: Vec<f32>,
}

#[derive(Clone)]
pub struct Cloth {
    columns: usize,
    rows: usize,
    spacing_m: f32,
    pos: Vec<Vec2>,
    prev: Vec<Vec2>,
    /// 0 for a pinned particle.
    inv_mass: Vec<f32>,
    /// Whether each vertical thread below particle `i` (not in the last row) still holds.
    down_intact: Vec<bool>,
    /// Horizontal, shear and bending threads, and whether each still holds.
    across: Vec<Thread>,
    across_intact: Vec<bool>,
    shear: Vec<Thread>,
    shear_intact: Vec<bool>,
    bend: Vec<Thread>,
    bend_intact: Vec<bool>,
    /// Thread length over rest beyond which it tears (`None`: never).
    tear_ratio: Option<f32>,
    torn: u32,
    last_substeps: u32,
    scratch: Box<Scratch>,
}

impl std::fmt::Debug for Cloth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cloth")
            .field("columns", &self.columns)
            .field("rows", &self.rows)
            .field("torn", &self.torn)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Cloth {
    fn eq(&self, other: &Self) -> bool {
        self.pos == other.pos && self.prev == other.prev && self.torn == other.torn
    }
}

impl Cloth {
    /// A cloth hanging flat from `top_left`, `columns × rows` particles `spacing_m` apart, the
    /// particles at `pins` ((column, row), row 0 at the top) held where they start. Pins outside
    /// the grid are ignored (the level's check refuses them first).
    pub fn new(
        top_left: Vec2,
        columns: usize,
        rows: usize,
        spacing_m: f32,
        pins: &[(usize, usize)],
        tear_ratio: Option<f32>,
    ) -> Cloth {
        let (columns, rows) = (columns.max(2), rows.max(2));
        let index = |c: usize, r: usize| (c * rows + r) as u32;
        let mut pos = Vec::with_capacity(columns * rows);
        for c in 0..columns {
            for r in 0..rows {
                pos.push(top_left + Vec2::new(c as f32, -(r as f32)) * spacing_m);
            }
        }
        let mut inv_mass = vec![1.0; pos.len()];
        for &(c, r) in pins {
            if c < columns && r < rows {
                inv_mass[index(c, r) as usize] = 0.0;
            }
        }
        let thread = |a: u32, b: u32, rest_m: f32| Thread { a, b, rest_m };
        let diagonal_m = spacing_m * std::f32::consts::SQRT_2;
        let mut across = Vec::new();
        let mut shear = Vec::new();
        let mut bend = Vec::new();
        for r in 0..rows {
            for c in 0..columns - 1 {
                across.push(thread(index(c, r), index(c + 1, r), spacing_m));
            }
        }
        for c in 0..columns - 1 {
            for r in 0..rows - 1 {
                shear.push(thread(index(c, r), index(c + 1, r + 1), diagonal_m));
                shear.push(thread(index(c + 1, r), index(c, r + 1), diagonal_m));
            }
        }
        for r in 0..rows {
            for c in 0..columns.saturating_sub(2) {
                bend.push(thread(index(c, r), index(c + 2, r), 2.0 * spacing_m));
            }
        }
        for c in 0..columns {
            for r in 0..rows.saturating_sub(2) {
                bend.push(thread(index(c, r), index(c, r + 2), 2.0 * spacing_m));
            }
        }
        Cloth {
            columns,
            rows,
            spacing_m,
            prev: pos.clone(),
            pos,
            inv_mass,
            down_intact: vec![true; columns * rows],
            across_intact: vec![true; across.len()],
            across,
            shear_intact: vec![true; shear.len()],
            shear,
            bend_intact: vec![true; bend.len()],
            bend,
            tear_ratio,
            torn: 0,
            last_substeps: MIN_SUBSTEPS,
            scratch: Box::default(),
        }
    }

    pub fn columns(&self) -> usize {
        self.columns
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn positions(&self) -> &[Vec2] {
        &self.pos
    }

    /// The particle at (column, row).
    pub fn at(&self, column: usize, row: usize) -> Vec2 {
        self.pos[column * self.rows + row]
    }

    /// Threads torn so far.
    pub fn torn_count(&self) -> u32 {
        self.torn
    }

    /// Whether the cell with top-left corner (column, row) still has all four edges.
    pub fn cell_intact(&self, column: usize, row: usize) -> bool {
        let left = column * self.rows + row;
        let right = (column + 1) * self.rows + row;
        let top = row * (self.columns - 1) + column;
        let bottom = (row + 1) * (self.columns - 1) + column;
        self.down_intact[left]
            && self.down_intact[right]
            && self.across_intact[top]
            && self.across_intact[bottom]
    }

    /// The box around every particle.
    pub fn aabb(&self) -> Aabb {
        let mut aabb = Aabb::new_invalid();
        for &p in &self.pos {
            aabb.take_point(p);
        }
        aabb
    }

    /// Every intact structural thread (vertical and horizontal) as (a, b, rest).
    fn structural(&self) -> impl Iterator<Item = (Vec2, Vec2, f32)> + '_ {
        let down = (0..self.pos.len())
            .filter(|&i| i % self.rows != self.rows - 1 && self.down_intact[i])
            .map(|i| (self.pos[i], self.pos[i + 1], self.spacing_m));
        let across = self
            .across
            .iter()
            .zip(&self.across_intact)
            .filter(|(_, &ok)| ok)
            .map(|(t, _)| (self.pos[t.a as usize], self.pos[t.b as usize], t.rest_m));
        down.chain(across)
    }

    /// The longest intact structural thread over its rest length.
    pub fn max_stretch_ratio(&self) -> f32 {
        self.structural()
            .map(|(a, b, rest)| a.distance(b) / rest)
            .fold(0.0, f32::max)
    }

    /// Total stretch of the intact structural threads: Σ max(0, length − rest) / Σ rest.
    pub fn mean_stretch(&self) -> f32 {
        let (over, rest) = self
            .structural()
            .fold((0.0, 0.0), |(over, total), (a, b, r)| {
                (over + (a.distance(b) - r).max(0.0), total + r)
            });
        over / rest.max(1e-9)
    }

    /// Sets every free particle moving at `velocity` (a cloth thrown; for tests and rigs).
    pub fn set_velocity(&mut self, velocity: Vec2, dt_s: f32) {
        let h = dt_s / self.last_substeps as f32;
        for i in 0..self.pos.len() {
            if self.inv_mass[i] != 0.0 {
                self.prev[i] = self.pos[i] - velocity * h;
            }
        }
    }

    /// The fastest particle's speed over the last substep.
    pub fn max_speed_m_per_s(&self, dt_s: f32) -> f32 {
        let h = dt_s / self.last_substeps as f32;
        self.pos
            .iter()
            .zip(&self.prev)
            .map(|(p, q)| p.distance(*q) / h)
            .fold(0.0, f32::max)
    }

    /// One tick of `dt_s`: wind, then substeps of motion, threads, the level and the pushers,
    /// then tearing. `air_velocity` is `None` outside every wind zone. Returns the threads torn.
    pub fn step(
        &mut self,
        geometry: &Geometry,
        gravity: Vec2,
        air_velocity: Option<&dyn Fn(Vec2) -> Vec2>,
        pushers: &[Pusher],
        dt_s: f32,
    ) -> u32 {
        if let Some(air) = air_velocity {
            self.apply_wind(air, dt_s);
        }
        // How far any particle may travel this tick: the broad phase's margin.
        let mut fastest_sq = 0.0f32;
        for (p, q) in self.pos.iter().zip(&self.prev) {
            fastest_sq = fastest_sq.max(p.distance_squared(*q));
        }
        let gravity_m = gravity.length() * dt_s * dt_s;
        let travel_m = fastest_sq.sqrt() * self.last_substeps as f32 + gravity_m;
        let margin_m = travel_m + PARTICLE_RADIUS_M + 0.05;
        let near_box = self.aabb().loosened(margin_m);
        self.scratch.near.clear();
        geometry.colliders_near(near_box, groups::SOLID, &mut self.scratch.near);
        // Enough substeps that no particle that may reach a solid this tick moves more than its
        // radius in one; the others may move further (a banner flapping in the open needs no
        // swept test, and took the most substeps for it before).
        let mut near_fastest_sq = 0.0f32;
        let mut any_near = false;
        for &(_, collider_aabb) in &self.scratch.near {
            let reach = collider_aabb.loosened(margin_m);
            for (p, q) in self.pos.iter().zip(&self.prev) {
                if reach.contains_local_point(*p) {
                    any_near = true;
                    near_fastest_sq = near_fastest_sq.max(p.distance_squared(*q));
                }
            }
        }
        let wanted = if any_near {
            libm::ceilf(
                (near_fastest_sq.sqrt() * self.last_substeps as f32 + gravity_m)
                    / PARTICLE_RADIUS_M,
            )
        } else {
            0.0
        };
        let substeps = (wanted as u32).clamp(MIN_SUBSTEPS, MAX_SUBSTEPS);
        if substeps != self.last_substeps {
            let scale = self.last_substeps as f32 / substeps as f32;
            for (x, p) in self.pos.iter().zip(self.prev.iter_mut()) {
                *p = *x - (*x - *p) * scale;
            }
            self.last_substeps = substeps;
        }
        let h = dt_s / substeps as f32;
        let pushers_near: Vec<Pusher> = pushers
            .iter()
            .filter(|p| p.aabb().intersects(&near_box))
            .copied()
            .collect();
        let keep = libm::powf(DAMPING_PER_S, h);
        let gravity_step = gravity * (h * h);
        for substep in 0..substeps {
            for i in 0..self.pos.len() {
                if self.inv_mass[i] == 0.0 {
                    self.prev[i] = self.pos[i];
                    continue;
                }
                let v = (self.pos[i] - self.prev[i]) * keep;
                self.prev[i] = self.pos[i];
                self.pos[i] += v + gravity_step;
            }
            // The soft threads first (once a tick: they are soft, and they are two thirds of
            // the threads), then the across ones, then the columns exactly: what the last solve
            // sets holds at the end of the substep, and the columns carry the weight.
            if substep == 0 {
                project(
                    &mut self.pos,
                    &self.inv_mass,
                    &self.shear,
                    &self.shear_intact,
                    SHEAR_STIFFNESS,
                    true,
                );
                project(
                    &mut self.pos,
                    &self.inv_mass,
                    &self.bend,
                    &self.bend_intact,
                    BEND_STIFFNESS,
                    false,
                );
            }
            self.project_across();
            self.solve_columns();
            self.push_out(&pushers_near, h);
            self.collide(geometry, (substep + 1) as f32 / substeps as f32);
        }
        self.tear()
    }

    /// Drag across every intact structural thread, half to each end, as a velocity change.
    fn apply_wind(&mut self, air_velocity: &dyn Fn(Vec2) -> Vec2, dt_s: f32) {
        let h = dt_s / self.last_substeps as f32;
        let per_kg = dt_s / PARTICLE_MASS_KG;
        let rows = self.rows;
        let push = |pos: &[Vec2], prev: &mut [Vec2], w: &[f32], a: usize, b: usize| {
            let velocity = ((pos[a] - prev[a]) + (pos[b] - prev[b])) * (0.5 / h);
            let air = air_velocity((pos[a] + pos[b]) * 0.5);
            if air == Vec2::ZERO {
                return;
            }
            let half = segment_drag_n(pos[a], pos[b], velocity, air, CLOTH_DRAG_N_S2_PER_M3) * 0.5;
            // Velocity += F/m dt: Verlet carries it as a shift of the previous position.
            prev[a] -= half * (per_kg * w[a] * h);
            prev[b] -= half * (per_kg * w[b] * h);
        };
        for i in 0..self.pos.len() {
            if i % rows != rows - 1 && self.down_intact[i] {
                push(&self.pos, &mut self.prev, &self.inv_mass, i, i + 1);
            }
        }
        for (t, &ok) in self.across.iter().zip(&self.across_intact) {
            if ok {
                push(
                    &self.pos,
                    &mut self.prev,
                    &self.inv_mass,
                    t.a as usize,
                    t.b as usize,
                );
            }
        }
    }

    /// One Gauss-Seidel pass over the horizontal threads, pull only, a pair of neighbouring
    /// columns at a time: the threads of one row form a chain, but rows share no particle, so
    /// this is the order of a row-by-row pass and its result, with the inner loop running down
    /// two contiguous columns (no bounds checks, no branches: the compiler vectorises it).
    fn project_across(&mut self) {
        let (rows, columns) = (self.rows, self.columns);
        for c in 0..columns - 1 {
            let (left, right) = self.pos[c * rows..(c + 2) * rows].split_at_mut(rows);
            let (w_left, w_right) = self.inv_mass[c * rows..(c + 2) * rows].split_at(rows);
            let intact = self.across_intact[c..].iter().step_by(columns - 1);
            for ((((a, b), &wa), &wb), &ok) in left
                .iter_mut()
                .zip(right.iter_mut())
                .zip(w_left)
                .zip(w_right)
                .zip(intact)
            {
                let w = wa + wb;
                let delta = *b - *a;
                let length = delta.length();
                let acts = ok && w != 0.0 && length >= 1e-9 && length > self.spacing_m;
                let share = if acts {
                    (length - self.spacing_m) / (length * w)
                } else {
                    0.0
                };
                let correction = delta * share;
                *a += correction * wa;
                *b -= correction * wb;
            }
        }
    }

    /// Each column's vertical threads, solved exactly as one chain per intact run.
    fn solve_columns(&mut self) {
        let rows = self.rows;
        let rest = Rests {
            nominal_m: self.spacing_m,
            last_m: self.spacing_m,
        };
        let scratch = &mut *self.scratch;
        for c in 0..self.columns {
            let column = c * rows..(c + 1) * rows;
            let mut start = column.start;
            for i in column.clone() {
                let run_ends = i + 1 == column.end || !self.down_intact[i];
                if run_ends {
                    if i > start {
                        scratch.weights.clear();
                        scratch.weights.extend_from_slice(&self.inv_mass[start..=i]);
                        solve_chain(
                            &mut self.pos[start..=i],
                            &scratch.weights,
                            &mut scratch.chain,
                            rest,
                        );
                    }
                    start = i + 1;
                }
            }
        }
    }

    /// Pushes particles out of the pushers; a pushed particle takes on some of their velocity.
    fn push_out(&mut self, pushers: &[Pusher], h: f32) {
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
    fn collide(&mut self, geometry: &Geometry, progress: f32) {
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

    /// Tears every structural thread stretched past the limit, with the shear and bending
    /// threads across it.
    fn tear(&mut self) -> u32 {
        let Some(limit) = self.tear_ratio else {
            return 0;
        };
        let (rows, columns) = (self.rows, self.columns);
        let mut torn = 0;
        for i in 0..self.pos.len() {
            let (c, r) = (i / rows, i % rows);
            if r + 1 < rows
                && self.down_intact[i]
                && self.pos[i].distance(self.pos[i + 1]) > limit * self.spacing_m
            {
                self.down_intact[i] = false;
                torn += 1;
                // Shear in the cells left and right of this edge; bending over it.
                for cell_c in c.checked_sub(1).into_iter().chain([c]) {
                    if cell_c < columns - 1 {
                        let k = 2 * (cell_c * (rows - 1) + r);
                        self.shear_intact[k] = false;
                        self.shear_intact[k + 1] = false;
                    }
                }
                self.cut_vertical_bends(c, r);
            }
        }
        for k in 0..self.across.len() {
            let t = self.across[k];
            if self.across_intact[k]
                && self.pos[t.a as usize].distance(self.pos[t.b as usize]) > limit * t.rest_m
            {
                self.across_intact[k] = false;
                torn += 1;
                let (r, c) = (k / (columns - 1), k % (columns - 1));
                for cell_r in r.checked_sub(1).into_iter().chain([r]) {
                    if cell_r < rows - 1 {
                        let s = 2 * (c * (rows - 1) + cell_r);
                        self.shear_intact[s] = false;
                        self.shear_intact[s + 1] = false;
                    }
                }
                self.cut_horizontal_bends(c, r);
            }
        }
        self.torn += torn;
        torn
    }

    /// Bending threads along column `c` that span the edge from row `r` to `r + 1`.
    fn cut_vertical_bends(&mut self, c: usize, r: usize) {
        let rows = self.rows;
        let first_vertical = rows * self.columns.saturating_sub(2);
        for start in r.checked_sub(1).into_iter().chain([r]) {
            if start + 2 < rows {
                self.bend_intact[first_vertical + c * (rows - 2) + start] = false;
            }
        }
    }

    /// Bending threads along row `r` that span the edge from column `c` to `c + 1`.
    fn cut_horizontal_bends(&mut self, c: usize, r: usize) {
        let columns = self.columns;
        for start in c.checked_sub(1).into_iter().chain([c]) {
            if start + 2 < columns {
                self.bend_intact[r * (columns - 2) + start] = false;
            }
        }
    }

    /// Adds everything about the cloth that evolves to the state hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        let Cloth {
            columns,
            rows,
            spacing_m,
            pos,
            prev,
            inv_mass,
            down_intact,
            // Built once; which of them still hold is below.
            across: _,
            across_intact,
            shear: _,
            shear_intact,
            bend: _,
            bend_intact,
            tear_ratio,
            torn,
            last_substeps,
            // Working memory only.
            scratch: _,
        } = self;
        h.u64(*columns as u64);
        h.u64(*rows as u64);
        h.f32(*spacing_m);
        h.vecs(pos);
        h.vecs(prev);
        for &w in inv_mass {
            h.f32(w);
        }
        for flags in [down_intact, across_intact, shear_intact, bend_intact] {
            for chunk in flags.chunks(64) {
                h.u64(chunk.iter().fold(0u64, |bits, &ok| bits << 1 | ok as u64));
            }
        }
        h.f32(tear_ratio.unwrap_or(0.0));
        h.u64(*torn as u64);
        h.u64(*last_substeps as u64);
    }
}

/// One Gauss-Seidel pass over `threads`: each intact one moved `stiffness` of the way to its
/// rest length, mass-weighted; a `pull_only` thread that is short is left slack.
fn project(
    pos: &mut [Vec2],
    inv_mass: &[f32],
    threads: &[Thread],
    intact: &[bool],
    stiffness: f32,
    pull_only: bool,
) {
    for (t, &ok) in threads.iter().zip(intact) {
        if !ok {
            continue;
        }
        let (a, b) = (t.a as usize, t.b as usize);
        let (wa, wb) = (inv_mass[a], inv_mass[b]);
        let w = wa + wb;
        if w == 0.0 {
            continue;
        }
        let delta = pos[b] - pos[a];
        let length = delta.length();
        if length < 1e-9 || (pull_only && length <= t.rest_m) {
            continue;
        }
        let correction = delta * ((length - t.rest_m) / (length * w) * stiffness);
        pos[a] += correction * wa;
        pos[b] -= correction * wb;
    }
}
