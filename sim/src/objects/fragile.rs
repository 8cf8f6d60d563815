//! Things that break under load: fragile anchors (a rotten beam the hook sticks in, a cracked
//! ring) and the level's fragile-rope setting. Each is rated in newtons of rope tension — the
//! chain solve's multiplier, as `Rope::tension_n` reads it — and gives way when the rope pulls
//! harder than that for a stated time without a break. The rope lets go as a release does (the
//! player flies on with exactly the velocity the rope's last step gave them), its pieces whip
//! about for a moment as loose ropes, a `Broke` event tells the front end to crumble, crack and
//! sound. A death puts every fragile anchor back, so a level can never be left unwinnable.

use rapier2d::geometry::SharedShape;
use serde::{Deserialize, Serialize};

use super::{shape_spec, BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::{Body, ColliderKind};
use crate::math::{Pose, Vec2};
use crate::rope::Rope;
use crate::shape::{ShapeDef, P};
use crate::state_hash::StateHasher;
use crate::tuning::Tuning;

/// Most fragile anchors a level may hold.
pub const MAX_FRAGILE: usize = 64;
/// Ratings allowed, newtons. The player hanging still pulls ~2 800 N (70 kg × 40 m/s²); a hard
/// swing several times that.
pub const MIN_BREAK_N: f32 = 100.0;
pub const MAX_BREAK_N: f32 = 1_000_000.0;
/// Longest a rating may need the pull to last.
pub const MAX_BREAK_AFTER_S: f32 = 60.0;
/// How long the pieces of a broken rope go on whipping about before they are drawn in.
pub const LOOSE_ROPE_S: f32 = 1.5;

/// What breaks: a pull above `breaks_at_n` newtons lasting `after_s` seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreakDef {
    pub breaks_at_n: f32,
    #[serde(default)]
    pub after_s: f32,
}

impl BreakDef {
    pub fn check(&self, object: &str, issues: &mut Issues) {
        issues.in_range(
            object,
            "breaks_at_n",
            self.breaks_at_n,
            MIN_BREAK_N,
            MAX_BREAK_N,
        );
        issues.in_range(object, "after_s", self.after_s, 0.0, MAX_BREAK_AFTER_S);
    }

    /// Ticks the pull must last: at least the one it happens on.
    fn ticks(&self) -> u32 {
        Tuning::ticks(self.after_s).max(1)
    }
}

/// A fragile anchor of the level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FragileDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub anchor: FragileAnchorDef,
    pub breaks_at_n: f32,
    #[serde(default)]
    pub after_s: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FragileAnchorDef {
    /// A rotten beam: a solid the hook sticks in (and the player may stand on) that crumbles.
    Beam { shape: ShapeDef },
    /// A cracked ring: a grapple point that snaps.
    Ring { at: P },
}

impl FragileDef {
    pub fn rating(&self) -> BreakDef {
        BreakDef {
            breaks_at_n: self.breaks_at_n,
            after_s: self.after_s,
        }
    }

    /// The ring's centre, for a cracked ring.
    pub fn ring_center(&self) -> Option<Vec2> {
        match &self.anchor {
            FragileAnchorDef::Ring { at } => Some(at.v()),
            FragileAnchorDef::Beam { .. } => None,
        }
    }
}

impl ObjectDef for FragileDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        match &self.anchor {
            FragileAnchorDef::Beam { shape } => {
                issues.shape(&format!("{object}.anchor"), shape);
            }
            FragileAnchorDef::Ring { at } => {
                issues.point(&format!("{object}.anchor.at"), *at);
            }
        }
        self.rating().check(object, issues);
    }

    /// Its colliders ride the body `Fragile(index)`, which holds still until it breaks and then
    /// leaves the geometry.
    fn colliders(
        &self,
        index: usize,
        context: &BuildContext,
        out: &mut Vec<ColliderSpec>,
    ) -> Result<(), RejectedShape> {
        let body = Body::Fragile(index as u16);
        match &self.anchor {
            FragileAnchorDef::Beam { shape } => {
                out.push(shape_spec(
                    shape,
                    ColliderKind::Solid { hookable: true },
                    body,
                )?);
            }
            FragileAnchorDef::Ring { at } => out.push(ColliderSpec {
                shape: SharedShape::ball(context.grapple_point_radius_m),
                pose: Pose::from_translation(at.v()),
                kind: ColliderKind::GrapplePoint,
                body,
            }),
        }
        Ok(())
    }
}

/// How close something is to breaking.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Strain {
    /// Ticks in a row the pull has been above the rating.
    pub ticks: u32,
    pub broken: bool,
}

impl Strain {
    /// Counts this tick's pull; true on the tick it breaks.
    pub(crate) fn load(&mut self, tension_n: f32, rating: &BreakDef) -> bool {
        if self.broken {
            return false;
        }
        self.ticks = if tension_n > rating.breaks_at_n {
            self.ticks + 1
        } else {
            0
        };
        self.broken = self.ticks >= rating.ticks();
        self.broken
    }

    pub fn hash_into(&self, h: &mut StateHasher) {
        let Strain { ticks, broken } = self;
        h.u64(*ticks as u64);
        h.bool(*broken);
    }
}

/// A piece of a broken rope, whipping about until it is drawn in: held at its first node (the
/// anchor it still hangs from, or the player's hand), its far end free.
#[derive(Clone, Debug, PartialEq)]
pub struct LooseRope {
    pub rope: Rope,
    /// The piece hangs from the player's hand (and follows them), not from the level.
    pub held_by_player: bool,
    pub ticks_left: u32,
}

impl LooseRope {
    pub fn hash_into(&self, h: &mut StateHasher) {
        let LooseRope {
            rope,
            held_by_player,
            ticks_left,
        } = self;
        rope.hash_into(h);
        h.bool(*held_by_player);
        h.u64(*ticks_left as u64);
    }
}

/// Whether a fragile body is still in the level (the geometry leaves broken ones out).
pub fn body_present(fragile: &[Strain], body: Body) -> bool {
    match body {
        Body::Fragile(i) => fragile.get(i as usize).is_some_and(|s| !s.broken),
        _ => true,
    }
}
