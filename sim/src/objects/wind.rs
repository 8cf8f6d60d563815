//! Wind zones: regions of moving air. Inside one, rope and vine segments feel drag from the air's
//! velocity relative to theirs, across the segment only (a rope slides through air along its
//! length), quadratic in that speed as in the seed articles; cloth feels the same along its
//! threads, and the player a weaker, linear pull toward the air's velocity. Gusts are a
//! deterministic function of the tick: no random state, so a replay blows the same wind on
//! every machine.
//!
//! Outside every zone nothing changes: a level without wind plays exactly as before (still air
//! is already the ropes' `node_damping_per_s`).

use rapier2d::geometry::SharedShape;
use rapier2d::parry::bounding_volume::Aabb;
use serde::{Deserialize, Serialize};

use super::{shape_collider, Issues, LevelIds, ObjectDef};
use crate::math::{cos_sin, Pose, Rotation, Vec2};
use crate::shape::ShapeDef;
use crate::tuning::TICK_DT_S;

/// Most wind zones a level may hold.
pub const MAX_WIND_ZONES: usize = 32;
/// Fastest air a zone may blow, base plus gust (a gale is ~25 m/s; beyond this the game's
/// ropes and cloth would need more substeps than they take).
pub const MAX_WIND_SPEED_M_PER_S: f32 = 40.0;
/// Gust periods allowed.
pub const MIN_GUST_PERIOD_S: f32 = 0.5;
pub const MAX_GUST_PERIOD_S: f32 = 60.0;

/// A region of moving air.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Where the wind blows (any shape).
    pub region: ShapeDef,
    /// Which way it blows, counter-clockwise from +x (0: to the right, 90: up).
    pub direction_deg: f32,
    /// The air's steady speed.
    pub speed_m_per_s: f32,
    /// Gusts on top of the steady speed (none when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gust: Option<GustDef>,
}

/// Gusts: the air's speed rises by up to `extra_m_per_s` once every `period_s`, in a smooth
/// pulse followed by a weaker one (so it does not feel like a metronome).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GustDef {
    pub extra_m_per_s: f32,
    pub period_s: f32,
    /// Shifts this zone's gusts in time, seconds (zones side by side need not gust together).
    #[serde(default)]
    pub offset_s: f32,
}

impl GustDef {
    /// The gust's share of `extra_m_per_s` at time `t_s`, 0 to 1.
    pub fn strength(&self, t_s: f64) -> f32 {
        let phase = (((t_s + self.offset_s as f64) / self.period_s as f64).fract()) as f32;
        // A full pulse over the first 60 % of the period, then a third-height one: sin² rises
        // and falls smoothly (no jolt in the drag) and is calm between the two.
        let pi = std::f32::consts::PI;
        if phase < 0.6 {
            let s = libm::sinf(pi * phase / 0.6);
            s * s
        } else {
            let s = libm::sinf(pi * (phase - 0.6) / 0.4);
            s * s / 3.0
        }
    }
}

impl ObjectDef for WindDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.shape(&format!("{object}.region"), &self.region);
        issues.number(object, "direction_deg", self.direction_deg);
        let extra = self.gust.as_ref().map_or(0.0, |g| g.extra_m_per_s);
        if issues.in_range(
            object,
            "speed_m_per_s",
            self.speed_m_per_s,
            0.0,
            MAX_WIND_SPEED_M_PER_S,
        ) {
            if let Some(gust) = &self.gust {
                let name = format!("{object}.gust");
                let room = MAX_WIND_SPEED_M_PER_S - self.speed_m_per_s;
                issues.in_range(&name, "extra_m_per_s", extra, 0.0, room);
                issues.in_range(
                    &name,
                    "period_s",
                    gust.period_s,
                    MIN_GUST_PERIOD_S,
                    MAX_GUST_PERIOD_S,
                );
                issues.in_range(&name, "offset_s", gust.offset_s, -3600.0, 3600.0);
            }
        }
    }
}

/// A zone ready for queries: its shape, box and direction.
#[derive(Clone)]
struct Zone {
    shape: SharedShape,
    pose: Pose,
    aabb: Aabb,
    /// The zone is an unrotated box: its box test is the whole test. Ropes and cloth ask for
    /// the air at every segment and thread each tick, and the shape test was most of it.
    fills_its_box: bool,
    direction: Vec2,
    speed_m_per_s: f32,
    gust: Option<GustDef>,
}

/// Every wind zone of a level, asked for the air's velocity at a point and tick.
#[derive(Clone, Default)]
pub struct WindField {
    zones: Vec<Zone>,
}

impl WindField {
    /// The zones of a validated level's `wind` (a region parry rejects blows nowhere;
    /// `World::from_level` reports it first).
    pub fn from_zones(defs: &[WindDef]) -> WindField {
        let zones = defs
            .iter()
            .filter_map(|def| {
                let (shape, pose) = shape_collider(&def.region)?;
                let aabb = shape.compute_aabb(&pose);
                let (cos, sin) = cos_sin(def.direction_deg.to_radians());
                let fills_its_box =
                    shape.as_cuboid().is_some() && pose.rotation == Rotation::IDENTITY;
                Some(Zone {
                    shape,
                    pose,
                    aabb,
                    fills_its_box,
                    direction: Vec2::new(cos, sin),
                    speed_m_per_s: def.speed_m_per_s,
                    gust: def.gust.clone(),
                })
            })
            .collect();
        WindField { zones }
    }

    pub fn is_calm(&self) -> bool {
        self.zones.is_empty()
    }

    /// The air's velocity at every zone's current speed for `tick`, ready for point queries.
    pub fn at_tick(&self, tick: u64) -> WindNow<'_> {
        let t_s = tick as f64 * TICK_DT_S as f64;
        WindNow {
            field: self,
            velocities: self
                .zones
                .iter()
                .map(|zone| {
                    let gust = zone
                        .gust
                        .as_ref()
                        .map_or(0.0, |g| g.extra_m_per_s * g.strength(t_s));
                    zone.direction * (zone.speed_m_per_s + gust)
                })
                .collect(),
        }
    }

    /// The box of every zone, for drawing.
    pub fn zone_boxes(&self) -> impl Iterator<Item = (Aabb, Vec2)> + '_ {
        self.zones.iter().map(|z| (z.aabb, z.direction))
    }
}

/// The wind of one tick.
pub struct WindNow<'a> {
    field: &'a WindField,
    velocities: Vec<Vec2>,
}

impl WindNow<'_> {
    /// The air's velocity at `point`: the sum over the zones that contain it (zero outside).
    pub fn air_velocity(&self, point: Vec2) -> Vec2 {
        let mut air = Vec2::ZERO;
        for (zone, &velocity) in self.field.zones.iter().zip(&self.velocities) {
            let inside_box = point.x >= zone.aabb.mins.x
                && point.x <= zone.aabb.maxs.x
                && point.y >= zone.aabb.mins.y
                && point.y <= zone.aabb.maxs.y;
            if inside_box && (zone.fills_its_box || zone.shape.contains_point(&zone.pose, point)) {
                air += velocity;
            }
        }
        air
    }

    /// Whether any zone's box overlaps `aabb` (a rope or cloth outside every zone skips drag).
    /// The air over the whole of `aabb` when it is the same at every point of it: `ZERO` when
    /// the box is clear of every zone's box, the zones' sum when every zone it reaches is a
    /// box that covers it whole; `None` when the air may vary across it. Where it answers,
    /// the answer is exactly `air_velocity` at each point of the box (the same zones, summed in
    /// the same order), so a banner inside one zone needs no lookup per thread.
    pub fn uniform_over(&self, aabb: &Aabb) -> Option<Vec2> {
        let mut air = Vec2::ZERO;
        for (zone, &velocity) in self.field.zones.iter().zip(&self.velocities) {
            let zone_box = &zone.aabb;
            let clear = aabb.maxs.x < zone_box.mins.x
                || aabb.mins.x > zone_box.maxs.x
                || aabb.maxs.y < zone_box.mins.y
                || aabb.mins.y > zone_box.maxs.y;
            if clear {
                continue;
            }
            let covered = zone.fills_its_box
                && aabb.mins.x >= zone_box.mins.x
                && aabb.maxs.x <= zone_box.maxs.x
                && aabb.mins.y >= zone_box.mins.y
                && aabb.maxs.y <= zone_box.maxs.y;
            if !covered {
                return None;
            }
            air += velocity;
        }
        Some(air)
    }

    /// Each zone's box and its air velocity now, for drawing streaks.
    pub fn zones(&self) -> impl Iterator<Item = (Aabb, Vec2)> + '_ {
        self.field
            .zones
            .iter()
            .zip(&self.velocities)
            .map(|(zone, &velocity)| (zone.aabb, velocity))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field of zones, each (shape, velocity), as `from_level` builds them.
    fn field_of(zones: &[(ShapeDef, Vec2)]) -> WindField {
        let zones = zones
            .iter()
            .map(|(region, velocity)| {
                let (shape, pose) = shape_collider(region).unwrap();
                Zone {
                    aabb: shape.compute_aabb(&pose),
                    fills_its_box: shape.as_cuboid().is_some()
                        && pose.rotation == Rotation::IDENTITY,
                    shape,
                    pose,
                    direction: velocity.normalize(),
                    speed_m_per_s: velocity.length(),
                    gust: None,
                }
            })
            .collect();
        WindField { zones }
    }

    fn square(x: f32, y: f32, half: f32, rotation_deg: f32) -> ShapeDef {
        ShapeDef::Box {
            center: crate::level::P(x, y),
            half_extents: crate::level::P(half, half),
            rotation_deg,
        }
    }

    #[test]
    fn uniform_air_is_answered_only_where_it_is_the_same_everywhere() {
        let (a, b) = (Vec2::new(8.0, 0.0), Vec2::new(0.0, 3.0));
        let field = field_of(&[
            (square(0.0, 0.0, 10.0, 0.0), a),
            (square(5.0, 0.0, 2.0, 0.0), b),
        ]);
        let now = field.at_tick(0);
        let boxed = |min: (f32, f32), max: (f32, f32)| {
            Aabb::new(Vec2::new(min.0, min.1), Vec2::new(max.0, max.1))
        };
        // Inside the big zone only; inside both; clear of both.
        let cases = [
            (boxed((-9.0, -9.0), (-4.0, -4.0)), Some(a)),
            (boxed((4.0, -1.0), (6.0, 1.0)), Some(a + b)),
            (boxed((20.0, 20.0), (21.0, 21.0)), Some(Vec2::ZERO)),
            // Straddling the small zone's edge, and the big one's.
            (boxed((2.0, -1.0), (4.0, 1.0)), None),
            (boxed((9.0, 9.0), (11.0, 11.0)), None),
        ];
        for (aabb, expected) in cases {
            assert_eq!(now.uniform_over(&aabb), expected, "{aabb:?}");
            if let Some(air) = expected {
                // Exactly what a lookup gives at the box's corners and centre.
                for p in [aabb.mins, aabb.maxs, aabb.center()] {
                    assert_eq!(now.air_velocity(p), air);
                }
            }
        }
        // A turned zone does not fill its box: never uniform where it reaches.
        let turned = field_of(&[(square(0.0, 0.0, 10.0, 30.0), a)]);
        let inside = boxed((-1.0, -1.0), (1.0, 1.0));
        assert_eq!(turned.at_tick(0).uniform_over(&inside), None);
    }

    #[test]
    fn gusts_stay_between_calm_and_full_and_repeat() {
        let gust = GustDef {
            extra_m_per_s: 10.0,
            period_s: 3.0,
            offset_s: 0.0,
        };
        let samples: Vec<f32> = (0..3600).map(|t| gust.strength(t as f64 / 120.0)).collect();
        assert!(samples.iter().all(|s| (0.0..=1.0).contains(s)));
        assert!(samples.iter().any(|&s| s > 0.99) && samples.iter().any(|&s| s < 0.01));
        assert_eq!(gust.strength(1.25), gust.strength(4.25));
    }
}
