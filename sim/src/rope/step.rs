//! A rope's step: how many substeps it takes (`substeps_needed`), and each substep's stages
//! in order (integrate, the chain solve's Newton iterations, collisions and the contact solve,
//! bending, reeling), for one rope (`Rope::advance`) or many side by side
//! (`Rope::step_free_all`, whose chain solves run four at a time in `solver::lanes`).

use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};

use super::{
    Rope, BROADPHASE_SLOP_M, CHUNK_SEGMENTS, CONTACT_INV_MASS_SCALE, CONTACT_MEMORY_SUBSTEPS,
    MAX_SEGMENT_TURN_PER_SUBSTEP, MIN_SUBSTEPS_IN_CONTACT, SLEEP_MOTION_M, SWEEP_THRESHOLD_RADII,
};
use crate::geometry::{groups, Geometry};
use crate::math::{sort_short_by_key, Vec2};
use crate::solver::{lanes, solve_chain, Rests};

/// A stretch of the player's segment at a step's start beyond which the step takes it in over
/// its substeps (the segment's rest starts as long as it lies; `Rope::push_back_rest_from_m`)
/// rather than in the first substep's chain solve. The level puts the player back out of a
/// solid after the rope step, and `Rope::set_player` moves only the end node, so the next step
/// starts with that segment longer than its rest: solved in one substep of 1/960 s, 4.9 cm
/// threw the player's end at 38 m/s (08 Quarry Floor) and 0.69 m the nodes at 543 m/s (10 Rope
/// Lift). Under it the stretch is the rope's own (a taut swing leaves a few mm). At 2 cm four
/// solutions missed their goals; at 4 cm, with `collide`'s lever cap on the player's segment
/// (`MAX_PLAYER_SEGMENT_CONTACT_LEVER`), only 23 Rotten Tower, whose solution leaned on the
/// kick and was re-recorded (docs/rope.md, stop 49).
const PUSH_BACK_STRETCH_TAKEN_OVER_STEP_M: f32 = 0.04;

/// How the far end moves during a step.
#[derive(Clone, Copy)]
pub(super) enum EndMotion {
    /// A heavy free node under gravity that collides like the rest of the rope.
    Free,
    /// A free end as `Free`, on a piece of a broken rope (`Rope::step_loose`), which keeps the
    /// guards that level ropes go without: the broad phase widened when a node leaves it, as
    /// the player's rope has (`Rope::widen_broad_phase_if_left`), and folds held at the limit
    /// at resting joints too (`bend.rs`, `folds_limited_at_rest`). No level's motion was tuned
    /// with a broken piece, and one held in the player's hand is jerked about by every move.
    Loose,
    /// The player: moves with the given velocity (which already holds gravity and input), and
    /// is not pushed by rope collision because the player has its own.
    Player(Vec2),
}

/// A step's substeps, as `Rope::begin_step` settles them.
#[derive(Clone, Copy)]
pub(super) struct StepPlan {
    substeps: u32,
    /// Substep length, seconds.
    h: f32,
    /// Share of a node's velocity kept per substep (damping).
    keep: f32,
    gravity: Vec2,
    /// The anchor moves from here to `anchor_to` across the substeps.
    anchor_from: Vec2,
    anchor_to: Vec2,
    /// The last segment's rest length moves from here to `last_rest_to_m` (reeling).
    last_rest_from_m: f32,
    last_rest_to_m: f32,
    end: EndMotion,
    /// The player's velocity through the step (the end of a `Player` rope).
    end_vel: Vec2,
}

/// Adds a chain solve's multipliers (λ < 0 pulls) to the segments' summed pulls.
fn add_pulls(tension_n: &mut [f32], multipliers: impl Iterator<Item = f32>) {
    for (tension, lambda) in tension_n.iter_mut().zip(multipliers) {
        *tension -= lambda;
    }
}

/// A rope partway through its step (`Rope::advance`, `Rope::step_free_all`): in `substep`
/// (from 1), whose rest lengths are `rest`, waiting for the chain solve `next`; done past the
/// last substep.
struct Underway<'r> {
    rope: &'r mut Rope,
    plan: StepPlan,
    substep: u32,
    rest: Rests,
    next: NextSolve,
}

/// The chain solve a rope waits for in `Rope::step_free_all`.
#[derive(Clone, Copy, PartialEq)]
enum NextSolve {
    /// Newton iteration `n` (from 0) of the substep's solve, with the rope's masses.
    Chain(u32),
    /// The solve after collisions, the nodes in contact heavy (`Rope::set_contact_weights`).
    Contacts,
}

impl<'r> Underway<'r> {
    /// Begins the rope's step (`Rope::begin_step`) and its first substep; `None` when it sleeps
    /// through the step.
    fn begin(
        rope: &'r mut Rope,
        geometry: &Geometry,
        gravity: Vec2,
        dt_s: f32,
        anchor_to: Vec2,
        end: EndMotion,
    ) -> Option<Underway<'r>> {
        let plan = rope.begin_step(geometry, gravity, dt_s, anchor_to, end)?;
        let rest = rope.substep_until_chain(&plan, 1);
        Some(Underway {
            rope,
            plan,
            substep: 1,
            rest,
            next: NextSolve::Chain(0),
        })
    }

    /// The chain solve it waits for, on its own.
    fn solve_alone(&mut self) {
        let contacts = self.next == NextSolve::Contacts;
        let rope = &mut *self.rope;
        rope.solve_chain(self.rest, contacts);
        if !contacts {
            add_pulls(&mut rope.tension_n, rope.scratch.chain.rhs.iter().copied());
        }
    }

    /// After its chain solve, the rope goes on to its next one (as `Rope::advance` runs a
    /// rope alone): the next Newton iteration, or the collisions and the contact solve, or the next
    /// substep's start, or (after the last substep) the step's end.
    fn after_solve(&mut self, geometry: &Geometry) {
        let rope = &mut *self.rope;
        if let NextSolve::Chain(iteration) = self.next {
            if iteration + 1 < rope.chain_iterations() {
                self.next = NextSolve::Chain(iteration + 1);
                return;
            }
            if rope.collide_substep(geometry, &self.plan, self.substep) {
                rope.set_contact_weights();
                self.next = NextSolve::Contacts;
                return;
            }
        }
        rope.end_substep(&mut self.plan);
        self.substep += 1;
        self.next = NextSolve::Chain(0);
        if self.substep <= self.plan.substeps {
            self.rest = rope.substep_until_chain(&self.plan, self.substep);
        } else {
            rope.push_axes_out_of_solids(geometry, self.plan.end);
            rope.finish_step(&self.plan);
        }
    }
}

impl Rope {
    /// One step of `dt_s`; returns the substep length.
    pub(super) fn advance(
        &mut self,
        geometry: &Geometry,
        gravity: Vec2,
        dt_s: f32,
        anchor_to: Vec2,
        end: EndMotion,
    ) -> f32 {
        let fallback_h = dt_s / self.last_substeps as f32;
        let Some(mut alone) = Underway::begin(self, geometry, gravity, dt_s, anchor_to, end) else {
            return fallback_h;
        };
        let h = alone.plan.h;
        while alone.substep <= alone.plan.substeps {
            alone.solve_alone();
            alone.after_solve(geometry);
        }
        h
    }

    /// Steps every rope as `step_free` would, one after another, to the same bits, but solves
    /// the chains of ropes with the same node count up to four at a time in vector lanes
    /// (`lanes::solve_chains`): a row of vines is mostly chain solves. The ropes go through
    /// their substeps side by side, each at its own pace (each takes the substeps it needs);
    /// every round, each rope still stepping gets one chain solve.
    #[inline(never)]
    pub fn step_free_all(ropes: &mut [&mut Rope], geometry: &Geometry, gravity: Vec2, dt_s: f32) {
        // The lanes' working memory, for this step (a few allocations a tick; kept in each rope,
        // its copy and drop code cost the browser's download 2.4 KB).
        let mut lane_scratch = lanes::LaneScratch::default();
        let mut underway: Vec<Underway<'_>> = Vec::with_capacity(ropes.len());
        for rope in ropes.iter_mut() {
            let rope = &mut **rope;
            let anchor = rope.anchor();
            underway.extend(Underway::begin(
                rope,
                geometry,
                gravity,
                dt_s,
                anchor,
                EndMotion::Free,
            ));
        }
        // Ropes of one node count next to each other, in list order within (their counts are
        // settled for the step).
        sort_short_by_key(&mut underway, |u| u.rope.nodes.len());
        while !underway.is_empty() {
            let mut alike = underway.as_mut_slice();
            while let Some(first) = alike.first() {
                let nodes = first.rope.nodes.len();
                let count = alike
                    .iter()
                    .take_while(|u| u.rope.nodes.len() == nodes)
                    .count();
                let (these, others) = alike.split_at_mut(count);
                for some in these.chunks_mut(lanes::LANES) {
                    if let [one] = some {
                        one.solve_alone();
                    } else {
                        let mut chains = some.iter_mut().map(|u| {
                            let (rest, contacts) = (u.rest, u.next == NextSolve::Contacts);
                            let rope = &mut *u.rope;
                            lanes::Chain {
                                x: &mut rope.nodes[..],
                                w: if contacts {
                                    &rope.scratch.contact_weights[..]
                                } else {
                                    &rope.inv_mass[..]
                                },
                                rest,
                            }
                        });
                        let first = chains.next().expect("a chunk is never empty");
                        lanes::solve_up_to_four(first, chains, &mut lane_scratch);
                        for (lane, u) in some.iter_mut().enumerate() {
                            if u.next != NextSolve::Contacts {
                                add_pulls(&mut u.rope.tension_n, lane_scratch.multipliers(lane));
                            }
                        }
                    }
                    for u in some.iter_mut() {
                        u.after_solve(geometry);
                    }
                }
                alike = others;
            }
            underway.retain(|u| u.substep <= u.plan.substeps);
        }
    }

    /// Newton iterations of the chain solve per substep.
    pub(super) fn chain_iterations(&self) -> u32 {
        self.params.chain_iterations.max(1)
    }

    /// The start of a step: pays rope in or out, gathers the solids it may touch and settles
    /// its substeps (`StepPlan`); `None` when the rope sleeps through it.
    #[inline(never)]
    pub(super) fn begin_step(
        &mut self,
        geometry: &Geometry,
        gravity: Vec2,
        dt_s: f32,
        anchor_to: Vec2,
        end: EndMotion,
    ) -> Option<StepPlan> {
        self.step_dt_s = dt_s;
        if self.stays_asleep(geometry, anchor_to, end) {
            return None;
        }
        let last_rest_from_m = self.pay_in_or_out();
        let last_rest_from_m = match end {
            EndMotion::Player(_) => self.push_back_rest_from_m(last_rest_from_m),
            EndMotion::Free | EndMotion::Loose => last_rest_from_m,
        };
        let anchor_from = self.nodes[0];
        let anchor_delta = anchor_to - anchor_from;
        let travel_m = self.predicted_travel_m(gravity, dt_s, anchor_delta, end);
        self.broad_phase(geometry, travel_m);
        let substeps = self.substeps_needed(gravity, dt_s, anchor_delta, end, travel_m);
        if substeps != self.last_substeps {
            // `nodes − prev` is a displacement per substep: rescale it to the new substep so the
            // velocity it stands for is kept.
            let scale = self.last_substeps as f32 / substeps as f32;
            for (x, p) in self.nodes.iter().zip(self.prev.iter_mut()) {
                *p = *x - (*x - *p) * scale;
            }
            self.last_substeps = substeps;
        }
        let h = dt_s / substeps as f32;
        let end_vel = match end {
            EndMotion::Player(v) => v,
            EndMotion::Free | EndMotion::Loose => Vec2::ZERO,
        };
        self.tension_n.clear();
        self.tension_n.resize(self.segment_count(), 0.0);
        Some(StepPlan {
            substeps,
            h,
            keep: libm::powf(self.params.damping_per_s.clamp(0.0, 1.0), h),
            gravity,
            anchor_from,
            anchor_to,
            last_rest_from_m,
            last_rest_to_m: self.last_segment_rest_m(),
            end,
            end_vel,
        })
    }

    /// The player's segment's rest at the step's start: as long as the segment lies when the
    /// level's push-back stretched it more than `PUSH_BACK_STRETCH_TAKEN_OVER_STEP_M` past
    /// `rest_from_m`, so the substeps' ramp to the reel's rest takes the stretch in over the
    /// step instead of the first chain solve turning it into velocity at once.
    fn push_back_rest_from_m(&self, rest_from_m: f32) -> f32 {
        let last = self.segment_count();
        let lying_m = self.nodes[last - 1].distance(self.nodes[last]);
        if lying_m - rest_from_m > PUSH_BACK_STRETCH_TAKEN_OVER_STEP_M {
            lying_m
        } else {
            rest_from_m
        }
    }

    /// Substep `k` (from 1) up to its chain solve: moves the nodes and bends the joints;
    /// returns the segments' rest lengths for the solve.
    #[inline(never)]
    pub(super) fn substep_until_chain(&mut self, plan: &StepPlan, k: u32) -> Rests {
        let progress = k as f32 / plan.substeps as f32;
        let anchor = plan.anchor_from.lerp(plan.anchor_to, progress);
        self.integrate(
            plan.gravity,
            plan.keep,
            plan.h,
            anchor,
            plan.end,
            plan.end_vel,
        );
        // A node just paid out may start with a negative share of the reel: a segment's
        // rest is never below zero.
        let rest = Rests {
            nominal_m: self.nominal_segment_m,
            last_m: (plan.last_rest_from_m
                + (plan.last_rest_to_m - plan.last_rest_from_m) * progress)
                .max(0.0),
        };
        self.bend(rest, plan.end);
        rest
    }

    /// The collisions of substep `k`. Returns whether any node touches the level: then the
    /// chain is solved once more with those nodes heavy (`set_contact_weights`).
    #[inline(never)]
    pub(super) fn collide_substep(&mut self, geometry: &Geometry, plan: &StepPlan, k: u32) -> bool {
        let progress = k as f32 / plan.substeps as f32;
        // The player's rope sees moving solids where they are at the end of the tick, as
        // its feel was tuned with; level ropes see them move across the substeps.
        let solids_progress = match plan.end {
            EndMotion::Player(_) => 1.0,
            EndMotion::Free | EndMotion::Loose => progress,
        };
        self.collide(geometry, plan.end, solids_progress);
        let player = matches!(plan.end, EndMotion::Player(_));
        let nodes = self.contact_memory.iter_mut().zip(&self.touching);
        for ((memory, &touching), freed) in nodes.zip(&mut self.freed_from_rest) {
            let rested = *memory > 0;
            *memory = if touching {
                CONTACT_MEMORY_SUBSTEPS
            } else {
                memory.saturating_sub(1)
            };
            *freed = player && rested && *memory == 0;
        }
        self.touching.iter().any(|&t| t)
    }

    /// A substep's last acts: stale folds' openings taken out of the velocity, and the player's
    /// velocity as the rope left it.
    pub(super) fn end_substep(&mut self, plan: &mut StepPlan) {
        if !self.scratch.stale_fold_moves.is_empty() {
            self.take_stale_fold_openings_out_of_velocity();
        }
        if let EndMotion::Player(_) = plan.end {
            let last = self.segment_count();
            plan.end_vel = (self.nodes[last] - self.prev[last]) / plan.h;
        }
    }

    /// The end of a step: the tensions in newtons.
    #[inline(never)]
    pub(super) fn finish_step(&mut self, plan: &StepPlan) {
        let (h, substeps) = (plan.h, plan.substeps);
        // Σλ is a mass-weighted displacement (in node masses × metres) per substep: the force
        // that makes it is λ m / h², averaged over the substeps.
        let to_newtons = self.params.node_mass_kg / (h * h * substeps as f32);
        for tension in &mut self.tension_n {
            *tension = (*tension * to_newtons).max(0.0);
        }
        self.length_at_step_start_m = self.length_m;
        self.count_still_step(substeps);
    }

    /// Whether this step may be skipped: the rope is asleep, and nothing that would move it
    /// happened (its anchor and length are as they were, its end is not the player, and no
    /// moving solid is near it). Anything else wakes it.
    pub(super) fn stays_asleep(
        &mut self,
        geometry: &Geometry,
        anchor_to: Vec2,
        end: EndMotion,
    ) -> bool {
        if !self.is_asleep() {
            return false;
        }
        let undisturbed = matches!(end, EndMotion::Free | EndMotion::Loose)
            && anchor_to == self.nodes[0]
            && self.length_m == self.length_at_step_start_m;
        let mut aabb = Aabb::new_invalid();
        for &p in &self.nodes {
            aabb.take_point(p);
        }
        let aabb = aabb.loosened(self.params.radius_m + BROADPHASE_SLOP_M);
        if undisturbed && !geometry.any_moving_near(aabb, groups::SOLID) {
            return true;
        }
        self.still_steps = 0;
        false
    }

    /// Counts the steps in a row the rope barely moved; on falling asleep its last trace of
    /// motion is dropped, so it wakes from rest.
    pub(super) fn count_still_step(&mut self, substeps: u32) {
        if !self.sleeps_when_still {
            return;
        }
        let mut fastest_sq = 0.0f32;
        for (x, p) in self.nodes.iter().zip(&self.prev) {
            fastest_sq = fastest_sq.max((*x - *p).length_squared());
        }
        let moved_m = fastest_sq.sqrt() * substeps as f32;
        if moved_m >= SLEEP_MOTION_M {
            self.still_steps = 0;
            return;
        }
        self.still_steps = self.still_steps.saturating_add(1);
        if self.is_asleep() {
            self.prev.copy_from_slice(&self.nodes);
        }
    }

    /// A bound on how far any node may travel this step: the fastest node's last step carried
    /// on, plus gravity, plus a yank by the driven anchor or the player.
    pub(super) fn predicted_travel_m(
        &self,
        gravity: Vec2,
        dt_s: f32,
        anchor_delta: Vec2,
        end: EndMotion,
    ) -> f32 {
        let mut max_disp_sq = 0.0f32;
        for (x, p) in self.nodes.iter().zip(&self.prev) {
            max_disp_sq = max_disp_sq.max((*x - *p).length_squared());
        }
        let yank_m = match end {
            EndMotion::Player(v) => v.length() * dt_s,
            EndMotion::Free | EndMotion::Loose => 0.0,
        };
        max_disp_sq.sqrt() * self.last_substeps as f32
            + gravity.length() * dt_s * dt_s
            + anchor_delta.length()
            + yank_m
    }

    /// How many substeps this step takes, between the rope's fewest and most: as many as keep
    /// two things small per substep.
    /// - Collision: the motion of the nodes that may reach a solid this step (the broad phase's
    ///   pairs, each node tested against its chunk's solids' boxes grown by `travel_m`), under
    ///   `SWEEP_THRESHOLD_RADII` of the radius, so the swept test rarely fires and contacts stay
    ///   shallow. A node in the open needs none of this: before, the fastest node anywhere set
    ///   the count, and a vine's free end whipping in the wind took the whole vine to 3–8.
    /// - The chain solve's linearisation: how far each segment's two ends move relative to each
    ///   other (turning or stretching it), under `MAX_SEGMENT_TURN_PER_SUBSTEP` of its rest. A
    ///   rope swinging or blown as a whole moves its nodes far but its segments turn little.
    ///
    /// A rope that touched the level in the last substeps takes at least
    /// `MIN_SUBSTEPS_IN_CONTACT` (a single substep against contacts falls into a limit cycle).
    pub(super) fn substeps_needed(
        &self,
        gravity: Vec2,
        dt_s: f32,
        anchor_delta: Vec2,
        end: EndMotion,
        travel_m: f32,
    ) -> u32 {
        let most = self.params.substeps.max(1);
        let in_contact = self.contact_memory.iter().any(|&m| m > 0);
        let fewest = if in_contact {
            self.params.min_substeps.max(MIN_SUBSTEPS_IN_CONTACT)
        } else {
            self.params.min_substeps
        }
        .clamp(1, most);
        if fewest == most {
            return most;
        }
        if !self.substeps_by_need {
            // The fastest node anywhere sets the count.
            let wanted = libm::ceilf(travel_m / (self.params.radius_m * SWEEP_THRESHOLD_RADII));
            return (wanted.min(most as f32) as u32)
                .clamp(self.params.min_substeps.clamp(1, most), most);
        }
        let per_step = self.last_substeps as f32;
        let last = self.segment_count();
        // Motion carried from the last step, and what gravity, the anchor and the player add to
        // any node this step.
        let yank_m = match end {
            EndMotion::Player(v) => v.length() * dt_s,
            EndMotion::Free | EndMotion::Loose => 0.0,
        };
        let added_m = gravity.length() * dt_s * dt_s + anchor_delta.length() + yank_m;
        let reach_m = travel_m + self.params.radius_m + BROADPHASE_SLOP_M;
        let mut near_disp_sq = 0.0f32;
        let mut any_near = false;
        for &(chunk, _, solid_aabb) in &self.scratch.pairs {
            let reach = solid_aabb.loosened(reach_m);
            let first = chunk * CHUNK_SEGMENTS;
            for i in first..=(first + CHUNK_SEGMENTS).min(last) {
                if reach.contains_local_point(self.nodes[i]) {
                    any_near = true;
                    near_disp_sq =
                        near_disp_sq.max((self.nodes[i] - self.prev[i]).length_squared());
                }
            }
        }
        let mut turn_sq = 0.0f32;
        for i in 0..last {
            let relative = (self.nodes[i + 1] - self.prev[i + 1]) - (self.nodes[i] - self.prev[i]);
            turn_sq = turn_sq.max(relative.length_squared());
        }
        let turn_m = turn_sq.sqrt() * per_step + added_m;
        let mut wanted =
            libm::ceilf(turn_m / (self.nominal_segment_m * MAX_SEGMENT_TURN_PER_SUBSTEP));
        if any_near {
            let collision_m = near_disp_sq.sqrt() * per_step + added_m;
            wanted = wanted.max(libm::ceilf(
                collision_m / (self.params.radius_m * SWEEP_THRESHOLD_RADII),
            ));
        }
        (wanted.min(most as f32) as u32).clamp(fewest, most)
    }

    pub(super) fn integrate(
        &mut self,
        gravity: Vec2,
        keep: f32,
        h: f32,
        anchor: Vec2,
        end: EndMotion,
        end_vel: Vec2,
    ) {
        let last = self.segment_count();
        self.prev[0] = self.nodes[0];
        self.nodes[0] = anchor;
        let gravity_step = gravity * (h * h);
        let free_until = match end {
            EndMotion::Free | EndMotion::Loose => last + 1,
            EndMotion::Player(_) => last,
        };
        let moving = self.nodes[1..free_until].iter_mut();
        for (x, p) in moving.zip(&mut self.prev[1..free_until]) {
            let v = (*x - *p) * keep;
            *p = *x;
            *x += v + gravity_step;
        }
        if let EndMotion::Player(_) = end {
            self.prev[last] = self.nodes[last];
            self.nodes[last] += end_vel * h;
        }
    }

    /// Projects every segment onto its rest length at once: one Newton step on the chain's
    /// constraints `C_i = |x_{i+1} − x_i| − rest`, whose system `J M⁻¹ Jᵀ λ = −C` is tridiagonal
    /// (segment i only shares a node with i−1 and i+1) and so solved exactly by the Thomas
    /// algorithm in O(N). Diagonal `w_i + w_{i+1}`, off-diagonal `−w_{i+1} d_i·d_{i+1}`; the
    /// matrix is diagonally dominant, so the sweep needs no pivoting.
    pub(super) fn solve_chain(&mut self, rest: Rests, contacts_heavy: bool) {
        let scratch = &mut *self.scratch;
        let weights = if contacts_heavy {
            &scratch.contact_weights
        } else {
            &self.inv_mass
        };
        solve_chain(&mut self.nodes, weights, &mut scratch.chain, rest);
    }

    /// The inverse masses of the contact solve (`solve_chain(rest, true)`): the nodes in
    /// contact made heavy.
    pub(super) fn set_contact_weights(&mut self) {
        let weights = &mut self.scratch.contact_weights;
        weights.clear();
        weights.extend(self.inv_mass.iter().zip(&self.touching).map(|(&w, &t)| {
            if t {
                w * CONTACT_INV_MASS_SCALE
            } else {
                w
            }
        }));
    }
}
