//! The player character, drawn from shapes: a rounded body with a visor, legs and arms, animated
//! from the simulation's state (idle, run, jump, fall, swing leaning with the rope) and events
//! (a squash on landing, a stretch on jumping). The animation advances on the game's ticks, so a
//! replay draws the same way every time; it only reads the world.

use macroquad::color::Color;
use macroquad::math::{vec2, Vec2 as MqVec2};
use macroquad::shapes::{draw_circle, draw_line, draw_triangle};

use crate::app::palette;
use crate::sim::hook::Hook;
use crate::sim::{Event, World};

/// Squash or stretch of one landing or jump: a damped spring returns the body to its shape.
const SPRING_RATE_PER_S2: f32 = 260.0;
const SPRING_DAMPING_PER_S: f32 = 14.0;
/// Impact speed (m/s) that gives the deepest landing squash.
const HARD_LANDING_M_PER_S: f32 = 20.0;
const MAX_SQUASH: f32 = 0.35;
const JUMP_STRETCH: f32 = 0.22;
/// Stride: radians of the run cycle per metre run.
const STRIDE_RAD_PER_M: f32 = 4.2;
/// Most the body leans while swinging, radians.
const MAX_SWING_LEAN_RAD: f32 = 1.0;
/// How quickly lean and facing follow what they should be (1/s, exponential).
const LEAN_RATE_PER_S: f32 = 12.0;

#[derive(Clone, Debug, Default)]
pub struct PlayerAnim {
    /// Positive stretches (taller, thinner), negative squashes.
    squash: f32,
    squash_vel: f32,
    run_phase_rad: f32,
    lean_rad: f32,
    /// -1..1, eases through 0 when the player turns.
    facing: f32,
    time_s: f32,
}

impl PlayerAnim {
    pub fn on_event(&mut self, event: &Event) {
        match event {
            Event::Landed {
                impact_speed_m_per_s,
            } => {
                let depth = (impact_speed_m_per_s.abs() / HARD_LANDING_M_PER_S).min(1.0);
                self.squash = -MAX_SQUASH * (0.3 + 0.7 * depth);
                self.squash_vel = 0.0;
            }
            Event::Jumped => {
                self.squash = JUMP_STRETCH;
                self.squash_vel = 0.0;
            }
            Event::Respawned => *self = PlayerAnim::default(),
            _ => {}
        }
    }

    /// One tick of animation time.
    pub fn tick(&mut self, world: &World, dt_s: f32) {
        self.time_s += dt_s;
        let accel = -SPRING_RATE_PER_S2 * self.squash - SPRING_DAMPING_PER_S * self.squash_vel;
        self.squash_vel += accel * dt_s;
        self.squash += self.squash_vel * dt_s;
        let player = world.player();
        if player.grounded {
            self.run_phase_rad += player.vel.x.abs() * dt_s * STRIDE_RAD_PER_M;
        }
        let blend = 1.0 - (-LEAN_RATE_PER_S * dt_s).exp();
        let facing = if self.facing == 0.0 && player.facing == 0 {
            1.0
        } else {
            player.facing as f32
        };
        self.facing += (facing - self.facing) * blend;
        let wanted_lean = match world.hook() {
            Hook::Attached { rope, .. } if !player.grounded => {
                // Lean so the head points along the rope toward the anchor.
                let up = rope.anchor() - player.pos;
                (-up.x)
                    .atan2(up.y)
                    .clamp(-MAX_SWING_LEAN_RAD, MAX_SWING_LEAN_RAD)
            }
            _ if player.grounded => -player.vel.x * 0.025,
            _ => -player.vel.x * 0.015,
        };
        self.lean_rad += (wanted_lean - self.lean_rad) * blend;
    }
}

/// Draws the player centred at `pos` (the interpolated position). `rope_end_dir` points from the
/// player toward the next rope node when attached, for the hand that holds it.
pub fn draw_player(
    anim: &PlayerAnim,
    world: &World,
    pos: MqVec2,
    rope_end_dir: Option<MqVec2>,
    alpha: f32,
) {
    let sprite = Sprite::new(anim, world, pos, alpha);
    let player = world.player();
    let pose = Pose {
        airborne: !player.grounded,
        attached: matches!(world.hook(), Hook::Attached { .. }),
        speed: player.vel.x.abs(),
        rising: player.vel.y > 0.0,
        phase: anim.run_phase_rad,
    };
    sprite.draw_legs(&pose);
    let (y0, y1) = sprite.draw_body(anim, &pose, world.tuning().player.half_width_m);
    sprite.draw_visor(anim, y1, world.tuning().player.half_width_m);
    sprite.draw_arms(&pose, rope_end_dir, y0);
}

/// What the limbs follow: in the air or not, on the rope or not, how fast, and the stride.
struct Pose {
    airborne: bool,
    attached: bool,
    speed: f32,
    rising: bool,
    phase: f32,
}

/// The player's frame on screen: local coordinates (x toward the facing side, y up from the
/// feet, in metres) squashed, turned and faded as the animation says.
struct Sprite {
    pos: MqVec2,
    sx: f32,
    sy: f32,
    facing: f32,
    sin: f32,
    cos: f32,
    half_height_m: f32,
    alpha: f32,
}

/// Thickness of a limb, metres.
const LIMB_M: f32 = 0.11;

impl Sprite {
    fn new(anim: &PlayerAnim, world: &World, pos: MqVec2, alpha: f32) -> Sprite {
        let s = anim.squash.clamp(-0.5, 0.5);
        let (sx, sy) = if s >= 0.0 {
            (1.0 - s * 0.5, 1.0 + s)
        } else {
            (1.0 - s * 0.8, 1.0 + s)
        };
        let facing = if anim.facing.abs() < 0.2 {
            0.2_f32.copysign(anim.facing + 1e-3)
        } else {
            anim.facing
        };
        let (sin, cos) = anim.lean_rad.sin_cos();
        Sprite {
            pos,
            sx,
            sy,
            facing,
            sin,
            cos,
            half_height_m: world.tuning().player.half_height_m,
            alpha,
        }
    }

    /// A local point on screen.
    fn at(&self, x: f32, y: f32) -> MqVec2 {
        let lx = x * self.sx * self.facing;
        let ly = y * self.sy - self.half_height_m;
        self.pos + vec2(lx * self.cos - ly * self.sin, lx * self.sin + ly * self.cos)
    }

    fn color(&self, c: palette::Rgb) -> Color {
        c.with_alpha(self.alpha)
    }

    /// The quad of local corners `(x0, y0)`–`(x1, y1)`.
    fn rect(&self, (x0, y0): (f32, f32), (x1, y1): (f32, f32), color: Color) {
        let (a, b, c, d) = (
            self.at(x0, y0),
            self.at(x1, y0),
            self.at(x1, y1),
            self.at(x0, y1),
        );
        draw_triangle(a, b, c, color);
        draw_triangle(a, c, d, color);
    }

    fn draw_legs(&self, pose: &Pose) {
        let phase = pose.phase;
        // Feet (x, y) for each leg.
        let feet = if !pose.airborne {
            if pose.speed > 0.5 {
                let lift = |p: f32| p.cos().max(0.0) * 0.16;
                [
                    (phase.sin() * 0.24, lift(phase)),
                    (-phase.sin() * 0.24, lift(phase + std::f32::consts::PI)),
                ]
            } else {
                [(-0.14, 0.0), (0.14, 0.0)]
            }
        } else if pose.attached {
            [(0.05, 0.08), (-0.2, 0.14)]
        } else if pose.rising {
            // Rising: knees tucked.
            [(0.14, 0.2), (-0.08, 0.14)]
        } else {
            // Falling: legs reaching down.
            [(0.18, 0.0), (-0.16, 0.04)]
        };
        let hip_y = 0.36;
        for (i, (fx, fy)) in feet.iter().enumerate() {
            let hip = self.at(if i == 0 { 0.1 } else { -0.1 }, hip_y);
            let foot = self.at(*fx, *fy);
            let color = if i == 0 {
                palette::PLAYER_DARK
            } else {
                palette::PLAYER_EYE
            };
            draw_line(hip.x, hip.y, foot.x, foot.y, LIMB_M, self.color(color));
            draw_circle(foot.x, foot.y, LIMB_M * 0.6, self.color(color));
        }
    }

    /// A rounded box from the hips to the top of the head, and a belt to show its squash.
    /// Returns the body's bottom and top (local y).
    fn draw_body(&self, anim: &PlayerAnim, pose: &Pose, hw: f32) -> (f32, f32) {
        let bob = if !pose.airborne && pose.speed < 0.5 {
            (anim.time_s * 3.0).sin() * 0.015
        } else {
            0.0
        };
        let (x0, x1) = (-hw, hw);
        let (y0, y1) = (0.3, 2.0 * self.half_height_m + bob);
        let r = 0.14;
        let body = self.color(palette::PLAYER);
        self.rect((x0 + r, y0), (x1 - r, y1), body);
        self.rect((x0, y0 + r), (x0 + r, y1 - r), body);
        self.rect((x1 - r, y0 + r), (x1, y1 - r), body);
        let corner_r = r * self.sx.min(self.sy);
        for (cx, cy) in [
            (x0 + r, y0 + r),
            (x1 - r, y0 + r),
            (x1 - r, y1 - r),
            (x0 + r, y1 - r),
        ] {
            let c = self.at(cx, cy);
            draw_circle(c.x, c.y, corner_r, body);
        }
        self.rect(
            (x0, y0 + 0.12),
            (x1, y0 + 0.18),
            self.color(palette::PLAYER_DARK),
        );
        (y0, y1)
    }

    /// Visor and eyes, toward the facing side; they blink now and then.
    fn draw_visor(&self, anim: &PlayerAnim, body_top: f32, hw: f32) {
        let visor_y = body_top - 0.3;
        self.rect(
            (-0.05, visor_y - 0.11),
            (hw - 0.02, visor_y + 0.11),
            self.color(palette::PLAYER_EYE),
        );
        let blink = (anim.time_s % 3.1) < 0.12;
        for ex in [0.1, 0.22] {
            let e = self.at(ex, visor_y);
            if blink {
                let a = self.at(ex - 0.04, visor_y);
                let b = self.at(ex + 0.04, visor_y);
                draw_line(a.x, a.y, b.x, b.y, 0.03, self.color(palette::TEXT));
            } else {
                draw_circle(e.x, e.y, 0.045, self.color(palette::TEXT));
            }
        }
    }

    /// Arms: one reaching up the rope while swinging, both swinging with the stride otherwise.
    fn draw_arms(&self, pose: &Pose, rope_end_dir: Option<MqVec2>, body_bottom: f32) {
        let shoulder_y = body_bottom + 0.32;
        let shoulders = [self.at(0.05, shoulder_y), self.at(-0.12, shoulder_y)];
        let hands: [MqVec2; 2] = match rope_end_dir {
            Some(dir) => {
                let reach = dir.normalize_or_zero() * 0.55;
                [shoulders[0] + reach, shoulders[1] + reach * 0.9]
            }
            None if pose.airborne => [
                self.at(0.38, shoulder_y + 0.22),
                self.at(-0.34, shoulder_y + 0.18),
            ],
            None => {
                let swing = if pose.speed > 0.5 {
                    pose.phase.sin() * 0.2
                } else {
                    0.0
                };
                [
                    self.at(0.12 - swing, shoulder_y - 0.3),
                    self.at(-0.16 + swing, shoulder_y - 0.3),
                ]
            }
        };
        let dark = self.color(palette::PLAYER_DARK);
        for (shoulder, hand) in shoulders.iter().zip(hands) {
            draw_line(shoulder.x, shoulder.y, hand.x, hand.y, LIMB_M * 0.85, dark);
            draw_circle(hand.x, hand.y, LIMB_M * 0.6, dark);
        }
    }
}
