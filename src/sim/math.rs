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
