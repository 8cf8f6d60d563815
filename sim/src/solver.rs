//! The chain solver the rope and the cloth share: the distance constraints of a chain of point
//! masses solved directly (a tridiagonal system, one Thomas-algorithm sweep, O(N)), as an
//! active set so that a segment never pushes. `lanes` solves four chains at once in vector
//! registers, each to the same bits as alone.

use crate::math::Vec2;

pub(crate) mod lanes;

/// Below this a segment's length is treated as zero (its direction is undefined).
pub(crate) const MIN_SEGMENT_M: f32 = 1e-9;
/// A segment within this fraction of its rest length counts as taut and joins the chain solve
/// (which then lets it go if it would have to push). Gravity moves a hanging chain's nodes by
/// far less than this per substep, so a hanging rope's segments are all solved together.
const TAUT_TOLERANCE: f32 = 0.01;
/// Most times per chain solve the taut set is narrowed (segments that would push let go).
const MAX_ACTIVE_SET_PASSES: u32 = 4;

#[derive(Clone, Default)]
pub(crate) struct ChainScratch {
    /// Unit direction of each taut segment; zero for a slack one.
    dir: Vec<Vec2>,
    /// Constraint error `rest − length` of each taut segment.
    error: Vec<f32>,
    /// The Thomas algorithm's modified right-hand side, then λ.
    pub(crate) rhs: Vec<f32>,
    /// The Thomas algorithm's modified super-diagonal.
    upper: Vec<f32>,
    /// The blocks of rows (`Block`) the next active-set pass solves again, and the ones the
    /// pass after it will: those in which a segment was let go.
    redo: Vec<Block>,
    redo_next: Vec<Block>,
}

/// Rows `first..boundary` of the chain's system between two slack segments: `boundary` is a
/// slack row or `n`, and `first` is 0 or follows a slack row. A slack row (its direction zero)
/// couples to its neighbours by exactly ±0, its multiplier comes out exactly +0 and the row
/// after it starts the forward sweep afresh, so a block's multipliers depend only on its own
/// rows, to the bit: letting a segment go changes only its own block's.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Block {
    first: usize,
    boundary: usize,
}

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
    let w = &w[..x.len()];
    set_up_rows(x, s, rest);
    solve_active_set(w, s);
    move_nodes(x, w, s);
}

/// Each segment's row of the system: its unit direction and error if taut, zero if slack.
fn set_up_rows(x: &[Vec2], s: &mut ChainScratch, rest: Rests) {
    let n = x.len() - 1;
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
}

/// The nodes moved by the multipliers in `s.rhs`: Δx_j = w_j (λ_{j−1} d_{j−1} − λ_j d_j).
fn move_nodes(x: &mut [Vec2], w: &[f32], s: &ChainScratch) {
    let n = x.len() - 1;
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

/// The active-set passes of `solve_chain`: the whole chain first (as two blocks when a slack
/// row lies near its middle), then again only the blocks in which a segment was let go
/// (`Block`): the others' multipliers would come out the same bits. A whip's heap of rope has
/// many slack segments, so its blocks are short: the passes after the first solved 59 rows of
/// 199 on average on whip-200.
fn solve_active_set(w: &[f32], s: &mut ChainScratch) {
    let n = s.dir.len();
    s.upper[n] = 0.0;
    s.redo.clear();
    s.redo.extend(split_at_middle_slack_row(&s.dir));
    for pass in 1..=MAX_ACTIVE_SET_PASSES {
        let last_pass = pass == MAX_ACTIVE_SET_PASSES;
        let mut redo = std::mem::take(&mut s.redo);
        s.redo_next.clear();
        // Two blocks' forward sweeps side by side: each is a chain of dependent divisions,
        // so the processor overlaps the two.
        for pair in redo.chunks(2) {
            match *pair {
                [a, b] => forward_sweep_pair(w, s, a, b),
                [a] => forward_sweep(w, s, a),
                _ => unreachable!("chunks of two"),
            }
        }
        for &block in &redo {
            back_substitute(s, block, last_pass);
        }
        redo.clear();
        s.redo = std::mem::replace(&mut s.redo_next, redo);
        if s.redo.is_empty() {
            break;
        }
    }
}

/// The whole chain's rows as one block, or as two when a slack row lies within a quarter of
/// the chain's middle (the slack row itself in neither): two blocks' sweeps can overlap.
fn split_at_middle_slack_row(dir: &[Vec2]) -> impl Iterator<Item = Block> {
    let n = dir.len();
    let middle = n / 2;
    let reach = n / 4;
    let slack = |i: &usize| dir[*i] == Vec2::ZERO;
    let after = (middle..(middle + reach).min(n)).find(slack);
    let before = (middle.saturating_sub(reach)..middle).rev().find(slack);
    let split = match (before, after) {
        (Some(b), Some(a)) => Some(if middle - b <= a - middle { b } else { a }),
        (b, a) => b.or(a),
    };
    let blocks = match split {
        Some(m) => [
            Some(Block {
                first: 0,
                boundary: m,
            }),
            Some(Block {
                first: m + 1,
                boundary: n,
            }),
        ],
        None => [
            Some(Block {
                first: 0,
                boundary: n,
            }),
            None,
        ],
    };
    blocks.into_iter().flatten()
}

/// Solves `J M⁻¹ Jᵀ λ = −C` for the segments whose direction is set (the others have λ = 0 and
/// no coupling), leaving λ in `s.rhs`. Diagonal `w_i + w_{i+1}`, off-diagonal
/// `−w_{i+1} d_i·d_{i+1}`; the matrix is diagonally dominant, so the sweep needs no pivoting.
///
/// λ > 0 would push the segment's ends apart, which a rope cannot: such a segment is let go
/// slack (its direction cleared) and `true` returned so the caller solves again, or on the
/// `last_pass` its λ is set to 0.
#[cfg(test)]
fn solve_multipliers(w: &[f32], s: &mut ChainScratch, last_pass: bool) -> bool {
    let n = s.dir.len();
    s.upper[n] = 0.0;
    s.redo_next.clear();
    let whole = Block {
        first: 0,
        boundary: n,
    };
    forward_sweep(w, s, whole);
    back_substitute(s, whole, last_pass);
    !s.redo_next.is_empty()
}

/// What the forward sweep carries from one row to the next. Row `first` of a block follows a
/// slack row or none: zero direction, zero right-hand side, zero inverse pivot.
#[derive(Clone, Copy, Default)]
struct SweepCarry {
    dir: Vec2,
    rhs: f32,
    inv_pivot: f32,
}

/// One row of the forward sweep (direction `d`, error `e`, its ends' inverse masses `w_a`,
/// `w_b`): returns its modified right-hand side and the row before's modified upper. The
/// matrix is symmetric: the coupling of rows i−1 and i is c_i = −w_i d_{i−1}·d_i, both row i's
/// lower and row i−1's upper.
#[inline(always)]
fn forward_row(carry: &mut SweepCarry, d: Vec2, e: f32, w_a: f32, w_b: f32) -> (f32, f32) {
    let coupling = -w_a * carry.dir.dot(d);
    // Row i−1's upper (0 · 0 for the first row, which has none).
    let prev_upper = coupling * carry.inv_pivot;
    let pivot = w_a + w_b - coupling * prev_upper;
    // Both ends immovable, or the segment slack: the constraint cannot act (λ = 0).
    let inv_pivot = if pivot > 1e-12 && d != Vec2::ZERO {
        1.0 / pivot
    } else {
        0.0
    };
    let rhs = (e - coupling * carry.rhs) * inv_pivot;
    *carry = SweepCarry {
        dir: d,
        rhs,
        inv_pivot,
    };
    (rhs, prev_upper)
}

/// The rows the forward sweep of `block` writes: through the boundary's slack row too, as the
/// row before it reads its `upper` (±0, whose sign follows the row before's direction).
fn swept_rows(block: Block, n: usize) -> std::ops::Range<usize> {
    block.first..(block.boundary + 1).min(n)
}

/// The forward sweep of one block: `s.rhs` and `s.upper` of its rows.
fn forward_sweep(w: &[f32], s: &mut ChainScratch, block: Block) {
    let rows = swept_rows(block, s.dir.len());
    let mut carry = SweepCarry::default();
    // `upper[i]` is row i−1's modified super-diagonal (`upper[0]` is unused, `upper[n]` 0).
    for ((((&d, &e), r), up), ends) in s.dir[rows.clone()]
        .iter()
        .zip(&s.error[rows.clone()])
        .zip(&mut s.rhs[rows.clone()])
        .zip(&mut s.upper[rows.clone()])
        .zip(w[rows.start..=rows.end].windows(2))
    {
        (*r, *up) = forward_row(&mut carry, d, e, ends[0], ends[1]);
    }
}

/// The forward sweeps of two blocks, a row of each in turn: the same bits as one after the
/// other (the blocks share no row), in about the time of the longer.
fn forward_sweep_pair(w: &[f32], s: &mut ChainScratch, a: Block, b: Block) {
    let n = s.dir.len();
    let (rows_a, rows_b) = (swept_rows(a, n), swept_rows(b, n));
    let (mut carry_a, mut carry_b) = (SweepCarry::default(), SweepCarry::default());
    for k in 0..rows_a.len().max(rows_b.len()) {
        for (rows, carry) in [(&rows_a, &mut carry_a), (&rows_b, &mut carry_b)] {
            let i = rows.start + k;
            if i < rows.end {
                (s.rhs[i], s.upper[i]) = forward_row(carry, s.dir[i], s.error[i], w[i], w[i + 1]);
            }
        }
    }
}

/// The back substitution of one block after its forward sweep: λ in `s.rhs`, the segments
/// that push let go (or on the `last_pass` their λ zeroed), each block of it that let one go
/// added to `s.redo_next`.
fn back_substitute(s: &mut ChainScratch, block: Block, last_pass: bool) {
    let Block { first, boundary } = block;
    let rows = boundary - first;
    let (dir, rhs) = (&mut s.dir[first..boundary], &mut s.rhs[first..boundary]);
    let upper = &s.upper[first..=boundary];
    // Back substitution: λ_i = rhs_i − upper_i λ_{i+1}, letting go the segments that push.
    // The boundary's slack row has λ = +0 exactly, the start value.
    let mut next_lambda = 0.0f32;
    // The block being walked (back to front) ends at `block_end`; whether it let one go.
    let mut block_end = boundary;
    let mut released = false;
    for (row, (((r, &up), d), e)) in rhs[..rows]
        .iter_mut()
        .zip(&upper[1..=rows])
        .zip(dir[..rows].iter_mut())
        .zip(s.error[first..boundary].iter_mut())
        .enumerate()
        .rev()
    {
        next_lambda = *r - up * next_lambda;
        *r = next_lambda;
        if *d == Vec2::ZERO {
            // A slack row (its λ is +0): the rows after it up to `block_end` are a block.
            if released {
                s.redo_next.push(Block {
                    first: first + row + 1,
                    boundary: block_end,
                });
            }
            (block_end, released) = (first + row, false);
        } else if next_lambda > 0.0 {
            if last_pass {
                *r = 0.0;
            } else {
                *d = Vec2::ZERO;
                *e = 0.0;
                released = true;
            }
        }
    }
    if released {
        s.redo_next.push(Block {
            first,
            boundary: block_end,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lanes::tests::numbers;

    /// `solve_chain` as it was before the passes after the first re-solved only the blocks
    /// that let a segment go: every pass over the whole chain.
    fn solve_chain_every_row_every_pass(
        x: &mut [Vec2],
        w: &[f32],
        s: &mut ChainScratch,
        rest: Rests,
    ) {
        set_up_rows(x, s, rest);
        for pass in 1..=MAX_ACTIVE_SET_PASSES {
            if !solve_multipliers(w, s, pass == MAX_ACTIVE_SET_PASSES) {
                break;
            }
        }
        move_nodes(x, w, s);
    }

    /// A heap of `nodes` nodes: runs of taut segments (some stretched, some pushed a little
    /// short, so that solves let segments go), broken by clearly slack ones; a few nodes pinned.
    /// A `crumpled` one turns sharply and sits near its rest length, so that letting segments go
    /// cascades over passes; otherwise it takes one or two.
    fn heap(
        random: &mut impl FnMut() -> f32,
        nodes: usize,
        crumpled: bool,
    ) -> (Vec<Vec2>, Vec<f32>) {
        let (turn_rad, shortest_m, spread_m) = if crumpled {
            (5.0, 0.0991, 0.0012)
        } else {
            (2.5, 0.0985, 0.004)
        };
        let (mut x, mut w) = (Vec::new(), Vec::new());
        let mut p = Vec2::new(random(), random());
        let mut heading = random() * 6.0;
        for i in 0..nodes {
            x.push(p);
            w.push(if i == 0 || random() < 0.03 {
                0.0
            } else {
                0.5 + random()
            });
            heading += (random() - 0.5) * turn_rad;
            let length_m = if random() < 0.1 {
                0.05 * random()
            } else {
                shortest_m + random() * spread_m
            };
            p += Vec2::new(libm::cosf(heading), libm::sinf(heading)) * length_m;
        }
        (x, w)
    }

    /// Re-solving only the blocks in which a segment was let go gives every node and every
    /// multiplier the bits that re-solving the whole chain on every pass gives, over heaps that
    /// take one to four passes.
    #[test]
    fn re_solving_only_the_blocks_that_let_go_changes_no_bit() {
        let mut random = numbers(0x2545_f491);
        let (mut blocks, mut whole) = (ChainScratch::default(), ChainScratch::default());
        let rest = Rests {
            nominal_m: 0.1,
            last_m: 0.06,
        };
        let mut passes_taken = [0usize; MAX_ACTIVE_SET_PASSES as usize + 1];
        for trial in 0..2000 {
            let (x, w) = heap(&mut random, [12, 60, 200][trial % 3], trial % 2 == 0);
            let (mut by_blocks, mut by_whole) = (x.clone(), x.clone());
            solve_chain(&mut by_blocks, &w, &mut blocks, rest);
            solve_chain_every_row_every_pass(&mut by_whole, &w, &mut whole, rest);
            let bits = |v: &[Vec2]| {
                v.iter()
                    .map(|p| (p.x.to_bits(), p.y.to_bits()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(bits(&by_blocks), bits(&by_whole), "trial {trial}: nodes");
            let bits = |v: &[f32]| v.iter().map(|l| l.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&blocks.rhs),
                bits(&whole.rhs),
                "trial {trial}: multipliers"
            );
            assert_eq!(blocks.dir, whole.dir, "trial {trial}: segments let go");
            // Count the passes the whole-chain solve took: one more than the times it let go.
            let mut again = ChainScratch::default();
            set_up_rows(&x, &mut again, rest);
            let passes = (1..=MAX_ACTIVE_SET_PASSES)
                .find(|&p| !solve_multipliers(&w, &mut again, p == MAX_ACTIVE_SET_PASSES))
                .unwrap_or(MAX_ACTIVE_SET_PASSES);
            passes_taken[passes as usize] += 1;
        }
        assert!(
            passes_taken[1..].iter().all(|&t| t > 0),
            "passes taken: {passes_taken:?}"
        );
    }
}
