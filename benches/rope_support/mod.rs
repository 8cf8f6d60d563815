//! Shared by `benches/rope.rs` and `examples/rope_stats.rs` (included with `#[path]`): the rope
//! workloads, the reference port `ref-gs80`, the project's rope configured for them, and the
//! measurements. Nothing here is used by the game.

pub mod ref_gs80;
pub mod slack;

use std::time::Instant;

use rapier2d::parry::bounding_volume::{Aabb, BoundingVolume};
use rapier2d::parry::query;
use rapier2d::parry::shape::Segment;
use tether::sim::geometry::{groups, Geometry};
use tether::sim::level::{ShapeDef, P};
use tether::sim::math::{Pose, Vec2};
use tether::sim::rope::{Rope, RopeParams, DEFAULT_CHAIN_ITERATIONS, DEFAULT_FRICTION};

use ref_gs80::RefRope;

// ---- The workloads' physical setup (the reference article's numbers) ----
/// Distance between nodes.
pub const SPACING_M: f32 = 0.1;
/// Fixed step of both ropes.
pub const DT_S: f32 = 0.01;
pub const GRAVITY_M_PER_S2: f32 = -20.0;
/// Collision radius of both ropes: half the spacing, so neighbouring nodes just touch.
pub const RADIUS_M: f32 = 0.05;
/// Fraction of velocity kept per second, the same air drag for both ropes.
pub const DAMPING_PER_S: f32 = 0.5;
/// Mass of the heavy end (the player) relative to one node.
pub const HEAVY_END_RATIO: f32 = 50.0;
/// Fastest the whip's driven end moves.
pub const WHIP_SPEED_M_PER_S: f32 = 30.0;
pub const WHIP_STEPS: usize = 10_000;
/// Thickness of the whip's walls.
pub const WALL_THICKNESS_M: f32 = 0.02;
/// A segment whose axis is this deep inside a solid has crossed it (a tunnelling event).
pub const TUNNEL_TOLERANCE_M: f32 = 0.001;
/// Node counts of the scale workloads.
pub const SCALE_NODES: [usize; 4] = [50, 100, 200, 400];
/// Settle-time metrics (stretch, penetration and speed "at rest") are taken over this many
/// final steps.
pub const REST_WINDOW_STEPS: usize = 100;

// ---- The project's rope, as configured for the workloads ----
/// Most substeps per 0.01 s step: at the whip's speeds 4 keeps the nodes' motion per substep
/// near half the rope radius.
pub const OURS_SUBSTEPS: u32 = 4;
/// Fewest substeps per step (a rope at rest): with one 0.01 s substep a draped rope fell into
/// a limit cycle against its contacts (0.5 m/s after 10 s); two settle it (docs/rope.md).
pub const OURS_MIN_SUBSTEPS: u32 = 2;

pub fn gravity() -> Vec2 {
    Vec2::new(0.0, GRAVITY_M_PER_S2)
}

/// How the anchor (node 0) moves.
#[derive(Clone, Copy, Debug)]
pub enum Drive {
    Pinned,
    /// A Lissajous figure around the origin whose speed peaks at `WHIP_SPEED_M_PER_S`.
    Whip,
}

/// Amplitudes and frequency of the whip's drive: x = A sin ωt, y = B sin 2ωt; the speed is
/// largest at t = 0 (mod period): √((Aω)² + (2Bω)²) = 30 m/s with A = 1.2, B = 0.4, ω = 20.83.
const WHIP_A_M: f32 = 1.2;
const WHIP_B_M: f32 = 0.4;
const WHIP_OMEGA_RAD_PER_S: f32 = WHIP_SPEED_M_PER_S / 1.442_221; // √(1.2² + 0.8²)

pub struct Workload {
    pub name: String,
    pub geometry: Geometry,
    pub initial: Vec<Vec2>,
    pub end_mass_ratio: f32,
    pub drive: Drive,
    pub steps: usize,
    /// Mid-lines of thin walls (shortened at both ends): a node whose motion over one step
    /// crosses one has tunnelled.
    pub wall_midlines: Vec<Segment>,
}

impl Workload {
    pub fn nodes(&self) -> usize {
        self.initial.len()
    }

    pub fn anchor_at(&self, step: usize) -> Vec2 {
        match self.drive {
            Drive::Pinned => self.initial[0],
            Drive::Whip => {
                let t = step as f32 * DT_S;
                let w = WHIP_OMEGA_RAD_PER_S;
                Vec2::new(
                    WHIP_A_M * libm::sinf(w * t),
                    WHIP_B_M * libm::sinf(2.0 * w * t),
                )
            }
        }
    }
}

fn level(solids: Vec<ShapeDef>) -> Geometry {
    Geometry::of_solids(solids)
}

/// A small deterministic generator for shape sizes (no `rand` in the sim's dependency tree).
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// `n` nodes hanging straight down from the origin.
pub fn hang(n: usize) -> Workload {
    Workload {
        name: format!("hang-{n}"),
        geometry: level(vec![]),
        initial: (0..n)
            .map(|i| Vec2::new(0.0, -(i as f32) * SPACING_M))
            .collect(),
        end_mass_ratio: 1.0,
        drive: Drive::Pinned,
        steps: 500,
        wall_midlines: vec![],
    }
}

/// 400 nodes released from horizontal with a 50× heavy end: the player on a very long rope.
pub fn hang_heavy() -> Workload {
    let n = 400;
    Workload {
        name: "hang-400-heavy".into(),
        geometry: level(vec![]),
        initial: (0..n)
            .map(|i| Vec2::new(i as f32 * SPACING_M, 0.0))
            .collect(),
        end_mass_ratio: HEAVY_END_RATIO,
        drive: Drive::Pinned,
        steps: 400,
        wall_midlines: vec![],
    }
}

/// `n` nodes dropped from 1.6 m onto a row of boxes (rotated, non-square), circles and convex
/// polygons: 20 : 10 : 5 per 200 nodes, spread along the rope's length. Left end pinned.
pub fn drape(n: usize) -> Workload {
    let length_m = (n - 1) as f32 * SPACING_M;
    let count = ((35 * n) as f32 / 200.0).round() as usize;
    // The row runs a little past the rope's end so that no free tail hangs off it and swings.
    let pitch_m = (length_m + 1.0) / count as f32;
    let mut rng = Lcg(0x5eed_0000 + n as u64);
    let mut shapes = Vec::with_capacity(count);
    for k in 0..count {
        let x = (k as f32 + 0.5) * pitch_m;
        let y = rng.range(0.0, 0.6);
        // 4 boxes, 2 circles and 1 polygon in every 7 shapes: 20/10/5 of 35.
        let shape = match k % 7 {
            1 | 5 => ShapeDef::Circle {
                center: P(x, y),
                radius: rng.range(0.12, 0.26),
            },
            3 => {
                let r = rng.range(0.18, 0.26);
                let sides = 5 + (k / 7) % 2;
                let phase = rng.range(0.0, 1.0);
                let points = (0..sides)
                    .map(|j| {
                        let a = (j as f32 + phase) * std::f32::consts::TAU / sides as f32;
                        // Squashed horizontally so the polygon is not regular.
                        P(x + 0.8 * r * libm::cosf(a), y + r * libm::sinf(a))
                    })
                    .collect();
                ShapeDef::Polygon { points }
            }
            _ => ShapeDef::Box {
                center: P(x, y),
                half_extents: P(rng.range(0.12, 0.26), rng.range(0.05, 0.16)),
                rotation_deg: rng.range(-40.0, 40.0),
            },
        };
        shapes.push(shape);
    }
    Workload {
        name: format!("drape-{n}"),
        geometry: level(shapes),
        initial: (0..n)
            .map(|i| Vec2::new(-0.3 + i as f32 * SPACING_M, 1.6))
            .collect(),
        end_mass_ratio: 1.0,
        drive: Drive::Pinned,
        steps: 1000,
        wall_midlines: vec![],
    }
}

/// A zig-zag of `n` nodes from the origin: rows `half_width_m` either side of x = 0, 0.2 m apart.
fn zigzag(n: usize, half_width_m: f32) -> Vec<Vec2> {
    let mut p = Vec2::ZERO;
    let mut dir = 1.0f32;
    let mut drop_left = 0;
    let mut out = vec![p];
    while out.len() < n {
        if drop_left > 0 {
            p.y -= SPACING_M;
            drop_left -= 1;
        } else if (p.x + dir * SPACING_M).abs() > half_width_m + 1e-4 {
            dir = -dir;
            drop_left = 1;
            p.y -= SPACING_M;
        } else {
            p.x += dir * SPACING_M;
        }
        out.push(p);
    }
    out
}

/// A 2 cm thick wall from `a` to `b`, and its mid-line shortened by `inset` at both ends.
fn wall(a: Vec2, b: Vec2) -> (ShapeDef, Segment) {
    let center = (a + b) * 0.5;
    let d = b - a;
    let half_len = d.length() * 0.5;
    let angle_deg = libm::atan2f(d.y, d.x).to_degrees();
    let inset = (WALL_THICKNESS_M * 5.0) / d.length();
    let shape = ShapeDef::Box {
        center: P(center.x, center.y),
        half_extents: P(half_len, WALL_THICKNESS_M * 0.5),
        rotation_deg: angle_deg,
    };
    (shape, Segment::new(a.lerp(b, inset), b.lerp(a, inset)))
}

/// A wedge whose apex at `apex` has a 45° angle, pointing along `dir`, 1 m long.
fn wedge(apex: Vec2, dir: Vec2) -> ShapeDef {
    let d = dir.normalize();
    let side = Vec2::new(-d.y, d.x);
    let half_base = libm::tanf(std::f32::consts::PI / 8.0);
    let base = apex - d;
    ShapeDef::Polygon {
        points: vec![
            P(apex.x, apex.y),
            P(base.x + side.x * half_base, base.y + side.y * half_base),
            P(base.x - side.x * half_base, base.y - side.y * half_base),
        ],
    }
}

/// One end driven along a figure-of-eight at up to 30 m/s, the 20 m rope flung past 2 cm walls
/// (horizontal, vertical, at 45°) and 45° wedges, for 10,000 steps.
pub fn whip(n: usize) -> Workload {
    let v = Vec2::new;
    let walls = [
        wall(v(-3.0, 2.5), v(3.0, 2.5)),
        wall(v(-3.5, 1.0), v(-3.5, -4.0)),
        wall(v(3.5, 1.0), v(3.5, -4.0)),
        wall(v(-2.8, -1.4), v(-1.2, -3.0)),
        wall(v(2.8, -1.4), v(1.2, -3.0)),
        wall(v(-3.0, -4.5), v(3.0, -4.5)),
        wall(v(-6.0, -2.0), v(-6.0, -9.0)),
        wall(v(6.0, -2.0), v(6.0, -9.0)),
        wall(v(-7.0, -10.0), v(7.0, -10.0)),
        wall(v(-5.0, -6.0), v(-3.0, -8.0)),
        wall(v(5.0, -6.0), v(3.0, -8.0)),
    ];
    let mut shapes: Vec<ShapeDef> = walls.iter().map(|(s, _)| s.clone()).collect();
    shapes.push(wedge(v(-4.6, -1.0), v(1.0, 0.0)));
    shapes.push(wedge(v(4.6, -1.0), v(-1.0, 0.0)));
    shapes.push(wedge(v(0.0, -6.5), v(0.0, 1.0)));
    shapes.push(wedge(v(-1.5, -7.5), v(1.0, 1.0)));
    shapes.push(wedge(v(1.5, -7.5), v(-1.0, 1.0)));
    Workload {
        name: format!("whip-{n}"),
        geometry: level(shapes),
        initial: zigzag(n, 2.5),
        end_mass_ratio: 1.0,
        drive: Drive::Whip,
        steps: WHIP_STEPS,
        wall_midlines: walls.iter().map(|(_, m)| *m).collect(),
    }
}

/// Either rope, run through the same workload.
pub enum Sim {
    Reference(RefRope),
    Ours(Rope),
}

impl Sim {
    pub fn reference(w: &Workload) -> Sim {
        let keep = libm::powf(DAMPING_PER_S, DT_S);
        Sim::Reference(RefRope::new(
            &w.initial,
            SPACING_M,
            RADIUS_M,
            w.end_mass_ratio,
            keep,
        ))
    }

    pub fn ours(w: &Workload) -> Sim {
        let params = RopeParams {
            segments: w.nodes() - 1,
            radius_m: RADIUS_M,
            substeps: OURS_SUBSTEPS,
            min_substeps: OURS_MIN_SUBSTEPS,
            end_mass_ratio: w.end_mass_ratio,
            damping_per_s: DAMPING_PER_S,
            friction: DEFAULT_FRICTION,
            chain_iterations: DEFAULT_CHAIN_ITERATIONS,
            node_mass_kg: 1.0,
        };
        Sim::Ours(Rope::from_nodes(&w.initial, params))
    }

    pub fn label(&self) -> &'static str {
        match self {
            Sim::Reference(_) => "ref-gs80",
            Sim::Ours(_) => "ours",
        }
    }

    /// Advances from step `step` to `step + 1`.
    pub fn step(&mut self, w: &Workload, step: usize) {
        let anchor = w.anchor_at(step + 1);
        match self {
            Sim::Reference(r) => r.step(&w.geometry, gravity(), anchor, DT_S),
            Sim::Ours(r) => match w.drive {
                Drive::Pinned => r.step_free(&w.geometry, gravity(), DT_S),
                Drive::Whip => r.step_driven(&w.geometry, gravity(), anchor, DT_S),
            },
        }
    }

    pub fn nodes(&self) -> &[Vec2] {
        match self {
            Sim::Reference(r) => &r.nodes,
            Sim::Ours(r) => &r.nodes,
        }
    }
}

/// What one rope did on one workload.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub median_us_per_step: f64,
    /// Total stretch (sum of segment lengths over rest length − 1), max over the rest window.
    pub stretch_rest_pct: f32,
    /// Total stretch, max over the whole run.
    pub stretch_peak_pct: f32,
    /// Worst single segment's stretch, max over the rest window / the whole run.
    pub seg_rest_pct: f32,
    pub seg_peak_pct: f32,
    /// Deepest a segment's capsule went into a solid, over the rest window / the whole run.
    pub pen_rest_m: f32,
    pub pen_peak_m: f32,
    /// RMS node speed over the rest window (anchor excluded).
    pub rms_rest_m_per_s: f32,
    /// Steps × (segments whose axis went into a solid + nodes whose step crossed a thin wall).
    pub tunnel_events: usize,
}

/// Runs `sim` through `w`, timing each step alone and measuring between steps.
pub fn run(w: &Workload, sim: &mut Sim) -> Stats {
    let mut times_us = Vec::with_capacity(w.steps);
    let mut stats = Stats::default();
    let mut before = sim.nodes().to_vec();
    let mut sum_sq_speed = 0.0f64;
    let mut speed_samples = 0usize;
    for step in 0..w.steps {
        let start = Instant::now();
        sim.step(w, step);
        times_us.push(start.elapsed().as_secs_f64() * 1e6);
        let nodes = sim.nodes();
        let in_window = step + REST_WINDOW_STEPS >= w.steps;
        let (total_pct, seg_pct) = stretch_pct(nodes);
        let (pen_m, crossed) = penetration(&w.geometry, nodes);
        let jumped = wall_crossings(&w.wall_midlines, &before, nodes);
        stats.stretch_peak_pct = stats.stretch_peak_pct.max(total_pct);
        stats.seg_peak_pct = stats.seg_peak_pct.max(seg_pct);
        stats.pen_peak_m = stats.pen_peak_m.max(pen_m);
        stats.tunnel_events += crossed + jumped;
        if in_window {
            stats.stretch_rest_pct = stats.stretch_rest_pct.max(total_pct);
            stats.seg_rest_pct = stats.seg_rest_pct.max(seg_pct);
            stats.pen_rest_m = stats.pen_rest_m.max(pen_m);
            for (a, b) in before.iter().zip(nodes).skip(1) {
                sum_sq_speed += ((*b - *a).length_squared() / (DT_S * DT_S)) as f64;
                speed_samples += 1;
            }
        }
        before.copy_from_slice(nodes);
    }
    stats.rms_rest_m_per_s = (sum_sq_speed / speed_samples.max(1) as f64).sqrt() as f32;
    times_us.sort_by(f64::total_cmp);
    stats.median_us_per_step = times_us[times_us.len() / 2];
    stats
}

/// (total, worst segment) stretch in percent of the rest length.
pub fn stretch_pct(nodes: &[Vec2]) -> (f32, f32) {
    let mut total_m = 0.0f32;
    let mut worst = 0.0f32;
    for pair in nodes.windows(2) {
        let len = pair[0].distance(pair[1]);
        total_m += len;
        worst = worst.max(len / SPACING_M - 1.0);
    }
    let rest_m = (nodes.len() - 1) as f32 * SPACING_M;
    ((total_m / rest_m - 1.0) * 100.0, worst * 100.0)
}

/// (deepest penetration of any segment's capsule, number of segments whose axis is inside a
/// solid deeper than the tolerance).
pub fn penetration(geometry: &Geometry, nodes: &[Vec2]) -> (f32, usize) {
    let mut candidates = Vec::new();
    let mut deepest_m = 0.0f32;
    let mut crossed = 0;
    for pair in nodes.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let aabb = Aabb::new(a.min(b), a.max(b)).loosened(RADIUS_M);
        let segment = Segment::new(a, b);
        let mut axis_inside = false;
        candidates.clear();
        geometry.colliders_near(aabb, groups::SOLID, &mut candidates);
        for collider in candidates.iter().map(|(at, _)| geometry.collider(*at)) {
            let Ok(Some(contact)) = query::contact(
                &Pose::IDENTITY,
                &segment,
                collider.position(),
                collider.shape(),
                RADIUS_M,
            ) else {
                continue;
            };
            deepest_m = deepest_m.max(RADIUS_M - contact.dist);
            axis_inside |= contact.dist < -TUNNEL_TOLERANCE_M;
        }
        crossed += axis_inside as usize;
    }
    (deepest_m, crossed)
}

/// Nodes whose straight motion over the last step crossed a thin wall's mid-line.
pub fn wall_crossings(midlines: &[Segment], before: &[Vec2], after: &[Vec2]) -> usize {
    if midlines.is_empty() {
        return 0;
    }
    let mut crossed = 0;
    for (a, b) in before.iter().zip(after) {
        let path = Segment::new(*a, *b);
        let hit = midlines.iter().any(|m| {
            query::intersection_test(&Pose::IDENTITY, &path, &Pose::IDENTITY, m)
                .map(|r| r.intersecting)
                .unwrap_or(false)
        });
        crossed += hit as usize;
    }
    crossed
}

/// A rope settled on `w` for `steps` steps, ready to be timed.
pub fn settled(w: &Workload, mut sim: Sim, steps: usize) -> Sim {
    for step in 0..steps {
        sim.step(w, step);
    }
    sim
}
