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

use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};
use rapier2d::parry::query::{self, Ray};
use rapier2d::parry::shape::Segment;

use super::geometry::{groups, Body, ColliderRef, Geometry};
use super::math::{sort_short_by_key, Pose, Vec2};
use super::objects::wind::segment_drag_n;
use super::state_hash::StateHasher;
use super::tuning::RopeTuning;

pub(crate) mod lanes;

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
/// Below this a segment's length is treated as zero (its direction is undefined).
const MIN_SEGMENT_M: f32 = 1e-9;
/// The sharpest bend a free joint keeps (0° = straight): a sharper one is opened at once.
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
/// A segment within this fraction of its rest length counts as taut and joins the chain solve
/// (which then lets it go if it would have to push). Gravity moves a hanging chain's nodes by
/// far less than this per substep, so a hanging rope's segments are all solved together.
const TAUT_TOLERANCE: f32 = 0.01;
/// Most times per chain solve the taut set is narrowed (segments that would push let go).
const MAX_ACTIVE_SET_PASSES: u32 = 4;

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

/// How the far end moves during a step.
#[derive(Clone, Copy)]
enum EndMotion {
    /// A heavy free node under gravity that collides like the rest of the rope.
    Free,
    /// The player: moves with the given velocity (which already holds gravity and input), and
    /// is not pushed by rope collision because the player has its own.
    Player(Vec2),
}

/// A step's substeps, as `Rope::begin_step` settles them.
#[derive(Clone, Copy)]
struct StepPlan {
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
            rope.finish_step(&self.plan);
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
    params: RopeParams,
    /// Substeps the last step took (its nodes' `nodes − prev` is per substep).
    last_substeps: u32,
    /// Length of the last step, seconds.
    step_dt_s: f32,
    /// A body whose colliders this rope passes through: the load a winch rope carries.
    ignored_body: Option<Body>,
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
    chain: ChainScratch,
    /// Inverse masses with the nodes in contact made heavy.
    contact_weights: Vec<f32>,
    /// The penetration solver of `contact_segment_cuboid`, whose buffers are kept (natively:
    /// see `NATIVE_CONTACT_SHORTCUTS`).
    #[cfg(not(target_arch = "wasm32"))]
    epa: box_contact::ReusedEpa,
}

#[derive(Clone, Default)]
pub(crate) struct ChainScratch {
    /// Unit direction of each taut segment; zero for a slack one.
    dir: Vec<Vec2>,
    /// Constraint error `rest − length` of each taut segment.
    error: Vec<f32>,
    /// The Thomas algorithm's modified right-hand side, then λ.
    rhs: Vec<f32>,
    /// The Thomas algorithm's modified super-diagonal.
    upper: Vec<f32>,
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

            nodes,
            inv_mass,
            length_m,
            length_at_step_start_m: length_m,
            nominal_segment_m: length_m / segments as f32,
            max_segments: segments,
            tension_n: vec![0.0; segments],
            params: RopeParams { segments, ..params },
            last_substeps: 1,
            step_dt_s: 1.0 / 60.0,
            ignored_body: None,
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
    /// `dt_s` (`objects::wind::segment_drag_n`, with the segment moving at its ends' mean
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

    /// Splits the rope at node `index` (neither end): the part from the anchor to that node and
    /// the part from it to the far end, each keeping its nodes' motion, so a vine grabbed there
    /// swings on as two ropes (above and below the hand) and `joined` makes it one again.
    pub fn split_at_node(&self, index: usize) -> (Rope, Rope) {
        let index = index.clamp(1, self.segment_count().saturating_sub(1).max(1));
        let upper_m = self.nominal_segment_m * index as f32;
        let upper = self.piece(&self.nodes[..=index], &self.prev[..=index], 1.0, upper_m);
        let lower = self.piece(
            &self.nodes[index..],
            &self.prev[index..],
            self.params.end_mass_ratio,
            (self.length_m - upper_m).max(self.nominal_segment_m * 0.5),
        );
        (upper, lower)
    }

    /// One rope from the two pieces of `split_at_node` (the upper's end is the lower's anchor).
    pub fn joined(upper: &Rope, lower: &Rope) -> Rope {
        let nodes: Vec<Vec2> = upper
            .nodes
            .iter()
            .chain(&lower.nodes[1..])
            .copied()
            .collect();
        let prev: Vec<Vec2> = upper.prev.iter().chain(&lower.prev[1..]).copied().collect();
        upper.piece(
            &nodes,
            &prev,
            lower.params.end_mass_ratio,
            upper.length_m + lower.length_m,
        )
    }

    /// The same rope the other way round: its far end becomes its anchor and its anchor a free
    /// end of one node's mass (a piece of a broken rope, held by the player's hand). Its segments
    /// share its length evenly.
    pub fn reversed(&self) -> Rope {
        let nodes: Vec<Vec2> = self.nodes.iter().rev().copied().collect();
        let prev: Vec<Vec2> = self.prev.iter().rev().copied().collect();
        let mut rope = Rope::from_nodes(
            &nodes,
            RopeParams {
                end_mass_ratio: 1.0,
                ..self.params
            },
        );
        rope.prev.copy_from_slice(&prev);
        rope.length_m = self.length_m;
        rope.length_at_step_start_m = self.length_m;
        rope.nominal_segment_m = self.length_m / rope.segment_count() as f32;
        rope.last_substeps = self.last_substeps;
        rope.step_dt_s = self.step_dt_s;
        rope
    }

    /// A rope along `nodes` moving as `prev` says, with this rope's spacing and limits.
    fn piece(&self, nodes: &[Vec2], prev: &[Vec2], end_mass_ratio: f32, length_m: f32) -> Rope {
        let mut rope = Rope::from_nodes(
            nodes,
            RopeParams {
                end_mass_ratio,
                ..self.params
            },
        );
        rope.prev.copy_from_slice(prev);
        rope.length_m = length_m;
        rope.length_at_step_start_m = length_m;
        rope.nominal_segment_m = self.nominal_segment_m;
        rope.max_segments = self.max_segments.max(rope.segment_count());
        rope.last_substeps = self.last_substeps;
        rope.step_dt_s = self.step_dt_s;
        rope.ignored_body = self.ignored_body;
        rope.substeps_by_need = self.substeps_by_need;
        rope.sleeps_when_still = self.sleeps_when_still;
        rope
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

    /// Makes this rope pass through the colliders of `body` (its own load).
    pub fn set_ignored_body(&mut self, body: Option<Body>) {
        self.ignored_body = body;
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

    /// `step` with the anchor moved to `anchor_to` over the step (a rope hooked to a moving
    /// platform).
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
        let h = self.advance(
            geometry,
            gravity,
            dt_s,
            anchor_to,
            EndMotion::Player(player_vel),
        );
        // Reeling may have added or removed nodes: the player is still the last.
        let last = self.segment_count();
        (self.nodes[last], (self.nodes[last] - self.prev[last]) / h)
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

    /// After the player was moved through the level, the rope's end follows it exactly.
    pub fn set_player(&mut self, pos: Vec2) {
        let last = self.segment_count();
        self.nodes[last] = pos;
        self.prev[last] = pos;
    }

    /// Makes the rope exactly as long as its nodes lie now, so the next solve moves nothing:
    /// a vine caught a hand's reach from its nearest node neither yanks the player in (a piece
    /// shorter than where they hold it) nor hangs in a kinked heap (a piece longer).
    pub fn fit_length_to_nodes(&mut self) {
        let lying_m: f32 = self.nodes.windows(2).map(|w| w[0].distance(w[1])).sum();
        self.set_length_m(lying_m);
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
            length_m,
            length_at_step_start_m,
            nominal_segment_m,
            max_segments,
            // Derived from the last step's solve; the next step recomputes it.
            tension_n: _,
            params,
            last_substeps,
            step_dt_s,
            ignored_body,
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
        for (&t, &m) in touching.iter().zip(contact_memory) {
            h.u64(t as u64 | (m as u64) << 1);
        }
        h.f32(*length_m);
        h.f32(*length_at_step_start_m);
        h.f32(*nominal_segment_m);
        h.u64(*max_segments as u64);
        h.f32(params.end_mass_ratio);
        h.f32(params.radius_m);
        h.u64(*last_substeps as u64);
        h.f32(*step_dt_s);
        h.u64(ignored_body.map_or(u64::MAX, |b| b.code()));
        h.u64(*substeps_by_need as u64);
        h.u64(*sleeps_when_still as u64 | (*still_steps as u64) << 1);
    }

    /// One step of `dt_s`; returns the substep length.
    fn advance(
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
    fn chain_iterations(&self) -> u32 {
        self.params.chain_iterations.max(1)
    }

    /// The start of a step: pays rope in or out, gathers the solids it may touch and settles
    /// its substeps (`StepPlan`); `None` when the rope sleeps through it.
    #[inline(never)]
    fn begin_step(
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
            EndMotion::Free => Vec2::ZERO,
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

    /// Substep `k` (from 1) up to its chain solve: moves the nodes and bends the joints;
    /// returns the segments' rest lengths for the solve.
    #[inline(never)]
    fn substep_until_chain(&mut self, plan: &StepPlan, k: u32) -> Rests {
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
    fn collide_substep(&mut self, geometry: &Geometry, plan: &StepPlan, k: u32) -> bool {
        let progress = k as f32 / plan.substeps as f32;
        // The player's rope sees moving solids where they are at the end of the tick, as
        // its feel was tuned with; level ropes see them move across the substeps.
        let solids_progress = match plan.end {
            EndMotion::Player(_) => 1.0,
            EndMotion::Free => progress,
        };
        self.collide(geometry, plan.end, solids_progress);
        for (memory, &touching) in self.contact_memory.iter_mut().zip(&self.touching) {
            *memory = if touching {
                CONTACT_MEMORY_SUBSTEPS
            } else {
                memory.saturating_sub(1)
            };
        }
        self.touching.iter().any(|&t| t)
    }

    /// A substep's last act: the player's velocity as the rope left it.
    fn end_substep(&mut self, plan: &mut StepPlan) {
        if let EndMotion::Player(_) = plan.end {
            let last = self.segment_count();
            plan.end_vel = (self.nodes[last] - self.prev[last]) / plan.h;
        }
    }

    /// The end of a step: the tensions in newtons.
    #[inline(never)]
    fn finish_step(&mut self, plan: &StepPlan) {
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
    fn stays_asleep(&mut self, geometry: &Geometry, anchor_to: Vec2, end: EndMotion) -> bool {
        if !self.is_asleep() {
            return false;
        }
        let undisturbed = matches!(end, EndMotion::Free)
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
    fn count_still_step(&mut self, substeps: u32) {
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

    /// Pays rope in or out at the far end for this step's change of length: the last segment
    /// takes it, and a node next to the end is removed when that segment would get shorter than
    /// half a nominal segment, or added when it would get longer than one and a half. Returns
    /// the last segment's rest length at the start of the step, in the new node layout (the
    /// substeps move it to `last_segment_rest_m()`).
    fn pay_in_or_out(&mut self) -> f32 {
        let nominal_m = self.nominal_segment_m;
        let full_m = |rope: &Rope| nominal_m * (rope.segment_count() - 1) as f32;
        let mut from_m = self.length_at_step_start_m - full_m(self);
        let mut to_m = self.length_m - full_m(self);
        while to_m < 0.5 * nominal_m && self.segment_count() > 1 {
            self.remove_node(self.segment_count() - 1);
            from_m += nominal_m;
            to_m += nominal_m;
        }
        while to_m > 1.5 * nominal_m && self.segment_count() < self.max_segments {
            // The new node goes on the last segment where the nominal length ends, scaled to
            // the segment as it is now, so a slack segment's slack is shared, not created.
            let fraction = nominal_m / to_m;
            self.insert_node_before_end(fraction);
            from_m -= nominal_m;
            to_m -= nominal_m;
        }
        from_m
    }

    fn remove_node(&mut self, i: usize) {
        self.nodes.remove(i);
        self.prev.remove(i);
        self.inv_mass.remove(i);
        self.touching.remove(i);
        self.contact_memory.remove(i);
        self.params.segments = self.segment_count();
    }

    /// Splits the last segment at `fraction` of the way from its first node; the new node's
    /// velocity is interpolated like its position.
    fn insert_node_before_end(&mut self, fraction: f32) {
        let last = self.segment_count();
        let at = self.nodes[last - 1].lerp(self.nodes[last], fraction);
        let was = self.prev[last - 1].lerp(self.prev[last], fraction);
        self.nodes.insert(last, at);
        self.prev.insert(last, was);
        self.inv_mass.insert(last, 1.0);
        self.touching.insert(last, false);
        self.contact_memory.insert(last, 0);
        self.params.segments = self.segment_count();
    }

    /// Bending stiffness: a real rope resists bending, which is what makes a slack rope drape in
    /// curves instead of node-sized zigzags, folds and loops. Two terms, at every joint whose
    /// node touches nothing (a rope wrapped round a corner bends there):
    /// - curvature: the joint's node and its two neighbours are moved toward a straight line
    ///   (the node toward the point of the chord its rest length puts it at, they the opposite
    ///   way, mass-weighted so momentum is kept) by `BEND_STIFFNESS` of the way per substep. It straightens a zigzag
    ///   (the sharpest, alternating bends) fastest and barely touches a rope's long sag, and it
    ///   never lengthens the rope, so slack stays slack;
    /// - a fold limit: a joint bent past `MAX_JOINT_BEND_DEG` (measured on the segments as they
    ///   are) has its neighbours pushed apart until it is not, which opens a fold that the
    ///   curvature term alone would only tighten.
    ///
    /// The player's end takes no part: a rope's stiffness is nothing against a person's inertia,
    /// and even a 2 % share of a fold's correction was a 0.3 m/s shove in one substep.
    fn bend(&mut self, rest: Rests, end: EndMotion) {
        let n = self.nodes.len();
        if n < 3 {
            return;
        }
        let max_bend_rad = MAX_JOINT_BEND_DEG.to_radians();
        let open_cos = libm::cosf(max_bend_rad);
        // A joint is surely open enough when cos(bend)² clears cos(max)² by this factor; only
        // the joints near or past the limit pay for the angle itself (an atan2, which was a
        // seventh of a level rope's tick when every joint took it).
        let open_cos_sq = open_cos * open_cos * (1.0 + FOLD_REJECT_MARGIN);
        let rest_before = rest.nominal_m;
        // Below these a segment is slack (before and after the joint).
        let slack_before_m = rest_before * (1.0 - SLACK_FRACTION);
        // t (the share of the rest length before the joint), (1 − t)², t² and the slack length
        // after the joint: the same at every joint but the last, whose rest after is the last
        // segment's, so they are worked out once per substep rather than once per joint.
        let shares = |rest_after: f32| {
            let t = rest_before / (rest_before + rest_after).max(MIN_SEGMENT_M);
            (
                t,
                (1.0 - t) * (1.0 - t),
                t * t,
                rest_after * (1.0 - SLACK_FRACTION),
            )
        };
        let inner_joint = shares(rest.nominal_m);
        let last_joint = shares(rest.last_m);
        let end_is_player = matches!(end, EndMotion::Player(_));
        // Most substeps of most ropes have no node resting on the level to look for.
        let any_resting = self.contact_memory.iter().any(|&memory| memory > 0);
        // |x_i − x_{i−1}|² at joint i, when the joint before moved no node: its |x_{i+1} − x_i|²,
        // the same bits as working it out again.
        let mut carried_uu = None;
        // The rope's arrays as slices of one length: the joints' indexing needs no checks.
        let nodes = &mut self.nodes[..n];
        let inv_mass = &self.inv_mass[..n];
        let contact_memory = &self.contact_memory[..n];
        for i in 1..n - 1 {
            // A joint any of whose three nodes rests on the level is left to the contacts:
            // bending there would fight them into a jitter that never settles.
            if any_resting {
                let memory = &contact_memory[i - 1..=i + 1];
                if memory[0] > 0 || memory[1] > 0 || memory[2] > 0 {
                    carried_uu = None;
                    continue;
                }
            }
            let is_last = i + 1 == n - 1;
            let (t, one_minus_t_sq, t_sq, slack_after_m) =
                if is_last { last_joint } else { inner_joint };
            let (wa, wb) = (inv_mass[i - 1], inv_mass[i]);
            let wc = if is_last && end_is_player {
                0.0
            } else {
                inv_mass[i + 1]
            };
            let (mut a, mut b, mut c) = (nodes[i - 1], nodes[i], nodes[i + 1]);
            let (mut u, mut v) = (b - a, c - b);
            let mut uu = carried_uu.unwrap_or_else(|| u.length_squared());
            let mut vv = v.length_squared();
            // C = x_i − ((1 − t) x_{i−1} + t x_{i+1}): zero on a straight rope whose segments
            // share its length as their rests do. Across the chord it is bending; along it, it
            // spreads slack evenly instead of letting it pile up into a fold. Gradients 1,
            // −(1 − t), −t: the projection moves node i by −w_i C / W and the neighbours by
            // +(1 − t) w C / W and +t w C / W, with W = w_i + (1 − t)² w_{i−1} + t² w_{i+1},
            // which keeps momentum.
            let weight = || wb + one_minus_t_sq * wa + t_sq * wc;
            // Only where there is slack to spread: at a joint of two taut segments the term
            // only shortened them, gravity pulled them taut again, and a settled drape never
            // came to rest (1 cm/s after 40 s).
            let has_slack = uu.sqrt() < slack_before_m || vv.sqrt() < slack_after_m;
            if has_slack && weight() > 0.0 {
                let offset = b - a.lerp(c, t);
                let step = offset * (BEND_STIFFNESS / weight());
                b -= step * wb;
                a += step * ((1.0 - t) * wa);
                c += step * (t * wc);
                nodes[i - 1] = a;
                nodes[i] = b;
                nodes[i + 1] = c;
                (u, v) = (b - a, c - b);
                (uu, vv) = (u.length_squared(), v.length_squared());
            }

            let cos_scaled = u.dot(v);
            if cos_scaled > 0.0 && cos_scaled * cos_scaled > open_cos_sq * uu * vv {
                carried_uu = Some(vv);
                continue;
            }
            Self::limit_fold(nodes, i, wa, wb, wc, max_bend_rad);
            carried_uu = None;
        }
    }

    /// The fold limit of `bend`: an angle constraint `|θ| ≤ max` on the joint at node `i`,
    /// θ = angle(x_{i+1} − x_i) − angle(x_i − x_{i−1}), projected with its gradient on all three
    /// nodes (∂θ/∂x_{i−1} = u⊥/|u|², ∂θ/∂x_{i+1} = v⊥/|v|², ∂θ/∂x_i = −both), weighted by
    /// `wa, wb, wc`. It rotates the joint open, so it works even when an end cannot move.
    fn limit_fold(nodes: &mut [Vec2], i: usize, wa: f32, wb: f32, wc: f32, max_bend_rad: f32) {
        let (a, b, c) = (nodes[i - 1], nodes[i], nodes[i + 1]);
        let (u, v) = (b - a, c - b);
        let (uu, vv) = (u.length_squared(), v.length_squared());
        if uu < MIN_SEGMENT_M || vv < MIN_SEGMENT_M {
            return;
        }
        let bend = libm::atan2f(u.perp_dot(v), u.dot(v));
        let excess = bend.abs() - max_bend_rad;
        if excess <= 0.0 {
            return;
        }
        let grad_a = u.perp() / uu;
        let grad_c = v.perp() / vv;
        let grad_b = -(grad_a + grad_c);
        let denom = wa * grad_a.length_squared()
            + wb * grad_b.length_squared()
            + wc * grad_c.length_squared();
        if denom < 1e-12 {
            return;
        }
        // Move θ toward the limit: Δx_j = −w_j ∇_j θ · sign(θ) · excess / Σ w |∇θ|².
        let scale = -bend.signum() * excess / denom;
        nodes[i - 1] += grad_a * (scale * wa);
        nodes[i] += grad_b * (scale * wb);
        nodes[i + 1] += grad_c * (scale * wc);
    }

    /// A bound on how far any node may travel this step: the fastest node's last step carried
    /// on, plus gravity, plus a yank by the driven anchor or the player.
    fn predicted_travel_m(
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
            EndMotion::Free => 0.0,
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
    fn substeps_needed(
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
            EndMotion::Free => 0.0,
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

    /// Gathers, once per step, the solids each chunk of segments may touch during the step.
    fn broad_phase(&mut self, geometry: &Geometry, travel_m: f32) {
        let margin_m = travel_m + self.params.radius_m + BROADPHASE_SLOP_M;
        let segments = self.segment_count();
        let scratch = &mut *self.scratch;
        scratch.pairs.clear();
        for (chunk, start) in (0..segments).step_by(CHUNK_SEGMENTS).enumerate() {
            let end_node = (start + CHUNK_SEGMENTS).min(segments);
            let mut aabb = Aabb::new_invalid();
            for &p in &self.nodes[start..=end_node] {
                aabb.take_point(p);
            }
            let aabb = aabb.loosened(margin_m);
            scratch.near.clear();
            geometry.colliders_near(aabb, groups::SOLID, &mut scratch.near);
            for &(at, collider_aabb) in &scratch.near {
                if self
                    .ignored_body
                    .is_some_and(|b| geometry.tag(at).body == b)
                {
                    continue;
                }
                scratch.pairs.push((chunk, at, collider_aabb));
            }
        }
    }

    fn integrate(
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
            EndMotion::Free => last + 1,
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
    fn solve_chain(&mut self, rest: Rests, contacts_heavy: bool) {
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
    fn set_contact_weights(&mut self) {
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

    /// Swept test for fast nodes, then pushes every segment (a capsule of the rope's radius) out
    /// of the solids its chunk may touch, with friction. The anchor never moves here; in the game
    /// the player neither (it has its own collision). Moving solids are where they are
    /// `progress` of the way through the step (`Geometry::collider_pose_at`).
    fn collide(&mut self, geometry: &Geometry, end: EndMotion, progress: f32) {
        let radius_m = self.params.radius_m;
        let last = self.segment_count();
        self.touching.fill(false);

        let weight = |rope: &Rope, i: usize| match end {
            EndMotion::Player(_) if i == last => 0.0,
            _ => rope.inv_mass[i],
        };
        let sweep_min_m = radius_m * SWEEP_THRESHOLD_RADII;
        let identity = Pose::IDENTITY;
        for p in 0..self.scratch.pairs.len() {
            let (chunk, at, solid_aabb) = self.scratch.pairs[p];
            let shape = geometry.collider(at).shape();
            let pose = &geometry.collider_pose_at(at, progress);
            let first = chunk * CHUNK_SEGMENTS;
            let end_seg = (first + CHUNK_SEGMENTS).min(last);
            // Swept test: a node that moved far this substep may have jumped a thin wall whole.
            // Each node is swept once, by the chunk that starts at or contains it.
            let sweep_to = if end_seg == last { last } else { end_seg - 1 };
            for i in first.max(1)..=sweep_to {
                if weight(self, i) == 0.0 {
                    continue;
                }
                let motion = self.nodes[i] - self.prev[i];
                let dist = motion.length();
                if dist <= sweep_min_m {
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
                let segment = Segment::new(a, b);
                let contact = match shape.as_cuboid().filter(|_| NATIVE_CONTACT_SHORTCUTS) {
                    #[cfg(not(target_arch = "wasm32"))]
                    Some(cuboid) => box_contact::contact_segment_cuboid(
                        &mut self.scratch.epa.0,
                        &segment,
                        pose,
                        cuboid,
                        radius_m,
                    ),
                    _ => query::contact(&identity, &segment, pose, shape, radius_m)
                        .ok()
                        .flatten(),
                };
                let Some(contact) = contact else {
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
                    weight(self, i),
                    weight(self, i + 1),
                );
            }
        }
    }

    /// Moves the ends of segment `i` so that its point nearest `contact_point` moves `depth_m`
    /// along `normal`, split by where along the segment the contact is and by the ends' inverse
    /// masses; then applies Coulomb friction to the ends' motion over this substep.
    fn push_segment(
        &mut self,
        i: usize,
        contact_point: Vec2,
        normal: Vec2,
        depth_m: f32,
        wa: f32,
        wb: f32,
    ) {
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
            return;
        }
        let scale = depth_m / denom;
        let friction = self.params.friction;
        for (node, k) in [(i, ka), (i + 1, kb)] {
            if k == 0.0 {
                continue;
            }
            let push_m = k * scale;
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

/// The shortcut of `Rope::collide` past parry's general contact query for boxes, taken
/// natively: `contact_segment_cuboid`, parry's own steps with the EPA's buffers kept (the same
/// contact to the bit). The browser build runs parry's query: the code it adds (9.4 KB, mostly a
/// second copy of GJK and EPA) would take most of the download's room, and its results are the
/// same, which the browser test checks on every level. (The other shortcut, skipping a segment
/// that leaves a box's face from a fixed end, is 0.4 KB and runs in both.)
const NATIVE_CONTACT_SHORTCUTS: bool = !cfg!(target_arch = "wasm32");

/// Box contacts with the EPA's buffers kept (natively: see `NATIVE_CONTACT_SHORTCUTS`).
#[cfg(not(target_arch = "wasm32"))]
mod box_contact {
    use rapier2d::parry::query::epa::EPA;
    use rapier2d::parry::query::gjk::{self, CsoPoint, GJKResult, VoronoiSimplex};
    use rapier2d::parry::query::Contact;
    use rapier2d::parry::shape::{Cuboid, Segment};

    use super::{Pose, Vec2};

    /// parry's EPA, which is not `Clone`: a copy of a rope starts with empty buffers (they hold
    /// nothing between queries).
    #[derive(Default)]
    pub(super) struct ReusedEpa(pub(super) EPA);

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

/// Rest lengths of a rope's segments during one substep.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Rests {
    /// Every segment but the last.
    pub(crate) nominal_m: f32,
    /// The last segment, next to the far end, where rope is paid in and out.
    pub(crate) last_m: f32,
}

/// The Thomas-algorithm projection of `Rope::solve_chain` on positions `x` with inverse masses `w`.
///
/// A rope cannot push: each segment's constraint is `|x_{i+1} − x_i| ≤ rest` with a pulling
/// multiplier only. Solving the compressed segments as equalities is what folded a slack chain
/// into node-sized zigzags and knots: the solve pushed its nodes apart along the chain until it
/// buckled. So this is an active-set solve: the taut segments (within `TAUT_TOLERANCE` of their
/// rest length — a hanging chain's segments sit right at it) are solved together, and any of
/// them whose multiplier comes out pushing is let go slack and the rest solved again, at most
/// `MAX_ACTIVE_SET_PASSES` times. Segments that are clearly slack take no part.
pub(crate) fn solve_chain(x: &mut [Vec2], w: &[f32], s: &mut ChainScratch, rest: Rests) {
    // Written with iterators over slices of one length so that the loops carry no bounds
    // checks: this is half of a level rope's tick.
    let n = x.len() - 1;
    let w = &w[..=n];
    s.dir.resize(n, Vec2::ZERO);
    s.error.resize(n, 0.0);
    s.rhs.resize(n, 0.0);
    s.upper.resize(n + 1, 0.0);
    let last = n - 1;
    for (i, ((dir, error), ends)) in s.dir[..n]
        .iter_mut()
        .zip(&mut s.error[..n])
        .zip(x.windows(2))
        .enumerate()
    {
        let delta = ends[1] - ends[0];
        let len = delta.length();
        let rest_m = if i == last {
            rest.last_m
        } else {
            rest.nominal_m
        };
        let taut = len > rest_m * (1.0 - TAUT_TOLERANCE) && len > MIN_SEGMENT_M;
        (*dir, *error) = if taut {
            (delta * (1.0 / len), rest_m - len)
        } else {
            (Vec2::ZERO, 0.0)
        };
    }
    for pass in 1..=MAX_ACTIVE_SET_PASSES {
        if !solve_multipliers(w, s, pass == MAX_ACTIVE_SET_PASSES) {
            break;
        }
    }
    // Δx_j = w_j (λ_{j−1} d_{j−1} − λ_j d_j).
    let mut next_lambda = 0.0f32;
    let mut next_dir = Vec2::ZERO;
    for (((node, &weight), &dir), &lambda) in x[1..]
        .iter_mut()
        .zip(&w[1..])
        .zip(&s.dir[..n])
        .zip(&s.rhs[..n])
        .rev()
    {
        *node += (dir * lambda - next_dir * next_lambda) * weight;
        next_lambda = lambda;
        next_dir = dir;
    }
    x[0] -= next_dir * (next_lambda * w[0]);
}

/// Solves `J M⁻¹ Jᵀ λ = −C` for the segments whose direction is set (the others have λ = 0 and
/// no coupling), leaving λ in `s.rhs`. Diagonal `w_i + w_{i+1}`, off-diagonal
/// `−w_{i+1} d_i·d_{i+1}`; the matrix is diagonally dominant, so the sweep needs no pivoting.
///
/// λ > 0 would push the segment's ends apart, which a rope cannot: such a segment is let go
/// slack (its direction cleared) and `true` returned so the caller solves again, or on the
/// `last_pass` its λ is set to 0.
fn solve_multipliers(w: &[f32], s: &mut ChainScratch, last_pass: bool) -> bool {
    let n = s.dir.len();
    let (dir, error, rhs) = (&mut s.dir[..n], &s.error[..n], &mut s.rhs[..n]);
    // `upper[i + 1]` is row i's modified super-diagonal (`upper[0]` is unused, `upper[n]` 0).
    let upper = &mut s.upper[..=n];
    // Forward sweep. The matrix is symmetric: the coupling of rows i−1 and i is
    // c_i = −w_i d_{i−1}·d_i, both row i's lower and row i−1's upper.
    let mut prev_dir = Vec2::ZERO;
    let mut prev_rhs = 0.0f32;
    let mut prev_inv_pivot = 0.0f32;
    for ((((&d, &e), r), up), ends) in dir
        .iter()
        .zip(error)
        .zip(rhs.iter_mut())
        .zip(upper[..n].iter_mut())
        .zip(w.windows(2))
    {
        let coupling = -ends[0] * prev_dir.dot(d);
        // Row i−1's upper (0 · 0 for the first row, which has none).
        let prev_upper = coupling * prev_inv_pivot;
        *up = prev_upper;
        let pivot = ends[0] + ends[1] - coupling * prev_upper;
        // Both ends immovable, or the segment slack: the constraint cannot act (λ = 0).
        let inv_pivot = if pivot > 1e-12 && d != Vec2::ZERO {
            1.0 / pivot
        } else {
            0.0
        };
        prev_rhs = (e - coupling * prev_rhs) * inv_pivot;
        *r = prev_rhs;
        prev_dir = d;
        prev_inv_pivot = inv_pivot;
    }
    upper[n] = 0.0;
    // Back substitution: λ_i = rhs_i − upper_i λ_{i+1}, letting go the segments that push.
    let mut next_lambda = 0.0f32;
    let mut released = false;
    for (((r, &up), d), e) in rhs
        .iter_mut()
        .zip(&upper[1..])
        .zip(dir.iter_mut())
        .zip(s.error[..n].iter_mut())
        .rev()
    {
        next_lambda = *r - up * next_lambda;
        *r = next_lambda;
        if next_lambda > 0.0 {
            if last_pass {
                *r = 0.0;
            } else {
                *d = Vec2::ZERO;
                *e = 0.0;
                released = true;
            }
        }
    }
    released
}
