//! The air on a cloth: the wind's drag across each thread (four threads at a time in vector
//! lanes where the air is uniform), split half to each end.

use super::{Air, Cloth, CLOTH_DRAG_N_S2_PER_M3, PARTICLE_MASS_KG};
use crate::math::Vec2;

impl Cloth {
    /// Drag across every intact structural thread, half to each end, as a velocity change. All
    /// the threads see the particles' velocities at the start of the tick (the forces are
    /// summed per particle, then applied), so the columns and rows are independent loops.
    pub(super) fn apply_wind(&mut self, air: Air<'_>, dt_s: f32) {
        match air {
            Air::Still => {}
            Air::Uniform(velocity) if velocity == Vec2::ZERO => {}
            air => self.apply_drag(air, dt_s),
        }
    }

    pub(super) fn apply_drag(&mut self, air: Air<'_>, dt_s: f32) {
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
}

/// Half the wind's drag on each thread from `ends.0[k]` to `ends.1[k]` (as
/// `math::segment_drag_n`, the thread moving at its ends' mean velocity) into `out[k]`; none on a
/// torn thread or in still air (outside the wind a cloth feels no air: its damping settles it).
pub(super) fn half_drags(
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
pub(super) fn half_drags_by_four(
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
