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
