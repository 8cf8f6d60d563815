//! Winches: a rope from a fixed drum carrying a load (a weight, or a platform the player can
//! ride), reeled in and out between two lengths by a motor — on a timer, or while the player
//! presses a switch. The rope is the game's rope, stepped by the same solver with its load as a
//! heavy free end, so the load swings, and sags and bounces when the player lands on it, from
//! the solve and not from scripted motion.

use rapier2d::geometry::SharedShape;
use serde::{Deserialize, Serialize};

use super::{BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::{Body, ColliderKind, Geometry};
use crate::math::{Pose, Vec2};
use crate::rope::Rope;
use crate::shape::P;
use crate::tuning::{RopeTuning, Tuning, TICK_DT_S};

/// Most winches a level may hold.
pub const MAX_WINCHES: usize = 32;
/// Longest winch rope (its node count follows: 0.3 m segments).
pub const MAX_WINCH_LENGTH_M: f32 = 60.0;
/// Fastest reel.
pub const MAX_WINCH_SPEED_M_PER_S: f32 = 10.0;
/// Load masses allowed, kilograms.
pub const MIN_LOAD_KG: f32 = 1.0;
pub const MAX_LOAD_KG: f32 = 2000.0;
/// Largest platform or weight a winch carries (half size or radius).
pub const MAX_LOAD_HALF_SIZE_M: f32 = 5.0;
/// Gap between the rope's end node and the top of its load, so the segment that holds the
/// load never touches it (the rest of the rope may lie on it: `Rope::solid_place`).
const LOAD_GAP_M: f32 = 0.02;
/// The rope radius the load's collider is placed under (`LoadDef::body_collider`): the rope's
/// radius is a feel constant, and the gap under the end node covers any sane one.
const COLLIDER_ROPE_RADIUS_M: f32 = 0.05;
/// How deep a load may lie in the level's fixed solids and be left there; one deeper is moved
/// out to this depth (`WinchDef::keep_load_out_of_fixed_solids`). Not zero, so that a load
/// resting on a floor is not moved every tick by rounding.
const LOAD_MAX_DEPTH_IN_FIXED_M: f32 = 0.001;
/// Passes of `keep_load_out_of_fixed_solids`: each moves the load out of the deepest solid
/// it overlaps; a box pressed into a corner overlaps two.
const LOAD_OUT_PASSES: usize = 2;

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WinchDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The drum: where the rope is fixed.
    pub at: P,
    pub min_length_m: f32,
    pub max_length_m: f32,
    /// Rope length at the start (default: `max_length_m`, the load hanging low).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_length_m: Option<f32>,
    pub speed_m_per_s: f32,
    pub load: LoadDef,
    pub drive: DriveDef,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum LoadDef {
    /// A round weight hanging from the rope's end.
    Weight { radius_m: f32, mass_kg: f32 },
    /// A flat platform hanging from its middle: a rope elevator.
    Platform {
        half_extents: P,
        mass_kg: f32,
        #[serde(default = "yes")]
        hookable: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DriveDef {
    /// Reels in to `min_length_m`, waits `wait_s`, reels out to `max_length_m`, waits, again.
    Timer { wait_s: f32 },
    /// Reels in while the switch with this id is pressed, and out when it is not.
    Switch(String),
}

impl LoadDef {
    /// The load's collider as the level holds it (the player, the hook and other ropes meet
    /// this one), in the frame of the rope's end node.
    pub fn body_collider(&self) -> (SharedShape, Pose, bool) {
        self.collider(COLLIDER_ROPE_RADIUS_M)
    }

    pub fn mass_kg(&self) -> f32 {
        match self {
            LoadDef::Weight { mass_kg, .. } | LoadDef::Platform { mass_kg, .. } => *mass_kg,
        }
    }

    /// The load's collider in the frame of the rope's end node.
    pub fn collider(&self, rope_radius_m: f32) -> (SharedShape, Pose, bool) {
        match self {
            LoadDef::Weight { radius_m, .. } => (
                SharedShape::ball(*radius_m),
                Pose::from_translation(Vec2::new(0.0, -(radius_m + rope_radius_m + LOAD_GAP_M))),
                true,
            ),
            LoadDef::Platform {
                half_extents,
                hookable,
                ..
            } => (
                SharedShape::cuboid(half_extents.0, half_extents.1),
                Pose::from_translation(Vec2::new(
                    0.0,
                    -(half_extents.1 + rope_radius_m + LOAD_GAP_M),
                )),
                *hookable,
            ),
        }
    }
}

/// What a winch is doing.
#[derive(Clone, Debug, PartialEq)]
pub struct WinchState {
    pub rope: Rope,
    /// Timer drive: reeling in (toward the short length) rather than out.
    pub reeling_in: bool,
    /// Timer drive: ticks still to wait at the end of the travel.
    pub wait_ticks_left: u32,
}

impl WinchDef {
    fn start_length_m(&self) -> f32 {
        self.start_length_m.unwrap_or(self.max_length_m)
    }

    /// The winch at the start: its load hanging still, straight below the drum.
    pub fn start(&self, index: usize, tuning: &Tuning) -> WinchState {
        let at = self.at.v();
        let length_m = self.start_length_m();
        let mut rope = Rope::new(
            at,
            at - Vec2::new(0.0, length_m),
            self.max_length_m,
            &tuning.rope,
        );
        rope.set_end_mass_ratio(self.mass_ratio(&tuning.rope, 0.0));
        rope.set_carried_body(Some(Body::WinchLoad(index as u16)));
        rope.set_min_substeps(super::vine::WINCH_ROPE_MIN_SUBSTEPS);
        rope.set_sleeps_when_still(true);
        WinchState {
            rope,
            reeling_in: true,
            wait_ticks_left: 0,
        }
    }

    fn mass_ratio(&self, tuning: &RopeTuning, extra_kg: f32) -> f32 {
        let node_kg = tuning.player_mass_kg / tuning.player_mass_ratio.max(1e-3);
        (self.load.mass_kg() + extra_kg) / node_kg.max(1e-3)
    }

    /// One tick of the motor: reels the rope and sets the load it carries (the player's weight
    /// too when they stand on it). The rope's step follows, with the other winches' ropes
    /// (`World::step_objects`), so alike ropes solve side by side.
    pub fn reel(
        &self,
        state: &mut WinchState,
        switch_pressed: bool,
        rider_kg: f32,
        tuning: &Tuning,
    ) {
        let reel_m = self.speed_m_per_s * TICK_DT_S;
        let length_m = state.rope.length_m;
        let reel_in = match &self.drive {
            DriveDef::Switch(_) => Some(switch_pressed),
            DriveDef::Timer { wait_s } => {
                if state.wait_ticks_left > 0 {
                    state.wait_ticks_left -= 1;
                    None
                } else {
                    let arrived = if state.reeling_in {
                        length_m <= self.min_length_m + 1e-4
                    } else {
                        length_m >= self.max_length_m - 1e-4
                    };
                    if arrived {
                        state.reeling_in = !state.reeling_in;
                        state.wait_ticks_left = Tuning::ticks(*wait_s);
                        None
                    } else {
                        Some(state.reeling_in)
                    }
                }
            }
        };
        let target_m = match reel_in {
            Some(true) => length_m - reel_m,
            Some(false) => length_m + reel_m,
            None => length_m,
        };
        state
            .rope
            .set_length(target_m, self.min_length_m, self.max_length_m);
        state
            .rope
            .set_end_mass_ratio(self.mass_ratio(&tuning.rope, rider_kg));
    }

    /// The pose of the load's body: at the rope's end node.
    pub fn load_body_pose(state: &WinchState) -> Pose {
        Pose::from_translation(state.rope.end())
    }

    /// Keeps the load out of the level's fixed solids, after its rope's step. The load's box
    /// hangs under the rope's end node, and the rope's step collides only that node's ball
    /// with the level, so the box itself went through floors and walls: 14 Drawbridge's
    /// bridge swung 1.74 m into the far floor and 36 cm into the start floor's wall, over the
    /// player's hook (docs/rope.md, issue 32, stops 45 and 46). The end node is moved out with
    /// the box (`Rope::push_end_out`: no velocity added, the inward part taken off), so the
    /// load stops at the face it swung or was reeled into. Moving solids are left out: a
    /// platform's path and a winch's swing are each the level's, and neither stops the other.
    pub fn keep_load_out_of_fixed_solids(&self, state: &mut WinchState, geometry: &Geometry) {
        let (shape, in_body, _) = self.load.body_collider();
        for _ in 0..LOAD_OUT_PASSES {
            let pose = Self::load_body_pose(state) * in_body;
            match geometry.deepest_fixed_solid_overlap(&pose, shape.as_ref()) {
                Some((out, depth_m)) if depth_m > LOAD_MAX_DEPTH_IN_FIXED_M => {
                    state
                        .rope
                        .push_end_out(out, depth_m - LOAD_MAX_DEPTH_IN_FIXED_M);
                }
                _ => return,
            }
        }
    }
}

impl ObjectDef for WinchDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, level: &dyn LevelIds, issues: &mut Issues) {
        issues.point(&format!("{object}.at"), self.at);
        let lengths_ok = issues.in_range(
            object,
            "min_length_m",
            self.min_length_m,
            0.5,
            MAX_WINCH_LENGTH_M,
        ) & issues.in_range(
            object,
            "max_length_m",
            self.max_length_m,
            0.5,
            MAX_WINCH_LENGTH_M,
        );
        if lengths_ok && self.min_length_m >= self.max_length_m {
            issues.add(
                object,
                format!(
                    "its limits are inverted: min_length_m ({}) must be less than max_length_m ({})",
                    self.min_length_m, self.max_length_m
                ),
            );
        }
        if let Some(start) = self.start_length_m {
            if lengths_ok {
                issues.in_range(
                    object,
                    "start_length_m",
                    start,
                    self.min_length_m,
                    self.max_length_m,
                );
            }
        }
        issues.in_range(
            object,
            "speed_m_per_s",
            self.speed_m_per_s,
            0.01,
            MAX_WINCH_SPEED_M_PER_S,
        );
        self.load.check(object, issues);
        self.drive.check(object, level, issues);
    }

    fn colliders(
        &self,
        index: usize,
        _context: &BuildContext,
        out: &mut Vec<ColliderSpec>,
    ) -> Result<(), RejectedShape> {
        // The rope radius is a feel constant; the gap under the end node covers any sane one.
        let (shape, pose, hookable) = self.load.body_collider();
        out.push(ColliderSpec {
            shape,
            pose,
            kind: ColliderKind::Solid { hookable },
            body: Body::WinchLoad(index as u16),
        });
        Ok(())
    }
}
impl LoadDef {
    /// The load's size and mass within their limits.
    fn check(&self, object: &str, issues: &mut Issues) {
        match self {
            LoadDef::Weight { radius_m, mass_kg } => {
                issues.in_range(
                    object,
                    "load radius_m",
                    *radius_m,
                    0.05,
                    MAX_LOAD_HALF_SIZE_M,
                );
                issues.in_range(object, "load mass_kg", *mass_kg, MIN_LOAD_KG, MAX_LOAD_KG);
            }
            LoadDef::Platform {
                half_extents,
                mass_kg,
                ..
            } => {
                issues.in_range(
                    object,
                    "load half_extents.x",
                    half_extents.0,
                    0.05,
                    MAX_LOAD_HALF_SIZE_M,
                );
                issues.in_range(
                    object,
                    "load half_extents.y",
                    half_extents.1,
                    0.05,
                    MAX_LOAD_HALF_SIZE_M,
                );
                issues.in_range(object, "load mass_kg", *mass_kg, MIN_LOAD_KG, MAX_LOAD_KG);
            }
        }
    }
}

impl DriveDef {
    /// A timer's wait within its limit; a switch that exists.
    fn check(&self, object: &str, level: &dyn LevelIds, issues: &mut Issues) {
        match self {
            DriveDef::Timer { wait_s } => {
                issues.in_range(object, "wait_s", *wait_s, 0.0, 60.0);
            }
            DriveDef::Switch(id) => {
                if level.find_id("switches", id).is_none() {
                    issues.add(
                        object,
                        format!("its drive names the switch \"{id}\", but no switch has that id"),
                    );
                }
            }
        }
    }
}
