//! `solve_chain` on four chains of one length at once: a cloth's columns, which share no
//! particle. Each lane does exactly the operations of `solve_chain`, in its order, so each
//! chain comes out the same, bit for bit, as solved alone — in vector registers (`wide`'s
//! `f32x4`: one square root, one division for four segments): SSE natively on x86-64, NEON on
//! arm64, and wasm's simd128 in the browser (.cargo/config.toml builds wasm32 with it; without
//! it `wide` falls back to plain arrays, slower but the same bits).
//!
//! The active-set passes run for all four lanes while any lane lets a segment go. A lane that
//! let none go is solved again with what it had, to the same multipliers, none pushing — so
//! the extra pass leaves it as it was, and on the last pass has nothing to clamp.

use wide::f32x4;

use super::{Rests, MAX_ACTIVE_SET_PASSES, MIN_SEGMENT_M, TAUT_TOLERANCE};
use crate::math::Vec2;

/// Chains solved side by side.
pub(crate) const LANES: usize = 4;

/// One value per lane.
type Lanes = f32x4;

/// Working memory of `solve_chains`, one entry per node or segment, a value per lane.
#[derive(Clone, Default)]
pub(crate) struct LaneScratch {
    x: Vec<Lanes>,
    y: Vec<Lanes>,
    w: Vec<Lanes>,
    dir_x: Vec<Lanes>,
    dir_y: Vec<Lanes>,
    error: Vec<Lanes>,
    rhs: Vec<Lanes>,
    /// `upper[i + 1]` is row i's modified super-diagonal, as in `solve_multipliers`.
    upper: Vec<Lanes>,
    /// Stand-in chains for the lanes `solve_up_to_four` has no chain for.
    spare: Vec<Vec2>,
}

/// One chain of a side-by-side solve: its nodes, their inverse masses and its rest lengths.
pub(crate) struct Chain<'a> {
    pub(crate) x: &'a mut [Vec2],
    pub(crate) w: &'a [f32],
    pub(crate) rest: Rests,
}

/// `solve_chain` on `LANES` chains of one node count (at least 2), each with its own masses
/// and rest lengths. Returns the active-set passes it took; each chain's multipliers are then
/// `s.multipliers(lane)`.
// One copy for its callers (the cloth's columns, the vines): the browser's download is
// counted in bytes.
#[inline(never)]
pub(crate) fn solve_chains(chains: &mut [Chain<'_>; LANES], s: &mut LaneScratch) -> u32 {
    set_up(chains, s);
    let mut passes = 0;
    while passes < MAX_ACTIVE_SET_PASSES {
        passes += 1;
        if !solve_multipliers(s, passes == MAX_ACTIVE_SET_PASSES) {
            break;
        }
    }
    apply(s);
    let [a, b, c, d] = chains;
    let nodes = a.x.iter_mut().zip(b.x.iter_mut());
    let nodes = nodes.zip(c.x.iter_mut().zip(d.x.iter_mut()));
    for (((a, b), (c, d)), (x, y)) in nodes.zip(s.x.iter().zip(&s.y)) {
        let (x, y) = (x.as_array(), y.as_array());
        for (l, p) in [a, b, c, d].into_iter().enumerate() {
            *p = Vec2::new(x[l], y[l]);
        }
    }
    passes
}

/// `solve_chains` on `LANES` chains of `nodes` nodes laid one after another in `x` (with their
/// inverse masses in `w`), all with the rest lengths `rest`: a cloth's columns.
pub(crate) fn solve_adjacent_chains(
    x: &mut [Vec2],
    w: &[f32],
    nodes: usize,
    s: &mut LaneScratch,
    rest: Rests,
) -> u32 {
    assert_eq!(x.len(), LANES * nodes);
    let mut columns = x.chunks_exact_mut(nodes).zip(w.chunks_exact(nodes));
    let mut chains = [(); LANES].map(|_| {
        let (x, w) = columns.next().expect("LANES columns");
        Chain { x, w, rest }
    });
    solve_chains(&mut chains, s)
}

/// `solve_chains` on `first` and up to three `more` (all of one node count): lanes left over
/// solve copies of `first`, whose results are dropped. Returns the passes it took.
pub(crate) fn solve_up_to_four<'a>(
    first: Chain<'a>,
    mut more: impl Iterator<Item = Chain<'a>>,
    s: &mut LaneScratch,
) -> u32 {
    let mut spare = std::mem::take(&mut s.spare);
    spare.clear();
    spare.reserve((LANES - 1) * first.x.len());
    for _ in 1..LANES {
        spare.extend_from_slice(first.x);
    }
    let (w, rest) = (first.w, first.rest);
    let mut spare_chains = spare.chunks_exact_mut(first.x.len()).map(|x| Chain {
        x: &mut x[..],
        w,
        rest,
    });
    let mut chains = [Some(first), more.next(), more.next(), more.next()].map(|chain| {
        chain.unwrap_or_else(|| spare_chains.next().expect("three spares for three lanes"))
    });
    assert!(more.next().is_none(), "at most four chains");
    let passes = solve_chains(&mut chains, s);
    s.spare = spare;
    passes
}

impl LaneScratch {
    /// The multipliers of lane `lane`'s chain from the last `solve_chains`, one per segment.
    pub(crate) fn multipliers(&self, lane: usize) -> impl Iterator<Item = f32> + '_ {
        self.rhs.iter().map(move |lambda| lambda.as_array()[lane])
    }
}

/// Gathers the chains into the lanes and sets each segment's direction and error (zero for a
/// slack one), as `solve_chain` does before its passes.
fn set_up(chains: &[Chain<'_>; LANES], s: &mut LaneScratch) {
    let [a, b, c, d] = chains;
    let nodes = a.x.len();
    assert!(
        nodes >= 2
            && chains
                .iter()
                .all(|c| c.x.len() == nodes && c.w.len() == nodes),
        "side-by-side chains of one node count, a mass per node"
    );
    let n = nodes - 1;
    // Each buffer takes its size at once: `step_free_all`'s scratch is new every step, and
    // growing one push at a time reallocated each buffer five times a step (2 % of a stress tick).
    for buffer in [&mut s.x, &mut s.y, &mut s.w] {
        buffer.clear();
        buffer.reserve(nodes);
    }
    for r in 0..nodes {
        s.x.push(Lanes::new([a.x[r].x, b.x[r].x, c.x[r].x, d.x[r].x]));
        s.y.push(Lanes::new([a.x[r].y, b.x[r].y, c.x[r].y, d.x[r].y]));
        s.w.push(Lanes::new([a.w[r], b.w[r], c.w[r], d.w[r]]));
    }
    for buffer in [&mut s.dir_x, &mut s.dir_y, &mut s.error, &mut s.rhs] {
        buffer.resize(n, Lanes::ZERO);
    }
    s.upper.resize(n + 1, Lanes::ZERO);
    let nominal_m = Lanes::new(chains.each_ref().map(|c| c.rest.nominal_m));
    let last_m = Lanes::new(chains.each_ref().map(|c| c.rest.last_m));
    let taut_from = Lanes::splat(1.0 - TAUT_TOLERANCE);
    let segments = s
        .dir_x
        .iter_mut()
        .zip(s.dir_y.iter_mut())
        .zip(s.error.iter_mut())
        .zip(s.x.windows(2).zip(s.y.windows(2)));
    for (i, (((dir_x, dir_y), error), (x, y))) in segments.enumerate() {
        let rest_m = if i == n - 1 { last_m } else { nominal_m };
        let (dx, dy) = (x[1] - x[0], y[1] - y[0]);
        let len = (dx * dx + dy * dy).sqrt();
        let taut = len.simd_gt(rest_m * taut_from) & len.simd_gt(Lanes::splat(MIN_SEGMENT_M));
        let inv_len = Lanes::ONE / len;
        *dir_x = taut.select(dx * inv_len, Lanes::ZERO);
        *dir_y = taut.select(dy * inv_len, Lanes::ZERO);
        *error = taut.select(rest_m - len, Lanes::ZERO);
    }
}

/// `solve_multipliers` lane by lane: the Thomas algorithm's forward sweep and back substitution,
/// letting go the segments that push (or on the `last_pass`, zeroing their multipliers).
/// Returns whether any lane let one go.
fn solve_multipliers(s: &mut LaneScratch, last_pass: bool) -> bool {
    let n = s.rhs.len();
    let (mut prev_dir_x, mut prev_dir_y) = (Lanes::ZERO, Lanes::ZERO);
    let (mut prev_rhs, mut prev_inv_pivot) = (Lanes::ZERO, Lanes::ZERO);
    let rows = s
        .dir_x
        .iter()
        .zip(&s.dir_y)
        .zip(&s.error)
        .zip(s.w.windows(2))
        .zip(s.upper[..n].iter_mut().zip(s.rhs.iter_mut()));
    for ((((&dir_x, &dir_y), &error), w), (upper, rhs)) in rows {
        let coupling = -w[0] * (prev_dir_x * dir_x + prev_dir_y * dir_y);
        *upper = coupling * prev_inv_pivot;
        let pivot = w[0] + w[1] - coupling * *upper;
        // Both ends immovable, or the segment slack: λ = 0.
        let slack = dir_x.simd_eq(Lanes::ZERO) & dir_y.simd_eq(Lanes::ZERO);
        let acts = pivot.simd_gt(Lanes::splat(1e-12));
        let inv_pivot = slack.select(Lanes::ZERO, acts.select(Lanes::ONE / pivot, Lanes::ZERO));
        *rhs = (error - coupling * prev_rhs) * inv_pivot;
        (prev_dir_x, prev_dir_y, prev_rhs, prev_inv_pivot) = (dir_x, dir_y, *rhs, inv_pivot);
    }
    s.upper[n] = Lanes::ZERO;
    let mut next_lambda = Lanes::ZERO;
    let mut released = Lanes::ZERO;
    let rows = s
        .rhs
        .iter_mut()
        .zip(&s.upper[1..])
        .zip(s.dir_x.iter_mut().zip(s.dir_y.iter_mut()))
        .zip(s.error.iter_mut())
        .rev();
    for (((rhs, &upper), (dir_x, dir_y)), error) in rows {
        next_lambda = *rhs - upper * next_lambda;
        let pushes = next_lambda.simd_gt(Lanes::ZERO);
        if last_pass {
            *rhs = pushes.select(Lanes::ZERO, next_lambda);
        } else {
            *rhs = next_lambda;
            *dir_x = pushes.select(Lanes::ZERO, *dir_x);
            *dir_y = pushes.select(Lanes::ZERO, *dir_y);
            *error = pushes.select(Lanes::ZERO, *error);
            released |= pushes;
        }
    }
    released.any()
}

/// Δx_j = w_j (λ_{j−1} d_{j−1} − λ_j d_j), as `solve_chain`.
fn apply(s: &mut LaneScratch) {
    let mut next_lambda = Lanes::ZERO;
    let (mut next_dir_x, mut next_dir_y) = (Lanes::ZERO, Lanes::ZERO);
    let nodes = s.x[1..]
        .iter_mut()
        .zip(s.y[1..].iter_mut())
        .zip(&s.w[1..])
        .zip(s.dir_x.iter().zip(&s.dir_y).zip(&s.rhs))
        .rev();
    for (((x, y), &weight), ((&dir_x, &dir_y), &lambda)) in nodes {
        *x += (dir_x * lambda - next_dir_x * next_lambda) * weight;
        *y += (dir_y * lambda - next_dir_y * next_lambda) * weight;
        (next_lambda, next_dir_x, next_dir_y) = (lambda, dir_x, dir_y);
    }
    s.x[0] -= next_dir_x * (next_lambda * s.w[0]);
    s.y[0] -= next_dir_y * (next_lambda * s.w[0]);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::solver::{solve_chain, ChainScratch};

    const REST: Rests = Rests {
        nominal_m: 0.1,
        last_m: 0.07,
    };

    /// A deterministic source of numbers in [0, 1).
    pub(crate) fn numbers(mut seed: u32) -> impl FnMut() -> f32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed >> 8) as f32 / (1 << 24) as f32
        }
    }

    /// `LANES` random chains of `nodes` nodes near their rest length, wandering by up to
    /// `wander_rad` per segment (so some segments are taut, some slack, some would push), the
    /// first node most often and now and then others pinned, some chains pinned at both ends.
    fn random_chains(
        random: &mut impl FnMut() -> f32,
        nodes: usize,
        wander_rad: f32,
    ) -> (Vec<Vec2>, Vec<f32>) {
        let (mut x, mut w) = (Vec::new(), Vec::new());
        for _ in 0..LANES {
            let mut p = Vec2::new(random(), random());
            let heading = random() * 6.0;
            let pinned_end = random() < 0.2;
            for r in 0..nodes {
                x.push(p);
                let turn = heading + (random() - 0.5) * wander_rad;
                p += Vec2::new(libm::cosf(turn), libm::sinf(turn)) * (0.097 + random() * 0.01);
                let pinned =
                    (r == 0 && random() < 0.8) || (pinned_end && r == nodes - 1) || random() < 0.05;
                w.push(if pinned { 0.0 } else { 0.5 + random() });
            }
        }
        (x, w)
    }

    /// Rest lengths for lane `l` of a trial: the same in all lanes (a cloth's columns) or each
    /// its own (a row of vines, one of them reeling).
    fn rests(random: &mut impl FnMut() -> f32, differ: bool) -> [Rests; LANES] {
        [(); LANES].map(|_| {
            if differ {
                Rests {
                    nominal_m: 0.095 + random() * 0.01,
                    last_m: 0.04 + random() * 0.1,
                }
            } else {
                REST
            }
        })
    }

    /// Each chain comes out of the side-by-side solve as `solve_chain` leaves it alone, with the
    /// same multipliers, over solves that let segments go on one, two and three passes (lanes
    /// finishing on different passes), with rest lengths alike and differing.
    #[test]
    fn four_chains_side_by_side_match_each_solved_alone() {
        let mut random = numbers(0x9e37_79b9);
        let (mut chain, mut lanes) = (ChainScratch::default(), LaneScratch::default());
        let mut passes_taken = [0; MAX_ACTIVE_SET_PASSES as usize + 1];
        for trial in 0..3000 {
            let (nodes, wander_rad) = [(12, 2.0), (24, 2.0), (40, 4.5)][trial % 3];
            let (x, w) = random_chains(&mut random, nodes, wander_rad);
            let rests = rests(&mut random, trial % 2 == 1);
            let mut together = x.clone();
            let mut chains = {
                let mut columns = together.chunks_exact_mut(nodes).zip(w.chunks_exact(nodes));
                let mut lane = 0;
                [(); LANES].map(|_| {
                    let (x, w) = columns.next().unwrap();
                    lane += 1;
                    Chain {
                        x,
                        w,
                        rest: rests[lane - 1],
                    }
                })
            };
            passes_taken[solve_chains(&mut chains, &mut lanes) as usize] += 1;
            assert_ne!(together, x, "the solve moved nothing");
            let mut alone = x.clone();
            let columns = alone.chunks_exact_mut(nodes).zip(w.chunks_exact(nodes));
            for (l, (column, weights)) in columns.enumerate() {
                solve_chain(column, weights, &mut chain, rests[l]);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                let lane_multipliers: Vec<f32> = lanes.multipliers(l).collect();
                assert_eq!(bits(&chain.rhs), bits(&lane_multipliers), "lane {l}");
            }
            for (a, b) in alone.iter().zip(&together) {
                assert_eq!(
                    (a.x.to_bits(), a.y.to_bits()),
                    (b.x.to_bits(), b.y.to_bits())
                );
            }
        }
        assert!(
            passes_taken[1] > 0 && passes_taken[2] > 0 && passes_taken[3] > 0,
            "passes taken: {passes_taken:?}"
        );
    }

    /// The last pass (rarely reached in a solve) zeroes the multipliers that push instead of
    /// letting their segments go, lane by lane as `super::solve_multipliers` does.
    #[test]
    fn the_last_pass_clamps_as_the_single_chain_solve() {
        let mut random = numbers(0x85eb_ca6b);
        let nodes = 24;
        let (mut chain, mut lanes) = (ChainScratch::default(), LaneScratch::default());
        let mut clamped = 0;
        for _ in 0..200 {
            let (mut x, w) = random_chains(&mut random, nodes, 2.0);
            let n = nodes - 1;
            let mut columns = x.chunks_exact_mut(nodes).zip(w.chunks_exact(nodes));
            let chains = [(); LANES].map(|_| {
                let (x, w) = columns.next().unwrap();
                Chain { x, w, rest: REST }
            });
            set_up(&chains, &mut lanes);
            solve_multipliers(&mut lanes, true);
            for (l, weights) in w.chunks_exact(nodes).enumerate() {
                chain.dir.clear();
                chain.error.clear();
                chain.dir.extend((0..n).map(|i| {
                    Vec2::new(lanes.dir_x[i].to_array()[l], lanes.dir_y[i].to_array()[l])
                }));
                chain
                    .error
                    .extend((0..n).map(|i| lanes.error[i].to_array()[l]));
                chain.rhs.resize(n, 0.0);
                chain.upper.resize(n + 1, 0.0);
                super::super::solve_multipliers(weights, &mut chain, true);
                for i in 0..n {
                    assert_eq!(chain.rhs[i].to_bits(), lanes.rhs[i].to_array()[l].to_bits());
                    clamped += usize::from(chain.rhs[i] == 0.0 && chain.dir[i] != Vec2::ZERO);
                }
            }
        }
        assert!(clamped > 0, "no multiplier was clamped");
    }
}
