//! A camera that follows the player smoothly, looks ahead in the direction of motion and keeps
//! the hook's target in view. Its zoom follows the level's `view_height_m`.

use crate::sim::hook::Hook;
use crate::sim::math::Vec2;
use crate::sim::World;

/// Seconds of velocity the camera looks ahead by.
const LOOK_AHEAD_S: f32 = 0.35;
/// The look-ahead is capped at this fraction of the view height.
const MAX_LOOK_AHEAD_FRACTION: f32 = 0.22;
/// How quickly the camera closes the distance to its target (1/s, exponential).
const FOLLOW_RATE_PER_S: f32 = 6.0;
/// Zoom out at most this much to keep a far anchor in view.
const MAX_ZOOM_OUT: f32 = 1.5;
/// Fraction of the view (each side) kept as margin around what must be seen.
const VIEW_MARGIN_FRACTION: f32 = 0.12;

pub struct CameraState {
    pub center: Vec2,
    /// Metres of world shown vertically.
    pub view_height_m: f32,
    look_ahead: Vec2,
}

impl CameraState {
    pub fn new(world: &World) -> CameraState {
        CameraState {
            center: world.player.pos,
            view_height_m: world.level.view_height_m,
            look_ahead: Vec2::ZERO,
        }
    }

    /// A y-up macroquad camera showing `view_height_m` of world around `center`. (macroquad's
    /// screen is y-down, hence the negative vertical zoom.)
    pub fn to_camera2d(&self, aspect: f32) -> macroquad::camera::Camera2D {
        let view_h = self.view_height_m;
        macroquad::camera::Camera2D {
            target: crate::app::render::mq(self.center),
            zoom: macroquad::math::vec2(2.0 / (view_h * aspect), -2.0 / view_h),
            ..Default::default()
        }
    }

    /// Jumps to the player (after a respawn or level load): no smear across a teleport.
    pub fn snap(&mut self, world: &World) {
        *self = CameraState::new(world);
    }

    /// Moves toward the framing wanted for `player_pos` (the interpolated drawing position).
    pub fn update(&mut self, world: &World, player_pos: Vec2, aspect: f32, dt_s: f32) {
        let base_height = world.level.view_height_m;
        let max_ahead = base_height * MAX_LOOK_AHEAD_FRACTION;
        let wanted_ahead = world.player.vel * LOOK_AHEAD_S;
        let wanted_ahead = if wanted_ahead.length() > max_ahead {
            wanted_ahead.normalize() * max_ahead
        } else {
            wanted_ahead
        };
        let blend = 1.0 - (-FOLLOW_RATE_PER_S * dt_s).exp();
        self.look_ahead += (wanted_ahead - self.look_ahead) * blend;

        let mut target = player_pos + self.look_ahead;
        let mut height = base_height;
        // Keep the hook (or the anchor it holds) in view with the player.
        let hook_point = match &world.hook {
            Hook::Flying { pos, .. } | Hook::Retracting { pos } => Some(*pos),
            Hook::Attached { rope, .. } => Some(rope.anchor()),
            Hook::Idle => None,
        };
        if let Some(point) = hook_point {
            let min = player_pos.min(point);
            let max = player_pos.max(point);
            let span = max - min;
            let needed_h =
                (span.y.max(span.x / aspect.max(0.1))) / (1.0 - 2.0 * VIEW_MARGIN_FRACTION);
            height = needed_h.clamp(base_height, base_height * MAX_ZOOM_OUT);
            target = target.lerp((min + max) * 0.5, 0.5);
        }
        self.view_height_m += (height - self.view_height_m) * blend;
        self.center += (target - self.center) * blend;
    }
}
