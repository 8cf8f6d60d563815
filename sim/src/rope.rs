//! The grappling rope: a chain of point masses from an anchor to its far end (in the game, the
//! player, who is the chain's heavy last node).
//!
//! Method (docs/rope.md has the measurements behind each choice):
//! - a few substeps per tick (Macklin et al. 2019), each predicting positions from velocity;
//! - the distance constraints solved *directly*, not iterated: the chain's constraint system is
//!   tridiagonal, so one Thomas-algorithm sweep (Deul et al. 2018) projects every segment to its
//!   rest length at once, in O(N), whatever the node count and the end's mass ratio. A 50× heavy
//!   player end therefore stretches nothing, where Gauss-Seidel would need hundreds of passes;
//! - collision per segment (a capsule of the rope's radius against each nearby shape, through
//!   parry's contact query), so a corner cannot slip between two nodes and the rope wraps around
//!   it; with position-based Coulomb friction so a draped rope comes to rest instead of creeping;
//! - a swept (ray) test only for nodes that moved further than their radius in a substep;
//! - one broad phase per step through Rapier's BVH, per chunk of segments; the narrow phase per
//!   substep only looks at the (chunk, collider) pairs it found. Cost stays linear in N.
//!
//! The stages live one to a file: `step` plans a step's substeps and runs them in order
//! (integrate, chain solve, collide, contact solve, bend, reel), `collide` the contacts,
//! `bend` the joints, `reel` paying rope in and out, `pieces` cutting and joining ropes. The
//! chain solve itself is `solver::solve_chain`, shared with the cloth. This file holds the
//! rope's state, its tuning constants and the calls the rest of the game makes.

use rapier2d::parry::bounding_volume::Aabb;

use super::geometry::{Body, ColliderRef, Geometry};
use super::math::{segment_drag_n, Vec2};
use super::solver::ChainScratch;
use super::state_hash::StateHasher;
use super::tuning::RopeTuning;

mod bend;
mod collide;
mod pieces;
mod reel;
mod relax;
mod step;

use collide::box_contact;
use relax::EndEntry;
pub use relax::{NodeEnergy, StepCredits};
use step::EndMotion;

/// Segments per broad-phase chunk: large enough that the BVH is queried rarely, small enough that
/// a chunk's box stays tight around a rope that curls.
const CHUNK_SEGMENTS: usize = 8;
/// Extra margin on each chunk's broad-phase box, on top of the motion bound, so that a node
/// yanked a little further than predicted still sees the shapes around it.
const BROADPHASE_SLOP_M: f32 = 0.05;
/// Newton iterations of the direct chain solve per substep. The first removes nearly all the
/// error; the second fixes what the linearisation missed (rotation of the segments).
pub const DEFAULT_CHAIN_ITERATIONS: u32 = 2;
/// Coulomb friction coefficient between rope and level (both static and dynamic).
pub const DEFAULT_FRICTION: f32 = 0.6;
/// A node moving more than this fraction of the rope's radius in one substep gets a swept test.
const SWEEP_THRESHOLD_RADII: f32 = 0.5;
/// Most a segment's ends may move relative to each other in one substep, as a fraction of its
/// rest length: beyond it the chain solve's linearisation (two Newton iterations) starts to
/// leave stretch, so the step takes more substeps (`Rope::substeps_needed`).
const MAX_SEGMENT_TURN_PER_SUBSTEP: f32 = 0.05;
/// Fewest substeps of a rope that touched the level in the last substeps, whatever its
/// `min_substeps`: one substep of 1/120 s against resting contacts falls into a limit cycle.
const MIN_SUBSTEPS_IN_CONTACT: u32 = 2;
/// A rope that may sleep (`Rope::set_sleeps_when_still`) and whose every node moved less than
/// this over each of `SLEEP_AFTER_STILL_STEPS` steps in a row (about 1 mm/s at 120 Hz) stops
/// being stepped until something may move it.
const SLEEP_MOTION_M: f32 = 1e-5;
const SLEEP_AFTER_STILL_STEPS: u16 = 60;
/// Inverse-mass factor of a node in contact during the length fix-up after collision: it keeps
/// the nodes on the surface while the free ones give the length back.
const CONTACT_INV_MASS_SCALE: f32 = 0.01;
/// The sharpest bend a free joint keeps (0° = straight): a sharper one is opened at once (on
/// the player's rope by at most `MAX_FOLD_OPENING_PER_SUBSTEP_DEG` a substep).
const MAX_JOINT_BEND_DEG: f32 = 75.0;
/// Relative margin of the fold limit's cheap test (`bend`): a joint whose squared cosine is
/// within it of the limit's goes through the exact angle, so rounding never decides.
const FOLD_REJECT_MARGIN: f32 = 1e-3;
/// A segment shorter than its rest by this fraction is slack, and bending spreads its slack.
const SLACK_FRACTION: f32 = 0.02;
/// Fraction of a free joint's curvature (its node's offset from its neighbours' midpoint)
/// removed per substep.
const BEND_STIFFNESS: f32 = 0.1;
/// Substeps a node counts as resting on the level after its last contact (see
/// `Rope::contact_memory`): two game ticks.
const CONTACT_MEMORY_SUBSTEPS: u8 = 16;
/// The reel's rated pull per kilogram of the player, m/s²: the most work per metre reeled in
/// (or per metre the anchor moves away) the rope may do on the player, and the tension at which
/// the reel stalls, as a winch does. It bounds a swing's real tension (weight plus centripetal
/// pull, m (g + v²/R)): 20 m/s on a 2 m rope with g = 40 m/s² needs 240 m/s². The reel's
/// rated speed is the tuning's `reel_speed_m_per_s`.
pub const REEL_RATED_ACCEL_M_PER_S2: f32 = 400.0;

/// How a rope is built: everything that is not a feel constant of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeParams {
    /// Number of segments (nodes − 1).
    pub segments: usize,
    /// Collision radius of the rope.
    pub radius_m: f32,
    /// Most substeps per `step` call.
    pub substeps: u32,
    /// Fewest substeps per `step` call. Between the two, each step takes as many as keep the
    /// fastest node's motion per substep under half the radius (so the swept test rarely
    /// fires and contacts stay shallow); a resting rope takes the minimum.
    pub min_substeps: u32,
    /// Mass of the far end relative to one rope node (the player in the game).
    pub end_mass_ratio: f32,
    /// Fraction of node velocity kept per second (air drag).
    pub damping_per_s: f32,
    /// Coulomb friction coefficient against the level.
    pub friction: f32,
    /// Newton iterations of the direct chain solve per substep.
    pub chain_iterations: u32,
    /// Mass of one rope node: only turns the solve's multipliers into tensions in newtons.
    pub node_mass_kg: f32,
}

impl RopeParams {
    /// The game's rope: node count from the longest the rope may get, so reeling keeps it constant.
    pub fn from_tuning(tuning: &RopeTuning, max_length_m: f32) -> RopeParams {
        RopeParams {
            segments: ((max_length_m / tuning.segment_length_m).ceil() as usize).clamp(4, 512),
            radius_m: tuning.radius_m,
            substeps: tuning.substeps.max(1),
            // The game keeps a fixed substep count: its feel was tuned with it, and 40 nodes
            // cost little.
            min_substeps: tuning.substeps.max(1),
            end_mass_ratio: tuning.player_mass_ratio,
            damping_per_s: tuning.node_damping_per_s,
            friction: DEFAULT_FRICTION,
            chain_iterations: DEFAULT_CHAIN_ITERATIONS,
            node_mass_kg: tuning.player_mass_kg / tuning.player_mass_ratio.max(1e-3),
        }
    }
}

#[derive(Clone)]
pub struct Rope {
    /// Node positions; `[0]` is the anchor, the last is the far end (the player's centre).
    pub nodes: Vec<Vec2>,
    /// Positions at the start of the last substep (velocity = (nodes − prev) / h).
    prev: Vec<Vec2>,
    /// Inverse mass per node: 0 for the anchor, 1 for rope nodes, 1/ratio for the end.
    inv_mass: Vec<f32>,
    /// Whether each node took part in a contact in the last substep.
    touching: Vec<bool>,
    /// Substeps each node still counts as resting on the level after its last contact: bending
    /// leaves such joints alone, and the memory keeps a node on the edge of a contact from
    /// switching bending on and off every substep (a jitter that never settled).
    contact_memory: Vec<u8>,
    /// On the player's rope, the nodes whose contact memory ran out in the last substep: the
    /// next `bend` opens the folds the contacts left at their joints as moves of the rope
    /// (`Rope::limit_fold`). Set by every substep's collisions.
    freed_from_rest: Vec<bool>,
    /// On the player's rope, the joints (by their node) whose fold the per-substep cap held
    /// back in the last substep: the rest of that stale fold opens as a move of the rope too
    /// (`Rope::limit_fold`).
    held_back_folds: Vec<bool>,
    /// Current total rest length.
    pub length_m: f32,
    /// The rest length at the start of the step: reeling moves from it to `length_m` across the
    /// substeps, so a tick's reel is a steady pull, not a one-substep jolt that Verlet would turn
    /// into a huge velocity.
    length_at_step_start_m: f32,
    /// Rest length of every segment but the last. Reeling pays rope in and out at the far end:
    /// the last segment takes the change, and nodes are added or removed next to the end, so
    /// the rope keeps its resolution instead of every piece shrinking.
    nominal_segment_m: f32,
    /// Most segments reeling out may grow the rope to.
    max_segments: usize,
    /// Each segment's tension over the last step, in newtons (the mean over its substeps of the
    /// pull the chain solve applied; 0 for a slack segment).
    tension_n: Vec<f32>,
    /// The reel's load: the tension at the far end (the player's), smoothed over a few ticks
    /// (`reel::REEL_LOAD_SMOOTHING`), newtons. The reel stalls when it exceeds its rated force.
    reel_load_n: f32,
    /// Whether the reel was asked to take rope in this tick and stalled on its load.
    reel_stalled: bool,
    /// What the last step's energy budget credited the player with (for the energy account).
    last_step_credits: StepCredits,
    params: RopeParams,
    /// Substeps the last step took (its nodes' `nodes − prev` is per substep).
    last_substeps: u32,
    /// Length of the last step, seconds.
    step_dt_s: f32,
    /// The body hanging from this rope's end node, which the rope carries (a winch's load): the
    /// rope meets it where the end node is now (`Rope::solid_place`), and its last segment, which
    /// holds the load, never does.
    carried_body: Option<Body>,
    /// Takes its substeps by what needs them (`substeps_needed`), not by its fastest node.
    substeps_by_need: bool,
    /// A level rope (vine, winch rope) stops being stepped when it has been still a while and
    /// nothing moves it; the player's rope never sleeps.
    sleeps_when_still: bool,
    /// Steps in a row every node moved less than `SLEEP_MOTION_M`; at
    /// `SLEEP_AFTER_STILL_STEPS` the rope is asleep. Anything that moves it sets it back to 0.
    still_steps: u16,
    /// Per-step working memory, boxed so that a rope stays small to move inside `Hook`.
    scratch: Box<Scratch>,
}

/// Working memory kept between steps only to avoid allocating.
#[derive(Clone, Default)]
struct Scratch {
    /// (chunk, collider, collider box) pairs from this step's broad phase, sorted by chunk.
    pairs: Vec<(usize, ColliderRef, Aabb)>,
    /// One chunk's colliders, before they join `pairs`.
    near: Vec<(ColliderRef, Aabb)>,
    /// Each chunk's query box of this step's broad phase, widened when a node leaves it.
    chunk_boxes: Vec<Aabb>,
    /// The margin the step's broad phase grew the chunks' boxes by, metres.
    broad_margin_m: f32,
    /// The chunks whose boxes a substep widened, and `pairs` being rebuilt for them.
    widened_chunks: Vec<usize>,
    pairs_rebuilt: Vec<(usize, ColliderRef, Aabb)>,
    chain: ChainScratch,
    /// Inverse masses with the nodes in contact made heavy.
    contact_weights: Vec<f32>,
    /// This substep's stale fold openings (node, move), taken out of its velocity at its end.
    stale_fold_moves: Vec<(usize, Vec2)>,
    /// The penetration solver of `contact_segment_cuboid`, whose buffers are kept.
    epa: box_contact::ReusedEpa,
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
    /// The game's rope: straight from `anchor` to `player_pos`, its length their distance, clamped.
    /// Its segments are `segment_length_m` long but the last, which takes the remainder (between
    /// half and one and a half segments), and reeling adds or removes segments at the player.
    pub fn new(anchor: Vec2, player_pos: Vec2, max_length_m: f32, tuning: &RopeTuning) -> Rope {
        let length_m = anchor
            .distance(player_pos)
            .clamp(tuning.min_length_m, max_length_m);
        Rope::straight_of_length(anchor, player_pos, length_m, max_length_m, tuning)
    }

    /// `Rope::new` with its length given.
    fn straight_of_length(
        anchor: Vec2,
        player_pos: Vec2,
        length_m: f32,
        max_length_m: f32,
        tuning: &RopeTuning,
    ) -> Rope {
        let nominal_m = tuning.segment_length_m;
        let params = RopeParams::from_tuning(tuning, max_length_m);
        let max_segments = params.segments;
        let mut segments = ((length_m / nominal_m).ceil() as usize).clamp(1, max_segments);
        let last_m = length_m - nominal_m * (segments - 1) as f32;
        if last_m < 0.5 * nominal_m && segments > 1 {
            segments -= 1;
        }
        let mut rope = Rope::with_params(
            anchor,
            player_pos,
            length_m,
            RopeParams { segments, ..params },
        );
        rope.nominal_segment_m = nominal_m;
        rope.max_segments = max_segments;
        // Nodes along the straight line by their share of the rest length.
        for i in 0..=segments {
            let along_m = (nominal_m * i as f32).min(length_m);
            let at = anchor.lerp(player_pos, along_m / length_m);
            rope.nodes[i] = at;
            rope.prev[i] = at;
        }
        rope.nodes[segments] = player_pos;
        rope.prev[segments] = player_pos;
        rope
    }

    /// A rope of `length_m` whose nodes start evenly on the straight line `anchor → end`.
    pub fn with_params(anchor: Vec2, end: Vec2, length_m: f32, params: RopeParams) -> Rope {
        let segments = params.segments.max(1);
        let nodes: Vec<Vec2> = (0..=segments)
            .map(|i| anchor.lerp(end, i as f32 / segments as f32))
            .collect();
        let mut inv_mass = vec![1.0; segments + 1];
        inv_mass[0] = 0.0;
        inv_mass[segments] = 1.0 / params.end_mass_ratio.max(1e-3);
        Rope {
            prev: nodes.clone(),
            touching: vec![false; segments + 1],
            contact_memory: vec![0; segments + 1],
            freed_from_rest: vec![false; segments + 1],
            held_back_folds: vec![false; segments + 1],

            nodes,
            inv_mass,
            length_m,
            length_at_step_start_m: length_m,
            nominal_segment_m: length_m / segments as f32,
            max_segments: segments,
            tension_n: vec![0.0; segments],
            reel_load_n: 0.0,
            reel_stalled: false,
            last_step_credits: StepCredits::default(),
            params: RopeParams { segments, ..params },
            last_substeps: 1,
            step_dt_s: 1.0 / 60.0,
            carried_body: None,
            substeps_by_need: false,
            sleeps_when_still: false,
            still_steps: 0,
            scratch: Box::default(),
        }
    }

    /// A rope laid along `points` (at least two), one node per point; its rest length is the
    /// polyline's length. For rigs that start curved or folded.
    pub fn from_nodes(points: &[Vec2], params: RopeParams) -> Rope {
        assert!(points.len() >= 2, "a rope needs at least two nodes");
        let mut rope = Rope::with_params(
            points[0],
            points[1],
            0.0,
            RopeParams {
                segments: points.len() - 1,
                ..params
            },
        );
        rope.nodes.copy_from_slice(points);
        rope.prev.copy_from_slice(points);
        rope.length_m = rope.measured_length_m();
        rope.length_at_step_start_m = rope.length_m;
        rope.nominal_segment_m = rope.length_m / rope.segment_count() as f32;
        rope
    }

    pub fn params(&self) -> &RopeParams {
        &self.params
    }

    pub fn anchor(&self) -> Vec2 {
        self.nodes[0]
    }

    /// The far end: the player, or a free rope's load.
    pub fn end(&self) -> Vec2 {
        self.nodes[self.segment_count()]
    }

    /// The far end's velocity over the last substep.
    pub fn end_velocity(&self) -> Vec2 {
        let last = self.segment_count();
        (self.nodes[last] - self.prev[last]) * (self.last_substeps as f32 / self.step_dt_s)
    }

    /// Adds `dv` to the free end's velocity (a player landing on a winch's load).
    pub fn push_end(&mut self, dv: Vec2) {
        self.push_node(self.segment_count(), dv);
    }

    /// Node `i`'s velocity over the last substep.
    pub fn node_velocity(&self, i: usize) -> Vec2 {
        (self.nodes[i] - self.prev[i]) * (self.last_substeps as f32 / self.step_dt_s)
    }

    /// Adds `dv` to node `i`'s velocity (the player brushing through a vine).
    pub fn push_node(&mut self, i: usize, dv: Vec2) {
        let h = self.step_dt_s / self.last_substeps as f32;
        if i > 0 && i < self.prev.len() {
            self.prev[i] -= dv * h;
            self.still_steps = 0;
        }
    }

    /// Wind: adds to each node's velocity the drag of the air on its two half segments over
    /// `dt_s` (`math::segment_drag_n`, with the segment moving at its ends' mean
    /// velocity). The anchor takes none, nor the far end when it is the player (`end_is_player`:
    /// the player feels the wind through their own pull). Applied once per tick, before the
    /// step: the drag changes slowly next to the substeps' constraint forces.
    pub fn apply_air_drag(
        &mut self,
        air_velocity: impl Fn(Vec2) -> Vec2,
        drag_n_s2_per_m3: f32,
        dt_s: f32,
        end_is_player: bool,
    ) {
        let last = self.segment_count();
        let moving_until = if end_is_player { last } else { last + 1 };
        let mut previous_half = Vec2::ZERO;
        // `node_velocity` and `push_node_force` written out over slices: a segment's far
        // node's velocity is the next segment's near one (node i + 1 is pushed only after).
        let per_s = self.last_substeps as f32 / self.step_dt_s;
        let h = self.step_dt_s / self.last_substeps as f32;
        let node_kg = self.params.node_mass_kg.max(1e-6);
        let (nodes, prev, inv_mass) = (
            &self.nodes[..=last],
            &mut self.prev[..=last],
            &self.inv_mass[..=last],
        );
        let mut pushed = false;
        let mut push = |prev: &mut Vec2, inv_mass: f32, force_n: Vec2| {
            if force_n != Vec2::ZERO {
                *prev -= force_n * (inv_mass / node_kg * dt_s) * h;
                pushed = true;
            }
        };
        let mut near_velocity = (nodes[0] - prev[0]) * per_s;
        for i in 0..last {
            let (a, b) = (nodes[i], nodes[i + 1]);
            let far_velocity = (nodes[i + 1] - prev[i + 1]) * per_s;
            let velocity = (near_velocity + far_velocity) * 0.5;
            near_velocity = far_velocity;
            let air = air_velocity((a + b) * 0.5);
            let half = if air == Vec2::ZERO {
                Vec2::ZERO
            } else {
                segment_drag_n(a, b, velocity, air, drag_n_s2_per_m3) * 0.5
            };
            // Node i takes half of the segment before it and half of this one.
            if i > 0 && i < moving_until {
                push(&mut prev[i], inv_mass[i], previous_half + half);
            }
            previous_half = half;
        }
        if last < moving_until {
            push(&mut prev[last], inv_mass[last], previous_half);
        }
        if pushed {
            self.still_steps = 0;
        }
    }

    /// Lets a level rope take as few as `min` substeps when it moves slowly (the player's rope
    /// keeps the fixed count its feel was tuned with; a vine at rest needs far fewer).
    pub fn set_min_substeps(&mut self, min: u32) {
        self.params.min_substeps = min.clamp(1, self.params.substeps.max(1));
    }

    /// The far end's mass relative to one rope node (a winch's load, with its rider).
    pub fn set_end_mass_ratio(&mut self, ratio: f32) {
        if self.params.end_mass_ratio != ratio.max(1e-3) {
            self.still_steps = 0;
        }
        self.params.end_mass_ratio = ratio.max(1e-3);
        let last = self.segment_count();
        self.inv_mass[last] = 1.0 / self.params.end_mass_ratio;
    }

    /// Lets the rope take its substeps by need (`substeps_needed`): a vine.
    pub fn set_substeps_by_need(&mut self, by_need: bool) {
        self.substeps_by_need = by_need;
    }

    /// Lets a level rope sleep: once it has hung still for `SLEEP_AFTER_STILL_STEPS` steps, its
    /// steps cost one look for moving solids near it until something moves it (a push, wind,
    /// reeling, a moving anchor, a moving solid coming near).
    pub fn set_sleeps_when_still(&mut self, sleeps: bool) {
        self.sleeps_when_still = sleeps;
        self.still_steps = 0;
    }

    /// Whether the rope is asleep (`set_sleeps_when_still`).
    pub fn is_asleep(&self) -> bool {
        self.sleeps_when_still && self.still_steps >= SLEEP_AFTER_STILL_STEPS
    }

    /// What its last step cost, in nodes × substeps (0 asleep): the guess at its next step's
    /// cost that `sim::parallel` weighs.
    pub fn step_work(&self) -> usize {
        if self.is_asleep() {
            0
        } else {
            self.nodes.len() * self.last_substeps as usize
        }
    }

    /// Hangs `body` (its own load) from this rope's end node: see `carried_body`.
    pub fn set_carried_body(&mut self, body: Option<Body>) {
        self.carried_body = body;
    }

    /// Substeps the last step took.
    pub fn last_substeps(&self) -> u32 {
        self.last_substeps
    }

    pub fn segment_count(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Rest length of every segment but the last (which takes what reeling adds or removes).
    pub fn nominal_segment_m(&self) -> f32 {
        self.nominal_segment_m
    }

    /// What the last step's energy budget credited the player with, J/kg (`relax`).
    pub fn last_step_credits(&self) -> StepCredits {
        self.last_step_credits
    }

    /// Each segment's tension over the last step, in newtons, anchor first: how hard the rope
    /// pulled on the two nodes of that segment (0 when it was slack).
    pub fn tension_n(&self) -> &[f32] {
        &self.tension_n
    }

    /// Rest length of the last segment, next to the far end.
    pub fn last_segment_rest_m(&self) -> f32 {
        self.length_m - self.nominal_segment_m * (self.segment_count() - 1) as f32
    }

    /// Sum of the segment lengths as they are now.
    pub fn measured_length_m(&self) -> f32 {
        self.nodes.windows(2).map(|w| w[0].distance(w[1])).sum()
    }

    /// Whether each node took part in a contact with the level in the last substep.
    pub fn touching(&self) -> &[bool] {
        &self.touching
    }

    /// The last node touching the level (the point the player swings around), or the anchor.
    pub fn pivot(&self) -> Vec2 {
        let last = self.segment_count();
        let index = (1..last).rev().find(|&i| self.touching[i]).unwrap_or(0);
        self.nodes[index]
    }

    /// Sets the rest length, clamped to `[min, max]`.
    pub fn set_length(&mut self, length_m: f32, min_m: f32, max_m: f32) {
        self.length_m = length_m.clamp(min_m, max_m);
    }

    /// Advances the game's rope by `dt_s` with the player as its last node. The player enters with
    /// its position and velocity (already including this tick's gravity and input) and leaves
    /// with where the rope lets it go; the caller then moves the player there through the level.
    pub fn step(
        &mut self,
        geometry: &Geometry,
        tuning: &RopeTuning,
        gravity: Vec2,
        player_pos: Vec2,
        player_vel: Vec2,
        dt_s: f32,
    ) -> (Vec2, Vec2) {
        let anchor = self.anchor();
        self.step_with_anchor(
            geometry, tuning, gravity, anchor, player_pos, player_vel, dt_s,
        )
    }

    /// `step` with the anchor moved to `anchor_to` over the step (hooked to a moving platform).
    #[allow(clippy::too_many_arguments)]
    pub fn step_with_anchor(
        &mut self,
        geometry: &Geometry,
        tuning: &RopeTuning,
        gravity: Vec2,
        anchor_to: Vec2,
        player_pos: Vec2,
        player_vel: Vec2,
        dt_s: f32,
    ) -> (Vec2, Vec2) {
        // Feel constants may be reloaded while a rope exists; the node count may not change.
        self.params.radius_m = tuning.radius_m;
        self.params.substeps = tuning.substeps.max(1);
        self.params.min_substeps = tuning.substeps.max(1);
        self.params.damping_per_s = tuning.node_damping_per_s;
        let last = self.segment_count();
        self.inv_mass[last] = 1.0 / tuning.player_mass_ratio.max(1e-3);
        self.nodes[last] = player_pos;
        self.prev[last] = player_pos;
        let entry = EndEntry {
            pos: player_pos,
            vel: player_vel,
            reeled_in_m: self.length_at_step_start_m - self.length_m,
            anchor_moved: anchor_to - self.nodes[0],
            dt_s,
            gravity,
            rope_energy_j_per_kg: self.nodes_energy_j_per_kg(gravity),
        };
        let h = self.advance(
            geometry,
            gravity,
            dt_s,
            anchor_to,
            EndMotion::Player(player_vel),
        );
        // Reeling may have added or removed nodes: the player is still the last.
        self.measure_reel_load();
        let last = self.segment_count();
        let solved = (self.nodes[last] - self.prev[last]) / h;
        let at = self.nodes[last];
        let (vel, credits) = self.relaxed_end_velocity(entry, at, solved);
        self.last_step_credits = credits;
        (at, vel)
    }

    /// Advances a rope whose far end is a free heavy node, the anchor fixed.
    pub fn step_free(&mut self, geometry: &Geometry, gravity: Vec2, dt_s: f32) {
        self.advance(geometry, gravity, dt_s, self.anchor(), EndMotion::Free);
    }

    /// Advances a rope whose anchor is dragged to `anchor_to` over the step (linearly across the
    /// substeps); the far end is free.
    pub fn step_driven(&mut self, geometry: &Geometry, gravity: Vec2, anchor_to: Vec2, dt_s: f32) {
        self.advance(geometry, gravity, dt_s, anchor_to, EndMotion::Free);
    }

    /// Advances a piece of a broken rope as `step_driven` (its anchor where it hangs from, or
    /// the player's hand), with the guards of the player's rope (`EndMotion::Loose`).
    pub fn step_loose(&mut self, geometry: &Geometry, gravity: Vec2, anchor_to: Vec2, dt_s: f32) {
        self.advance(geometry, gravity, dt_s, anchor_to, EndMotion::Loose);
    }

    /// The rope's end weighs what the player weighs (`step_with_anchor` sets it so each step):
    /// a vine's piece just caught ends in a node of a node's mass, and the energy account,
    /// which weighs the nodes against the end before the step, read them 50 times too heavy.
    pub fn weigh_end_as_player(&mut self, tuning: &RopeTuning) {
        let last = self.segment_count();
        self.inv_mass[last] = 1.0 / tuning.player_mass_ratio.max(1e-3);
    }

    /// After the player was moved through the level, the rope's end follows it exactly.
    pub fn set_player(&mut self, pos: Vec2) {
        let last = self.segment_count();
        self.nodes[last] = pos;
        self.prev[last] = pos;
    }

    /// Sets the rope's length outright (at least half a segment), as of this step's start.
    pub fn set_length_m(&mut self, length_m: f32) {
        self.length_m = length_m.max(self.nominal_segment_m * 0.5);
        self.length_at_step_start_m = self.length_m;
    }

    /// Adds everything about the rope that evolves to the state hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        let Rope {
            nodes,
            prev,
            inv_mass,
            touching,
            contact_memory,
            freed_from_rest,
            held_back_folds,
            length_m,
            length_at_step_start_m,
            nominal_segment_m,
            max_segments,
            // Derived from the last step's solve; the next step recomputes it.
            tension_n: _,
            reel_load_n,
            reel_stalled,
            // Derived from the last step, for the energy account only.
            last_step_credits: _,
            params,
            last_substeps,
            step_dt_s,
            carried_body,
            substeps_by_need,
            sleeps_when_still,
            still_steps,
            // Working memory only.
            scratch: _,
        } = self;
        h.vecs(nodes);
        h.vecs(prev);
        for &w in inv_mass {
            h.f32(w);
        }
        // A node not freed from rest, its fold not held back, adds nothing to the word, so
        // such ropes hash as before; the flags' bits are past the memory's eight.
        let flags = freed_from_rest.iter().zip(held_back_folds);
        for ((&t, &m), (&f, &held)) in touching.iter().zip(contact_memory).zip(flags) {
            h.u64(t as u64 | (m as u64) << 1 | (f as u64) << 9 | (held as u64) << 10);
        }
        h.f32(*length_m);
        h.f32(*length_at_step_start_m);
        h.f32(*reel_load_n);
        h.u64(*reel_stalled as u64);
        h.f32(*nominal_segment_m);
        h.u64(*max_segments as u64);
        h.f32(params.end_mass_ratio);
        h.f32(params.radius_m);
        h.u64(*last_substeps as u64);
        h.f32(*step_dt_s);
        h.u64(carried_body.map_or(u64::MAX, |b| b.code()));
        h.u64(*substeps_by_need as u64);
        h.u64(*sleeps_when_still as u64 | (*still_steps as u64) << 1);
    }
}
