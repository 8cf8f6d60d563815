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
//!
//! Each stage of a substep is a file: `air` (wind drag), `threads` (the solves), `contact`
//! (pushers and the level), `tear`.

use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};

use super::geometry::{groups, ColliderRef, Geometry};
use super::math::{Pose, Vec2};
use super::solver::lanes;
use super::solver::ChainScratch;
use super::state_hash::StateHasher;

mod air;
mod contact;
mod tear;
mod threads;

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
        let (substeps, near_box) = self.plan_substeps(geometry, gravity, dt_s);
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

    /// How many substeps this tick takes: enough that no particle that may reach a solid moves
    /// more than its radius in one (velocities rescaled when the count changes). Gathers the
    /// solids near the cloth, and returns the box they were looked for in.
    fn plan_substeps(&mut self, geometry: &Geometry, gravity: Vec2, dt_s: f32) -> (u32, Aabb) {
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
        (substeps, near_box)
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

#[cfg(test)]
mod tests {
    use super::air::half_drags;
    use super::threads::{pull, pull_rows};
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
