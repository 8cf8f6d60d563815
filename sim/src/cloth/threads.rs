//! The cloth's threads: each column solved directly as a chain (four columns at a time), then
//! the horizontal, shear and bending threads projected once per substep, pulling only.

use super::{Cloth, BEND_STIFFNESS, SHEAR_STIFFNESS};
use crate::math::Vec2;
use crate::solver::lanes;
use crate::solver::solve_chain;
use crate::solver::Rests;

impl Cloth {
    /// One Gauss-Seidel pass over the horizontal threads, pull only, a pair of neighbouring
    /// columns at a time: the threads of one row form a chain, but rows share no particle, so
    /// this is the order of a row-by-row pass and its result, with the inner loop running down
    /// two contiguous columns (no bounds checks, no branches: the compiler vectorises it).
    pub(super) fn project_across(&mut self) {
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
    pub(super) fn project_shear(&mut self) {
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
    pub(super) fn project_bending(&mut self) {
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
    pub(super) fn solve_columns(&mut self) {
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
}

/// Columns `a` < `b` of a column-major grid of `rows` as two mutable position slices and their
/// inverse masses.
pub(super) fn column_pair<'a>(
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
pub(super) fn pull(
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
pub(super) fn pull_rows(
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
