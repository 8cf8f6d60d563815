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
use super::solver::lanes;
use super::solver::{solve_chain, ChainScratch, Rests};
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

/// The air a cloth moves through this tick.
#[derive(Clone, Copy)]
pub enum Air<'a> {
    /// No wind reaches it.
    Still,
    /// The same air velocity over the whole cloth (a banner inside one wind zone): no lookup
    /// per thread.
    Uniform(Vec2),
    /// Air that varies across the cloth, looked up at each thread's midpoint.
    Varying(&'a dyn Fn(Vec2) -> Vec2),
}

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

#[derive(Clone, Default)]
struct Scratch {
    near: Vec<(ColliderRef, Aabb)>,
    /// The pose of each `near` collider at the current substep.
    near_poses: Vec<Pose>,
    chain: ChainScratch,
    lanes: lanes::LaneScratch,
    /// For the wind: each particle's velocity at the start of the tick, half of each thread's
    /// drag (see `apply_drag`).
    velocity: Vec<Vec2>,
    down_half: Vec<Vec2>,
    across_half: Vec<Vec2>,
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
    /// Whether each of the other threads still holds, laid out so that a column pair's threads
    /// are contiguous (the passes run down them): the horizontal thread from (c, r) at
    /// `c × rows + r`; the shear threads of cell (c, r), `\` at `2c × (rows − 1) + r` and `/` at
    /// `(2c + 1) × (rows − 1) + r`; the bending threads from (c, r) to (c + 2, r) at
    /// `c × rows + r`, then those from (c, r) to (c, r + 2) at
    /// `rows × (columns − 2) + c × (rows − 2) + r`.
    across_intact: Vec<bool>,
    shear_intact: Vec<bool>,
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
        // Every thread's length is implied by the grid; only whether each holds is kept.
        let across_count = (columns - 1) * rows;
        let shear_count = 2 * (columns - 1) * (rows - 1);
        let bend_count = rows * columns.saturating_sub(2) + columns * rows.saturating_sub(2);
        Cloth {
            columns,
            rows,
            spacing_m,
            prev: pos.clone(),
            pos,
            inv_mass,
            down_intact: vec![true; columns * rows],
            across_intact: vec![true; across_count],
            shear_intact: vec![true; shear_count],
            bend_intact: vec![true; bend_count],
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
        let top = column * self.rows + row;
        let bottom = top + 1;
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
        let across = (0..self.across_intact.len())
            .filter(|&k| self.across_intact[k])
            .map(|k| (self.pos[k], self.pos[k + self.rows], self.spacing_m));
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

    /// What its last step cost, in particles × substeps: the guess at its next step's cost
    /// that `sim::parallel` weighs.
    pub fn step_work(&self) -> usize {
        self.pos.len() * self.last_substeps as usize
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
    /// then tearing. Returns the threads torn.
    pub fn step(
        &mut self,
        geometry: &Geometry,
        gravity: Vec2,
        air: Air<'_>,
        pushers: &[Pusher],
        dt_s: f32,
    ) -> u32 {
        self.apply_wind(air, dt_s);
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
            let particles = self.pos.iter_mut().zip(self.prev.iter_mut());
            for ((x, p), &w) in particles.zip(&self.inv_mass) {
                let v = (*x - *p) * keep;
                *p = *x;
                // A pinned particle stays.
                if w != 0.0 {
                    *x += v + gravity_step;
                }
            }
            // The soft threads first (once a tick: they are soft, and they are two thirds of
            // the threads), then the across ones, then the columns exactly: what the last solve
            // sets holds at the end of the substep, and the columns carry the weight.
            if substep == 0 {
                self.project_shear();
                self.project_bending();
            }
            self.project_across();
            self.solve_columns();
            self.push_out(&pushers_near, h);
            self.collide(geometry, (substep + 1) as f32 / substeps as f32);
        }
        self.tear()
    }

    /// Drag across every intact structural thread, half to each end, as a velocity change. All
    /// the threads see the particles' velocities at the start of the tick (the forces are
    /// summed per particle, then applied), so the columns and rows are independent loops.
    fn apply_wind(&mut self, air: Air<'_>, dt_s: f32) {
        match air {
            Air::Still => {}
            Air::Uniform(velocity) if velocity == Vec2::ZERO => {}
            air => self.apply_drag(air, dt_s),
        }
    }

    fn apply_drag(&mut self, air: Air<'_>, dt_s: f32) {
        let h = dt_s / self.last_substeps as f32;
        let (rows, n) = (self.rows, self.pos.len());
        let scratch = &mut *self.scratch;
        scratch.velocity.clear();
        scratch.velocity.extend(
            self.pos
                .iter()
                .zip(&self.prev)
                .map(|(&p, &q)| (p - q) * (1.0 / h)),
        );
        // Half of each thread's drag: the vertical ones below particle i at i (0 in the last
        // row), the horizontal ones from particle i at i (0 in the last column).
        scratch.down_half.resize(n, Vec2::ZERO);
        scratch.across_half.resize(n, Vec2::ZERO);
        let (pos, velocity) = (&self.pos, &scratch.velocity);
        for c in 0..self.columns {
            let (top, bottom) = (c * rows, (c + 1) * rows - 1);
            half_drags(
                (&pos[top..bottom], &pos[top + 1..=bottom]),
                (&velocity[top..bottom], &velocity[top + 1..=bottom]),
                &self.down_intact[top..bottom],
                air,
                &mut scratch.down_half[top..bottom],
            );
            scratch.down_half[bottom] = Vec2::ZERO;
        }
        let m = n - rows;
        half_drags(
            (&pos[..m], &pos[rows..]),
            (&velocity[..m], &velocity[rows..]),
            &self.across_intact,
            air,
            &mut scratch.across_half[..m],
        );
        scratch.across_half[m..].fill(Vec2::ZERO);
        // Velocity += F/m dt: Verlet carries it as a shift of the previous position.
        let per_kg = dt_s / PARTICLE_MASS_KG;
        let (down, across) = (&scratch.down_half, &scratch.across_half);
        // Particle i's force: the threads above and below it, then left and right of it (in
        // that order, the same sums everywhere); the first particle and the first column have
        // no thread above or to the left.
        let shift = |p: &mut Vec2, force: Vec2, w: f32| *p -= force * (per_kg * w * h);
        let (prev, inv_mass) = (&mut self.prev[..n], &self.inv_mass[..n]);
        shift(&mut prev[0], down[0] + across[0], inv_mass[0]);
        for i in 1..rows.min(n) {
            shift(
                &mut prev[i],
                (down[i - 1] + down[i]) + across[i],
                inv_mass[i],
            );
        }
        for i in rows.max(1)..n {
            let force = (down[i - 1] + down[i]) + across[i - rows] + across[i];
            shift(&mut prev[i], force, inv_mass[i]);
        }
    }

    /// One Gauss-Seidel pass over the horizontal threads, pull only, a pair of neighbouring
    /// columns at a time: the threads of one row form a chain, but rows share no particle, so
    /// this is the order of a row-by-row pass and its result, with the inner loop running down
    /// two contiguous columns (no bounds checks, no branches: the compiler vectorises it).
    fn project_across(&mut self) {
        let rows = self.rows;
        for c in 0..self.columns - 1 {
            let (left, right, w_left, w_right) =
                column_pair(&mut self.pos, &self.inv_mass, rows, c, c + 1);
            let intact = &self.across_intact[c * rows..(c + 1) * rows];
            pull_rows(
                left,
                right,
                w_left,
                w_right,
                intact,
                self.spacing_m,
                1.0,
                true,
            );
        }
    }

    /// One pass over the shear threads (pull only, soft), a pair of neighbouring columns at a
    /// time: within a pair the `\` threads share no particle, nor do the `/` ones, so each set
    /// is one loop down the two columns.
    fn project_shear(&mut self) {
        let rows = self.rows;
        let diagonal_m = self.spacing_m * std::f32::consts::SQRT_2;
        for c in 0..self.columns - 1 {
            let (left, right, w_left, w_right) =
                column_pair(&mut self.pos, &self.inv_mass, self.rows, c, c + 1);
            let cells = &self.shear_intact[2 * c * (rows - 1)..2 * (c + 1) * (rows - 1)];
            let (falling, rising) = cells.split_at(rows - 1);
            let (top_left, bottom_right) = (&mut left[..rows - 1], &mut right[1..]);
            let (w_top_left, w_bottom_right) = (&w_left[..rows - 1], &w_right[1..]);
            pull_rows(
                top_left,
                bottom_right,
                w_top_left,
                w_bottom_right,
                falling,
                diagonal_m,
                SHEAR_STIFFNESS,
                true,
            );
            let (top_right, bottom_left) = (&mut right[..rows - 1], &mut left[1..]);
            let (w_top_right, w_bottom_left) = (&w_right[..rows - 1], &w_left[1..]);
            pull_rows(
                top_right,
                bottom_left,
                w_top_right,
                w_bottom_left,
                rising,
                diagonal_m,
                SHEAR_STIFFNESS,
                true,
            );
        }
    }

    /// One pass over the bending threads (push and pull, soft): along the rows two columns
    /// apart, a column pair at a time as the horizontal threads; then down each column, where
    /// the threads over even rows and over odd rows form two chains.
    fn project_bending(&mut self) {
        let (rows, columns) = (self.rows, self.columns);
        let span_m = 2.0 * self.spacing_m;
        for c in 0..columns.saturating_sub(2) {
            let (left, right, w_left, w_right) =
                column_pair(&mut self.pos, &self.inv_mass, self.rows, c, c + 2);
            let intact = &self.bend_intact[c * rows..(c + 1) * rows];
            pull_rows(
                left,
                right,
                w_left,
                w_right,
                intact,
                span_m,
                BEND_STIFFNESS,
                false,
            );
        }
        if rows < 3 {
            return;
        }
        let first_vertical = rows * columns.saturating_sub(2);
        for c in 0..columns {
            let column = &mut self.pos[c * rows..(c + 1) * rows];
            let weights = &self.inv_mass[c * rows..(c + 1) * rows];
            let intact = &self.bend_intact[first_vertical + c * (rows - 2)..][..rows - 2];
            for (r, &ok) in intact.iter().enumerate() {
                let (upper, lower) = column.split_at_mut(r + 2);
                pull(
                    &mut upper[r],
                    &mut lower[0],
                    weights[r],
                    weights[r + 2],
                    ok,
                    span_m,
                    BEND_STIFFNESS,
                    false,
                );
            }
        }
    }

    /// Each column's vertical threads, solved exactly as one chain per intact run: four whole
    /// columns side by side where all four hold top to bottom (the columns share no particle,
    /// so the order is free and the result the same bits).
    fn solve_columns(&mut self) {
        let rows = self.rows;
        let rest = Rests {
            nominal_m: self.spacing_m,
            last_m: self.spacing_m,
        };
        let scratch = &mut *self.scratch;
        let mut c = 0;
        while c < self.columns {
            {
                let block = c * rows..(c + lanes::LANES) * rows;
                // A column's last row has no thread below it; its entry stays `true`.
                let whole = block.end <= self.pos.len()
                    && (self.torn == 0 || self.down_intact[block.clone()].iter().all(|&ok| ok));
                if whole {
                    let (pos, w) = (&mut self.pos[block.clone()], &self.inv_mass[block]);
                    lanes::solve_adjacent_chains(pos, w, rows, &mut scratch.lanes, rest);
                    c += lanes::LANES;
                    continue;
                }
            }
            let column = c * rows..(c + 1) * rows;
            let mut start = column.start;
            for i in column.clone() {
                let run_ends = i + 1 == column.end || !self.down_intact[i];
                if run_ends {
                    if i > start {
                        solve_chain(
                            &mut self.pos[start..=i],
                            &self.inv_mass[start..=i],
                            &mut scratch.chain,
                            rest,
                        );
                    }
                    start = i + 1;
                }
            }
            c += 1;
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
                        self.cut_shear(cell_c, r);
                    }
                }
                self.cut_vertical_bends(c, r);
            }
        }
        for k in 0..self.across_intact.len() {
            let (c, r) = (k / rows, k % rows);
            if self.across_intact[k]
                && self.pos[k].distance(self.pos[k + rows]) > limit * self.spacing_m
            {
                self.across_intact[k] = false;
                torn += 1;
                for cell_r in r.checked_sub(1).into_iter().chain([r]) {
                    if cell_r < rows - 1 {
                        self.cut_shear(c, cell_r);
                    }
                }
                self.cut_horizontal_bends(c, r);
            }
        }
        self.torn += torn;
        torn
    }

    /// Both shear threads of cell (c, r).
    fn cut_shear(&mut self, c: usize, r: usize) {
        let rows = self.rows;
        self.shear_intact[2 * c * (rows - 1) + r] = false;
        self.shear_intact[(2 * c + 1) * (rows - 1) + r] = false;
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
                self.bend_intact[start * self.rows + r] = false;
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
            across_intact,
            shear_intact,
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

/// Half the wind's drag on each thread from `ends.0[k]` to `ends.1[k]` (as
/// `math::segment_drag_n`, the thread moving at its ends' mean velocity) into `out[k]`; none on a
/// torn thread or in still air (outside the wind a cloth feels no air: its damping settles it).
fn half_drags(
    ends: (&[Vec2], &[Vec2]),
    velocities: (&[Vec2], &[Vec2]),
    intact: &[bool],
    air: Air<'_>,
    out: &mut [Vec2],
) {
    // In uniform air, four threads at a time (see `half_drags_by_four`).
    let whole = match air {
        Air::Uniform(velocity) => half_drags_by_four(ends, velocities, intact, velocity, out),
        _ => 0,
    };
    let threads = ends.0[whole..]
        .iter()
        .zip(&ends.1[whole..])
        .zip(velocities.0[whole..].iter().zip(&velocities.1[whole..]))
        .zip(&intact[whole..])
        .zip(&mut out[whole..]);
    for ((((&a, &b), (&va, &vb)), &ok), out) in threads {
        // A match, not a closure, for uniform air: one copy of this loop (the browser's download
        // is counted in bytes), without a call per thread.
        let air = match air {
            Air::Uniform(velocity) => velocity,
            Air::Varying(air_at) => air_at((a + b) * 0.5),
            Air::Still => Vec2::ZERO,
        };
        // `segment_drag_n`'s force, C·L·u|u| along the thread's normal n = perp(b − a)/L with
        // u = (air − v)·n, written as perp(b − a)·C·q|q|/L² with q = (air − v)·perp(b − a):
        // the same force without a square root and with one division.
        let along = b - a;
        let length_sq = along.length_squared();
        let perp = along.perp();
        let q = (air - (va + vb) * 0.5).dot(perp);
        let acts = ok && air != Vec2::ZERO && length_sq > 1e-12;
        let scale = if acts {
            0.5 * CLOTH_DRAG_N_S2_PER_M3 * q * q.abs() / length_sq
        } else {
            0.0
        };
        *out = perp * scale;
    }
}

/// `half_drags` in uniform air four threads at a time, in vector registers (`wide`'s `f32x4`:
/// the same IEEE operations lane by lane, so the same bits), up to the last whole four;
/// returns how many it did.
fn half_drags_by_four(
    ends: (&[Vec2], &[Vec2]),
    velocities: (&[Vec2], &[Vec2]),
    intact: &[bool],
    air: Vec2,
    out: &mut [Vec2],
) -> usize {
    use wide::f32x4;
    const LANES: usize = 4;
    let n = ends
        .0
        .len()
        .min(ends.1.len())
        .min(velocities.0.len())
        .min(velocities.1.len());
    let n = n.min(intact.len()).min(out.len());
    let whole = n - n % LANES;
    let xs = |p: &[Vec2]| f32x4::new([p[0].x, p[1].x, p[2].x, p[3].x]);
    let ys = |p: &[Vec2]| f32x4::new([p[0].y, p[1].y, p[2].y, p[3].y]);
    let (air_x, air_y) = (f32x4::splat(air.x), f32x4::splat(air.y));
    let (zero, half) = (f32x4::ZERO, f32x4::splat(0.5));
    let blows = if air != Vec2::ZERO {
        f32x4::splat(1.0)
    } else {
        zero
    }
    .simd_ne(zero);
    let threads = ends.0[..whole]
        .chunks_exact(LANES)
        .zip(ends.1[..whole].chunks_exact(LANES))
        .zip(velocities.0[..whole].chunks_exact(LANES))
        .zip(velocities.1[..whole].chunks_exact(LANES))
        .zip(
            intact[..whole]
                .chunks_exact(LANES)
                .zip(out[..whole].chunks_exact_mut(LANES)),
        );
    for ((((a, b), va), vb), (intact, out)) in threads {
        let (along_x, along_y) = (xs(b) - xs(a), ys(b) - ys(a));
        let length_sq = along_x * along_x + along_y * along_y;
        let (perp_x, perp_y) = (-along_y, along_x);
        let relative_x = air_x - (xs(va) + xs(vb)) * half;
        let relative_y = air_y - (ys(va) + ys(vb)) * half;
        let q = relative_x * perp_x + relative_y * perp_y;
        let holds =
            f32x4::new(std::array::from_fn(|l| f32::from(u8::from(intact[l])))).simd_ne(zero);
        let acts = holds & blows & length_sq.simd_gt(f32x4::splat(1e-12));
        let drag = f32x4::splat(0.5 * CLOTH_DRAG_N_S2_PER_M3) * q * q.abs() / length_sq;
        let scale = acts.select(drag, zero);
        let (x, y) = ((perp_x * scale).to_array(), (perp_y * scale).to_array());
        for (l, out) in out.iter_mut().enumerate() {
            *out = Vec2::new(x[l], y[l]);
        }
    }
    whole
}

/// Columns `a` < `b` of a column-major grid of `rows` as two mutable position slices and their
/// inverse masses.
fn column_pair<'a>(
    pos: &'a mut [Vec2],
    inv_mass: &'a [f32],
    rows: usize,
    a: usize,
    b: usize,
) -> (&'a mut [Vec2], &'a mut [Vec2], &'a [f32], &'a [f32]) {
    let (front, back) = pos.split_at_mut(b * rows);
    let left = &mut front[a * rows..(a + 1) * rows];
    let right = &mut back[..rows];
    let w_left = &inv_mass[a * rows..(a + 1) * rows];
    (left, right, w_left, &inv_mass[b * rows..(b + 1) * rows])
}

/// Moves the ends of one thread `stiffness` of the way to its rest length, mass-weighted; a
/// `pull_only` thread that is short is left slack, as is a torn one (`intact` false). Written
/// without branches so that loops of it vectorise.
#[allow(clippy::too_many_arguments)]
fn pull(
    a: &mut Vec2,
    b: &mut Vec2,
    wa: f32,
    wb: f32,
    intact: bool,
    rest_m: f32,
    stiffness: f32,
    pull_only: bool,
) {
    let w = wa + wb;
    let delta = *b - *a;
    let length = (delta.x * delta.x + delta.y * delta.y).sqrt();
    let acts = intact && w != 0.0 && length >= 1e-9 && (!pull_only || length > rest_m);
    let share = if acts {
        (length - rest_m) / (length * w) * stiffness
    } else {
        0.0
    };
    let correction = delta * share;
    *a += correction * wa;
    *b -= correction * wb;
}

/// `pull` on the threads from `a[r]` to `b[r]` for every r: threads that share no particle, so
/// the order does not matter. Four threads at a time in vector registers (`wide`'s
/// `f32x4`: the same IEEE operations as `pull`, lane by lane, so the same results bit for bit;
/// the masks are computed whole, where `pull`'s `&&` would branch per lane); `pull` does the
/// last `n % 4`.
// One copy for its four callers: the browser's download is counted in bytes.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn pull_rows(
    a: &mut [Vec2],
    b: &mut [Vec2],
    wa: &[f32],
    wb: &[f32],
    intact: &[bool],
    rest_m: f32,
    stiffness: f32,
    pull_only: bool,
) {
    let n = a
        .len()
        .min(b.len())
        .min(wa.len())
        .min(wb.len())
        .min(intact.len());
    // Four threads at a time up to the last whole four.
    let whole = {
        use wide::f32x4;
        const LANES: usize = 4;
        let whole = n - n % LANES;
        let (rest, stiffness, zero) = (f32x4::splat(rest_m), f32x4::splat(stiffness), f32x4::ZERO);
        let xs = |p: &[Vec2]| f32x4::new([p[0].x, p[1].x, p[2].x, p[3].x]);
        let ys = |p: &[Vec2]| f32x4::new([p[0].y, p[1].y, p[2].y, p[3].y]);
        let lanes = a[..whole]
            .chunks_exact_mut(LANES)
            .zip(b[..whole].chunks_exact_mut(LANES))
            .zip(wa[..whole].chunks_exact(LANES))
            .zip(wb[..whole].chunks_exact(LANES))
            .zip(intact[..whole].chunks_exact(LANES));
        for ((((a, b), wa), wb), intact) in lanes {
            let (wa, wb) = (
                f32x4::new([wa[0], wa[1], wa[2], wa[3]]),
                f32x4::new([wb[0], wb[1], wb[2], wb[3]]),
            );
            let holds =
                f32x4::new(std::array::from_fn(|l| f32::from(u8::from(intact[l])))).simd_ne(zero);
            let (dx, dy) = (xs(b) - xs(a), ys(b) - ys(a));
            let w = wa + wb;
            let length = (dx * dx + dy * dy).sqrt();
            let mut acts = holds & w.simd_ne(zero) & length.simd_ge(f32x4::splat(1e-9));
            if pull_only {
                acts &= length.simd_gt(rest);
            }
            let share = acts.select((length - rest) / (length * w) * stiffness, zero);
            let (cx, cy) = (dx * share, dy * share);
            let (ax, ay) = ((xs(a) + cx * wa).to_array(), (ys(a) + cy * wa).to_array());
            let (bx, by) = ((xs(b) - cx * wb).to_array(), (ys(b) - cy * wb).to_array());
            for l in 0..LANES {
                a[l] = Vec2::new(ax[l], ay[l]);
                b[l] = Vec2::new(bx[l], by[l]);
            }
        }
        whole
    };
    for r in whole..n {
        pull(
            &mut a[r], &mut b[r], wa[r], wb[r], intact[r], rest_m, stiffness, pull_only,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lanes::tests::numbers;

    /// Four threads at a time come out as `pull` leaves each alone, bit for bit: taut, slack,
    /// torn, pinned at one end or both, pull-only or not.
    #[test]
    fn threads_by_four_match_pull_one_at_a_time() {
        let mut random = numbers(0x2545_f491);
        let n = 23;
        let mut moved = 0;
        for trial in 0..400 {
            let pull_only = trial % 2 == 0;
            let a: Vec<Vec2> = (0..n).map(|_| Vec2::new(random(), random())).collect();
            let b: Vec<Vec2> = (0..n).map(|_| Vec2::new(random(), random())).collect();
            let weight = |r: f32| if r < 0.2 { 0.0 } else { r };
            let wa: Vec<f32> = (0..n).map(|_| weight(random())).collect();
            let wb: Vec<f32> = (0..n).map(|_| weight(random())).collect();
            let intact: Vec<bool> = (0..n).map(|_| random() < 0.8).collect();
            let (rest_m, stiffness) = (0.3 + random() * 0.4, [1.0, 0.1, 0.05][trial % 3]);
            let (mut a1, mut b1) = (a.clone(), b.clone());
            for r in 0..n {
                let (wa, wb, ok) = (wa[r], wb[r], intact[r]);
                pull(
                    &mut a1[r], &mut b1[r], wa, wb, ok, rest_m, stiffness, pull_only,
                );
            }
            let (mut a4, mut b4) = (a.clone(), b.clone());
            pull_rows(
                &mut a4, &mut b4, &wa, &wb, &intact, rest_m, stiffness, pull_only,
            );
            let bits = |p: &[Vec2]| {
                p.iter()
                    .map(|v| (v.x.to_bits(), v.y.to_bits()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(bits(&a1), bits(&a4));
            assert_eq!(bits(&b1), bits(&b4));
            moved += a1.iter().zip(&a).filter(|(x, y)| x != y).count();
        }
        assert!(moved > 1000, "the threads moved their ends: {moved}");
    }

    /// In uniform air, four threads' drags at a time come out as one at a time, bit for bit.
    #[test]
    fn drags_by_four_match_one_at_a_time() {
        let mut unit = numbers(0x6a09_e667);
        let mut random = move || unit() - 0.5;
        let n = 23;
        let mut pushed = 0;
        for trial in 0..400 {
            let mut points = || -> Vec<Vec2> {
                (0..n)
                    .map(|_| Vec2::new(random(), random()) * 4.0)
                    .collect()
            };
            let (a, b, va, vb) = (points(), points(), points(), points());
            let intact: Vec<bool> = (0..n).map(|_| random() < 0.3).collect();
            let air = if trial % 10 == 0 {
                Vec2::ZERO
            } else {
                Vec2::new(random(), random()) * 30.0
            };
            let mut one_at_a_time = vec![Vec2::ZERO; n];
            let still = |_: Vec2| air;
            half_drags(
                (&a, &b),
                (&va, &vb),
                &intact,
                Air::Varying(&still),
                &mut one_at_a_time,
            );
            let mut by_four = vec![Vec2::ZERO; n];
            half_drags(
                (&a, &b),
                (&va, &vb),
                &intact,
                Air::Uniform(air),
                &mut by_four,
            );
            let bits = |p: &[Vec2]| {
                p.iter()
                    .map(|v| (v.x.to_bits(), v.y.to_bits()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(bits(&one_at_a_time), bits(&by_four));
            pushed += by_four.iter().filter(|f| **f != Vec2::ZERO).count();
        }
        assert!(pushed > 1000, "the air pushed threads: {pushed}");
    }
}
