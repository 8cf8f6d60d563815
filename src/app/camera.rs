//! A camera that follows the player smoothly, looks ahead in the direction of motion and keeps
//! the hook's target in view. Its zoom follows the level's `view_height_m`.

use crate::sim::hook::Hook;
use crate::sim::math::Vec2;
use crate::sim::{Event, World};

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
/// Screen shake: the largest offset (fraction of the view height) at full trauma, how fast
/// trauma drains (per second), and what adds it. The offset grows with trauma squared, so small
/// knocks barely move the view while a death shakes it.
const SHAKE_MAX_FRACTION: f32 = 0.025;
const SHAKE_DECAY_PER_S: f32 = 2.5;
const SHAKE_ON_DEATH: f32 = 0.8;
/// Landings faster than this (m/s) shake, more the harder they are, up to `SHAKE_LANDING_MAX`.
const SHAKE_LANDING_FROM_M_PER_S: f32 = 14.0;
const SHAKE_LANDING_PER_M_PER_S: f32 = 0.06;
const SHAKE_LANDING_MAX: f32 = 0.6;

pub struct CameraState {
    pub center: Vec2,
    /// Metres of world shown vertically.
    pub view_height_m: f32,
    /// Where `center` sits across the screen, in normalized device units from the middle (-1 to
    /// 1): 0 in play; the editor moves it to the middle of the area between its side panels.
    pub center_offset_x_ndc: f32,
    look_ahead: Vec2,
    /// 0..1; drives the shake offset.
    trauma: f32,
    shake_ticks: u64,
    /// Whether the view shakes: the player's setting (Assists screen), always off when the
    /// environment says `TETHER_SCREEN_SHAKE=off`.
    shake_enabled: bool,
    /// `TETHER_SCREEN_SHAKE` is not `off` (read once).
    shake_allowed_by_env: bool,
}

impl CameraState {
    pub fn new(world: &World) -> CameraState {
        CameraState {
            center: world.player().pos,
            view_height_m: world.level().view_height_m,
            center_offset_x_ndc: 0.0,
            look_ahead: Vec2::ZERO,
            trauma: 0.0,
            shake_ticks: 0,
            shake_enabled: shake_enabled_by_env(),
            shake_allowed_by_env: shake_enabled_by_env(),
        }
    }

    /// Follows the player's screen-shake setting (unless the environment turned shaking off).
    pub fn set_shake(&mut self, on: bool) {
        self.shake_enabled = on && self.shake_allowed_by_env;
    }

    /// A y-up macroquad camera showing `view_height_m` of world around `center`. (macroquad's
    /// screen is y-down, hence the negative vertical zoom.)
    pub fn to_camera2d(&self, aspect: f32) -> macroquad::camera::Camera2D {
        view_camera(
            self.center,
            self.view_height_m,
            aspect,
            self.center_offset_x_ndc,
        )
    }

    /// The camera for drawing: `to_camera2d` moved by the screen shake. (Aiming uses the
    /// unshaken camera, so a shake never moves the reticle's target.)
    pub fn to_camera2d_shaken(&self, aspect: f32) -> macroquad::camera::Camera2D {
        let mut camera = self.to_camera2d(aspect);
        camera.target += crate::app::render::mq(self.shake_offset());
        camera
    }

    /// The shake's offset in metres: two incommensurate sines per axis, from the tick count,
    /// so a replay's screenshot shakes the same way every time.
    pub fn shake_offset(&self) -> Vec2 {
        if !self.shake_enabled || self.trauma <= 0.0 {
            return Vec2::ZERO;
        }
        let t = self.shake_ticks as f32;
        let amount = self.trauma * self.trauma * SHAKE_MAX_FRACTION * self.view_height_m;
        Vec2::new(
            (t * 1.7).sin() * 0.6 + (t * 2.9).sin() * 0.4,
            (t * 2.3).sin() * 0.6 + (t * 3.7).sin() * 0.4,
        ) * amount
    }

    /// After each tick: hard landings and deaths add trauma; it drains with time.
    pub fn on_tick(&mut self, events: &[Event], dt_s: f32) {
        self.shake_ticks += 1;
        for event in events {
            match event {
                Event::Died { .. } => self.trauma += SHAKE_ON_DEATH,
                Event::Landed {
                    impact_speed_m_per_s,
                } => {
                    let over = impact_speed_m_per_s.abs() - SHAKE_LANDING_FROM_M_PER_S;
                    if over > 0.0 {
                        self.trauma += (over * SHAKE_LANDING_PER_M_PER_S).min(SHAKE_LANDING_MAX);
                    }
                }
                _ => {}
            }
        }
        self.trauma = (self.trauma - SHAKE_DECAY_PER_S * dt_s).clamp(0.0, 1.0);
    }

    /// Jumps to the player (after a respawn or level load): no smear across a teleport. A
    /// shake going on (a death) carries on.
    pub fn snap(&mut self, world: &World) {
        let (trauma, ticks, enabled) = (self.trauma, self.shake_ticks, self.shake_enabled);
        *self = CameraState::new(world);
        self.trauma = trauma;
        self.shake_ticks = ticks;
        self.shake_enabled = enabled;
    }

    /// Moves toward the framing wanted for `player_pos` (the interpolated drawing position).
    pub fn update(&mut self, world: &World, player_pos: Vec2, aspect: f32, dt_s: f32) {
        let base_height = world.level().view_height_m;
        let max_ahead = base_height * MAX_LOOK_AHEAD_FRACTION;
        let wanted_ahead = world.player().vel * LOOK_AHEAD_S;
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
        let hook_point = match world.hook() {
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

/// Screen shake is on unless `TETHER_SCREEN_SHAKE` is `off` or `0`.
fn shake_enabled_by_env() -> bool {
    !matches!(
        std::env::var("TETHER_SCREEN_SHAKE").as_deref(),
        Ok("off") | Ok("0")
    )
}

/// A y-up macroquad camera showing `view_height_m` of world, `center` placed
/// `center_offset_x_ndc` across the screen from its middle (play and the editor share it).
pub fn view_camera(
    center: Vec2,
    view_height_m: f32,
    aspect: f32,
    center_offset_x_ndc: f32,
) -> macroquad::camera::Camera2D {
    macroquad::camera::Camera2D {
        target: crate::app::render::mq(center),
        zoom: macroquad::math::vec2(2.0 / (view_height_m * aspect), -2.0 / view_height_m),
        offset: macroquad::math::vec2(center_offset_x_ndc, 0.0),
        ..Default::default()
    }
}
