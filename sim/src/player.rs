//! The player's platformer movement: run, jump (coyote time, buffering, variable height),
//! gravity with a capped fall, and collision through Rapier's kinematic character controller.

use rapier2d::parry::shape::Cuboid;

use super::event::Event;
use super::geometry::{Body, Geometry};
use super::input::InputFrame;
use super::math::{approach, Pose, Vec2};
use super::tuning::{
    PlayerTuning, Tuning, STUMBLE_MAX_AIR_TICKS, STUMBLE_MAX_GAIN_M_PER_S, TICK_DT_S,
};

/// Gap kept between the player and surfaces, so a resting player is never counted as inside.
const SKIN_M: f32 = 0.005;
/// How far below its feet the player looks for ground after moving.
const GROUND_PROBE_M: f32 = 0.02;
/// Depenetration passes per tick (the rope can pull the player a little into a corner).
const DEPENETRATION_PASSES: usize = 4;
/// Overlap left at the end of a tick that the final settle removes (see `settle_out_of_solids`).
const SETTLE_DEPTH_M: f32 = 0.002;

#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub pos: Vec2,
    pub vel: Vec2,
    pub grounded: bool,
    /// Ticks left in which a jump is still allowed after leaving the ground.
    pub coyote_ticks_left: u32,
    /// Ticks since jump was last pressed, while that press can still fire a jump (buffering).
    pub jump_pressed_ticks_ago: Option<u32>,
    /// Ticks left in which holding jump keeps the take-off speed.
    pub variable_jump_ticks_left: u32,
    /// -1 or +1; which way the player last moved, for aiming without a mouse.
    pub facing: i8,
    /// Let go of a rope and not yet landed or steered against the motion: air drag does not
    /// apply, so the swing's momentum is kept exactly.
    pub flung: bool,
    /// The moving body the player stands on (a platform, a winch's load), if any.
    pub ground_body: Option<Body>,
    /// How fast the ground under the player moved this tick: given to the player when they
    /// jump or walk off it, so leaving a moving platform keeps its motion.
    pub ground_velocity: Vec2,
    /// The moving body's velocity handed on when the ground was lost, while landing again
    /// would still be a stumble (`STUMBLE_MAX_AIR_TICKS`): taken back if it is, so a body's
    /// velocity is handed on once per real departure (see `take_back_a_stumbles_velocity`).
    pub stumble_velocity: Vec2,
    /// Ticks the player has ended off the ground in a row; kept through the tick they land on,
    /// so that landing can tell a stumble from a flight.
    pub air_ticks: u32,
}

/// A moving body's velocity given to the player as they left it, or a stumble's taken back as
/// they landed on it again (`Player::move_and_collide`): the player's velocity just before and
/// just after. Read by the energy account only, which books the change to the moving solid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyHandOn {
    pub before_m_per_s: Vec2,
    pub after_m_per_s: Vec2,
}

/// What `Player::move_and_collide` met on its way.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Collided {
    /// A moving body's velocity handed on or taken back (`BodyHandOn`).
    pub hand_on: Option<BodyHandOn>,
    /// What stopped the move's horizontal and vertical parts, if anything did: the surface's
    /// normal (out of it) and its body.
    pub stopped_by: [Option<(Vec2, Body)>; 2],
}

/// What the movement rules decided for this tick, before collision.
pub struct Intent {
    pub jumped: bool,
}

impl Player {
    pub fn new(pos: Vec2) -> Player {
        Player {
            pos,
            vel: Vec2::ZERO,
            grounded: false,
            coyote_ticks_left: 0,
            jump_pressed_ticks_ago: None,
            variable_jump_ticks_left: 0,
            facing: 1,
            flung: false,
            ground_body: None,
            ground_velocity: Vec2::ZERO,
            stumble_velocity: Vec2::ZERO,
            air_ticks: 0,
        }
    }

    pub fn shape(tuning: &PlayerTuning) -> Cuboid {
        Cuboid::new(Vec2::new(tuning.half_width_m, tuning.half_height_m))
    }

    /// Jump timers and the jump itself. Runs first each tick, so a coyote jump is decided from
    /// the last tick's ground contact, to the tick.
    pub fn update_jump(
        &mut self,
        input: &InputFrame,
        tuning: &PlayerTuning,
        events: &mut Vec<Event>,
    ) -> Intent {
        let buffer_ticks = Tuning::ticks(tuning.jump_buffer_time_s);
        self.jump_pressed_ticks_ago = if input.jump_pressed {
            Some(0)
        } else {
            self.jump_pressed_ticks_ago
                .map(|ago| ago + 1)
                .filter(|&ago| ago <= buffer_ticks)
        };
        if self.grounded {
            self.coyote_ticks_left = Tuning::ticks(tuning.coyote_time_s);
        }
        let jumped = self.jump_pressed_ticks_ago.is_some() && self.coyote_ticks_left > 0;
        if jumped {
            self.start_jump(tuning, events);
        } else if !self.grounded {
            self.coyote_ticks_left = self.coyote_ticks_left.saturating_sub(1);
        }
        if self.variable_jump_ticks_left > 0 && !jumped {
            if input.jump_held {
                self.vel.y = self.vel.y.max(tuning.jump_speed_m_per_s);
                self.variable_jump_ticks_left -= 1;
            } else {
                // Let go early: cut the rise for a short hop.
                if self.vel.y > 0.0 {
                    self.vel.y *= tuning.jump_cut_factor;
                }
                self.variable_jump_ticks_left = 0;
            }
        }
        Intent { jumped }
    }

    /// A buffered press fires on the very tick the player lands (as in Celeste), so a press up to
    /// the buffer window before touching down still jumps. Runs after the move.
    pub fn jump_if_buffered_on_landing(
        &mut self,
        tuning: &PlayerTuning,
        events: &mut Vec<Event>,
    ) -> bool {
        if self.grounded && self.jump_pressed_ticks_ago.is_some() {
            self.start_jump(tuning, events);
            true
        } else {
            false
        }
    }

    fn start_jump(&mut self, tuning: &PlayerTuning, events: &mut Vec<Event>) {
        // Jumping off a moving platform keeps its motion (rising platforms launch higher).
        self.vel.x += self.ground_velocity.x;
        self.vel.y = tuning.jump_speed_m_per_s + self.ground_velocity.y.max(0.0);
        self.ground_velocity = Vec2::ZERO;
        // A jump is a real departure: what a stumble handed on is kept.
        self.stumble_velocity = Vec2::ZERO;
        self.ground_body = None;
        self.variable_jump_ticks_left = Tuning::ticks(tuning.variable_jump_time_s);
        self.jump_pressed_ticks_ago = None;
        self.coyote_ticks_left = 0;
        self.grounded = false;
        events.push(Event::Jumped);
    }

    /// Run and air control, gravity and the fall cap, for a player not hanging on a rope, in
    /// air moving at `air` (zero outside wind zones).
    pub fn apply_run_and_gravity(&mut self, input: &InputFrame, tuning: &PlayerTuning, air: Vec2) {
        let dt = TICK_DT_S;
        // Control works relative to the wind: the speed the player settles at, running or
        // standing, is shifted by a share of the air's (Celeste's wind does the same).
        let target_vx =
            input.move_x.signum() as f32 * tuning.run_speed_m_per_s + air.x * tuning.wind_carry;
        if input.move_x != 0 {
            self.facing = input.move_x.signum();
        }
        // Accelerate toward the target; decelerate when there is no input or when above run speed
        // in the input's direction (so a fast rope release is not clipped by air control).
        let (accel, decel) = if self.grounded {
            (tuning.ground_accel_m_per_s2, tuning.ground_decel_m_per_s2)
        } else {
            (tuning.air_accel_m_per_s2, tuning.air_decel_m_per_s2)
        };
        let opposing = input.move_x != 0 && self.vel.x.signum() != target_vx.signum();
        if self.grounded || opposing {
            self.flung = false;
        }
        if !self.flung {
            let rate = if input.move_x == 0 { decel } else { accel };
            self.vel.x = approach(self.vel.x, target_vx, rate * dt);
        } else {
            if input.move_x != 0 && self.vel.x.abs() < tuning.run_speed_m_per_s {
                // Flung but slower than running: steering the same way may still speed up.
                self.vel.x = approach(self.vel.x, target_vx, accel * dt);
            }
            // Flung: no control pulls toward the wind's speed, but the wind still pushes.
            if air.x != 0.0 {
                self.vel.x += wind_push(self.vel, Vec2::new(air.x, 0.0), tuning).x * dt;
            }
        }

        let near_apex =
            self.vel.y.abs() < tuning.apex_threshold_m_per_s && input.jump_held && !self.grounded;
        let gravity_scale = if near_apex {
            tuning.apex_gravity_scale
        } else {
            1.0
        };
        // On the ground there is no gravity step: pushing the box into the floor every tick made
        // the character controller stop short on flat ground now and then (a visible stutter).
        // Ground snapping keeps the player on a floor that falls away.
        if !self.grounded || self.vel.y > 0.0 {
            self.vel.y -= tuning.gravity_m_per_s2 * gravity_scale * dt;
            if air.y != 0.0 {
                self.vel.y += wind_push(self.vel, Vec2::new(0.0, air.y), tuning).y * dt;
            }
            self.vel.y = self.vel.y.max(-tuning.max_fall_speed_m_per_s);
        }
    }

    /// The wind's push on a swinging player: an acceleration downwind (see `wind_push`).
    pub fn apply_wind_while_swinging(&mut self, air: Vec2, tuning: &PlayerTuning) {
        if air != Vec2::ZERO {
            self.vel += wind_push(self.vel, air, tuning) * TICK_DT_S;
        }
    }

    /// Moves the player by `desired` through the level: first out of any overlap, then along x,
    /// then along y, each a Rapier shape cast (the classic platformer order: a wall stops only the
    /// horizontal part, so the player slides down walls instead of sticking). Velocity going into
    /// whatever was hit is removed; ground contact is probed below the feet; `Landed` is emitted.
    /// Returns what stopped the move and the velocity a moving body handed on or took back
    /// (`Collided`).
    pub fn move_and_collide(
        &mut self,
        desired: Vec2,
        geometry: &Geometry,
        tuning: &PlayerTuning,
        events: &mut Vec<Event>,
    ) -> Collided {
        let shape = Self::shape(tuning);
        self.depenetrate(geometry, &shape);
        let impact_speed_m_per_s = -self.vel.y;
        let mut stopped_by = [None; 2];
        let axis_deltas = [Vec2::new(desired.x, 0.0), Vec2::new(0.0, desired.y)];
        for (axis_delta, stopped) in axis_deltas.into_iter().zip(&mut stopped_by) {
            if let Some((normal, body)) = self.move_along(axis_delta, geometry, &shape) {
                let into_surface = self.vel.dot(normal);
                if into_surface < 0.0 {
                    self.vel -= normal * into_surface;
                }
                *stopped = Some((normal, body));
            }
        }
        let was_grounded = self.grounded;
        let ground = if self.vel.y <= 1e-3 {
            self.ground_below(geometry, &shape, tuning)
        } else {
            None
        };
        self.grounded = ground.is_some();
        let before_m_per_s = self.vel;
        if was_grounded && !self.grounded && self.ground_body.is_some() {
            // Walked off a moving body (or it dropped away for a tick): keep its motion.
            self.vel += self.ground_velocity;
            self.stumble_velocity = self.ground_velocity;
        }
        self.ground_body = ground.filter(|&body| body != Body::Fixed);
        // Counted from the tick the ground went: a landing's tick keeps the count it landed
        // with, so a stumble right after a stumble's landing must not add to it.
        self.air_ticks = match (self.grounded, was_grounded) {
            (true, true) => 0,
            (true, false) => self.air_ticks,
            (false, true) => 1,
            (false, false) => self.air_ticks.saturating_add(1),
        };
        if self.grounded && !was_grounded {
            self.take_back_a_stumbles_velocity(tuning);
        } else if !self.landed_from_a_stumble() {
            self.stumble_velocity = Vec2::ZERO;
        }
        let hand_on = (self.vel != before_m_per_s).then_some(BodyHandOn {
            before_m_per_s,
            after_m_per_s: self.vel,
        });
        if self.grounded {
            self.vel.y = 0.0;
            if !was_grounded {
                events.push(Event::Landed {
                    impact_speed_m_per_s: impact_speed_m_per_s.max(0.0),
                });
            }
        }
        Collided {
            hand_on,
            stopped_by,
        }
    }

    /// Landing on a moving body from a stumble (`landed_from_a_stumble`) takes back the velocity
    /// the stumble handed on, as far as the player is faster than running plus
    /// `STUMBLE_MAX_GAIN_M_PER_S` relative to the body: the carry moves the player with the body
    /// again, so keeping it all would count the body's motion twice. Kept, it was added once
    /// per stumble and never taken off: a player running on 14 Drawbridge's swinging bridge,
    /// which dropped away from under them for a tick every 3 to 6 ticks, went from 8 to 59 m/s
    /// in 24 ticks (issue 32). Vertical motion is the carry's alone (a grounded player's `vel.y`
    /// is zero).
    fn take_back_a_stumbles_velocity(&mut self, tuning: &PlayerTuning) {
        let handed_on_m_per_s = self.stumble_velocity.x;
        self.stumble_velocity = Vec2::ZERO;
        let same_way = handed_on_m_per_s * self.vel.x > 0.0;
        if self.ground_body.is_none() || !self.landed_from_a_stumble() || !same_way {
            return;
        }
        let limit_m_per_s = tuning.run_speed_m_per_s + STUMBLE_MAX_GAIN_M_PER_S;
        let excess_m_per_s = (self.vel.x.abs() - limit_m_per_s).max(0.0);
        self.vel.x -= handed_on_m_per_s.clamp(-excess_m_per_s, excess_m_per_s);
    }

    /// True while the ground has been gone for at most `STUMBLE_MAX_AIR_TICKS` (on a landing's
    /// tick: the landing ended a stumble, not a flight).
    pub fn landed_from_a_stumble(&self) -> bool {
        self.air_ticks <= STUMBLE_MAX_AIR_TICKS
    }

    /// Moves by `delta` until the first solid; returns that solid's surface normal if one was hit.
    fn move_along(
        &mut self,
        delta: Vec2,
        geometry: &Geometry,
        shape: &Cuboid,
    ) -> Option<(Vec2, Body)> {
        if delta.length_squared() < 1e-14 {
            return None;
        }
        let pose = Pose::from_translation(self.pos);
        let hit = match geometry.cast_shape_on_solids(&pose, delta, shape, SKIN_M) {
            // Already within the skin of a surface this move slides along or leaves (the floor
            // under a run, pressed a little closer by a rope): it does not block the move. Look
            // again, without the skin, for what does. (It stopped the player dead on the floor
            // while a reeling rope pulled, building up speed it could not spend.)
            Some((_, hit)) if hit.time_of_impact <= 0.0 && hit.normal1.dot(delta) <= 0.0 => {
                geometry.cast_shape_on_solids(&pose, delta, shape, 0.0)
            }
            other => other,
        };
        match hit {
            Some((tag, hit)) if hit.time_of_impact < 1.0 => {
                self.pos += delta * hit.time_of_impact;
                Some((hit.normal1, tag.body))
            }
            _ => {
                self.pos += delta;
                None
            }
        }
    }

    /// The body of the walkable surface right under the player, if there is one.
    fn ground_below(
        &self,
        geometry: &Geometry,
        shape: &Cuboid,
        tuning: &PlayerTuning,
    ) -> Option<Body> {
        let pose = Pose::from_translation(self.pos);
        let probe = Vec2::new(0.0, -(GROUND_PROBE_M + SKIN_M));
        geometry
            .cast_shape_on_solids(&pose, probe, shape, 0.0)
            .filter(|(_, hit)| {
                hit.time_of_impact < 1.0 && hit.normal1.y >= tuning.ground_normal_min_y
            })
            .map(|(tag, _)| tag.body)
    }

    /// Moves the player with the body they stand on (by `delta`), then out of anything that
    /// body pushed them into. Being squeezed is left for the crush check.
    pub fn carry(
        &mut self,
        delta: Vec2,
        geometry: &Geometry,
        tuning: &PlayerTuning,
        _events: &mut Vec<Event>,
    ) {
        let shape = Self::shape(tuning);
        self.pos += delta;
        self.depenetrate(geometry, &shape);
    }

    /// The tick's last word on overlap: a player left more than `SETTLE_DEPTH_M` inside a solid
    /// (a swinging load that rose into them after they moved, a rope pull into a moving body)
    /// is pushed out. Resting contact (the skin) is left alone, so still play is unchanged.
    pub fn settle_out_of_solids(&mut self, geometry: &Geometry, tuning: &PlayerTuning) {
        let shape = Self::shape(tuning);
        let pose = Pose::from_translation(self.pos);
        if geometry
            .deepest_solid_overlap(&pose, &shape)
            .is_some_and(|(_, depth)| depth > SETTLE_DEPTH_M)
        {
            self.depenetrate(geometry, &shape);
        }
    }

    /// Pushes the player out of solids it overlaps (after a rope pull or a spawn on an edge).
    fn depenetrate(&mut self, geometry: &Geometry, shape: &Cuboid) {
        for _ in 0..DEPENETRATION_PASSES {
            let pose = Pose::from_translation(self.pos);
            let Some((out, depth)) = geometry.deepest_solid_overlap(&pose, shape) else {
                return;
            };
            self.pos += out * (depth + SKIN_M);
            let into_surface = self.vel.dot(out);
            if into_surface < 0.0 {
                self.vel -= out * into_surface;
            }
        }
    }
}

/// Acceleration downwind on a player moving at `vel` in air moving at `air`: the pull rate times
/// how much slower than the air the player goes along it; never upwind, so the wind pushes but
/// does not brake a player moving faster than it (nor damp a swing across it).
fn wind_push(vel: Vec2, air: Vec2, tuning: &PlayerTuning) -> Vec2 {
    let speed_m_per_s = air.length();
    if speed_m_per_s == 0.0 {
        return Vec2::ZERO;
    }
    let downwind = air / speed_m_per_s;
    let along_m_per_s = vel.dot(downwind);
    downwind * (tuning.wind_pull_per_s * (speed_m_per_s - along_m_per_s).max(0.0))
}
