//! Vector types of the simulation: rapier's glam-based 2D types. Units are metres and seconds,
//! world y points up. The renderer converts to macroquad's own glam at its boundary.

pub use rapier2d::math::{Pose, Rotation, Vector as Vec2};

/// A rotation from degrees through libm, so that levels load to the same bits on every target
/// (std's sin/cos differ between native and wasm32).
pub fn rotation_from_deg(degrees: f32) -> Rotation {
    let radians = degrees as f64 * std::f64::consts::PI / 180.0;
    Rotation::from_cos_sin_unchecked(libm::cos(radians) as f32, libm::sin(radians) as f32)
}

/// Deterministic cosine and sine for angles computed in the simulation.
pub fn cos_sin(radians: f32) -> (f32, f32) {
    (libm::cosf(radians), libm::sinf(radians))
}

/// Moves `value` toward `target` by at most `max_delta`.
pub fn approach(value: f32, target: f32, max_delta: f32) -> f32 {
    if value < target {
        (value + max_delta).min(target)
    } else {
        (value - max_delta).max(target)
    }
}

/// Sorts a short list by `key`, stably (an insertion sort): for lists of a few dozen at most,
/// where the library's sorts cost kilobytes of the browser's download per element type.
pub fn sort_short_by_key<T, K: PartialOrd>(items: &mut [T], key: impl Fn(&T) -> K) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && key(&items[j - 1]) > key(&items[j]) {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Drag on the line element `a → b` moving at `velocity` through air moving at `air`, newtons:
/// `F = c · L · |v_n| · v_n` with `v_n` the relative air velocity's component across the
/// element and `c` the drag per metre (½ ρ C_d × the element's width, folded into one tuning
/// number). Along the element there is none: a rope slides through air along its length.
pub fn segment_drag_n(a: Vec2, b: Vec2, velocity: Vec2, air: Vec2, drag_n_s2_per_m3: f32) -> Vec2 {
    let along = b - a;
    let length_m = along.length();
    if length_m < 1e-6 {
        return Vec2::ZERO;
    }
    let normal = along.perp() / length_m;
    let across_m_per_s = (air - velocity).dot(normal);
    normal * (drag_n_s2_per_m3 * length_m * across_m_per_s * across_m_per_s.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drag_acts_only_across_a_segment() {
        let (a, b) = (Vec2::ZERO, Vec2::new(0.0, -1.0));
        // Air blowing along the segment: no force.
        let along = segment_drag_n(a, b, Vec2::ZERO, Vec2::new(0.0, 5.0), 1.0);
        assert_eq!(along, Vec2::ZERO);
        // Across: c L v², toward where the air goes.
        let across = segment_drag_n(a, b, Vec2::ZERO, Vec2::new(4.0, 0.0), 0.5);
        assert!((across - Vec2::new(8.0, 0.0)).length() < 1e-5, "{across}");
        // Moving with the air: none.
        let with = segment_drag_n(a, b, Vec2::new(4.0, 0.0), Vec2::new(4.0, 0.0), 0.5);
        assert!(with.length() < 1e-6);
    }

    /// The library's stable sort's order: by key, ties in the order they came.
    #[test]
    fn short_sort_is_the_stable_sort() {
        let mut seed = 7u32;
        for len in 0..40 {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    ((seed >> 28) as u8, i)
                })
                .collect();
            let mut ours = items.clone();
            sort_short_by_key(&mut ours, |item| item.0);
            let mut library = items;
            library.sort_by_key(|item| item.0);
            assert_eq!(ours, library, "{len} items");
        }
    }
}
