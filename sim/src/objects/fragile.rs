//! Things that break under load: fragile anchors (a rotten beam the hook sticks in, a cracked
//! ring) and the level's fragile-rope setting. Each is rated in newtons of rope tension — the
//! chain solve's multiplier, as `Rope::tension_n` reads it — and gives way when the rope pulls
//! harder than that for a stated time without a break. The rope lets go as a release does (the
//! player flies on with exactly the velocity the rope's last step gave them), its pieces whip
//! about for a moment as loose ropes, a `Broke` event tells the front end to crumble, crack and
//! sound. A death puts every fragile anchor back, so a level can never be left unwinnable.

use rapier2d::geometry::SharedShape;
use serde::{Deserialize, Serialize};

use super::{shape_spec, BuildContext, ColliderSpec, Issues, ObjectDef};
use crate::event::{BreakKind, Event};
use crate::geometry::{Body, ColliderKind};
use crate::hook::Hook;
use crate::level::{LevelDef, ShapeDef, P};
use crate::math::{Pose, Vec2};
use crate::rope::Rope;
use crate::state_hash::StateHasher;
use crate::tuning::{Tuning, TICK_DT_S};
use crate::world::World;

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

    fn check(&self, object: &str, _level: &LevelDef, issues: &mut Issues) {
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
    ) -> Result<(), String> {
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
    fn load(&mut self, tension_n: f32, rating: &BreakDef) -> bool {
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

impl World {
    /// Whether the fragile anchor `index` is still there.
    pub fn fragile_intact(&self, index: usize) -> bool {
        self.fragile.get(index).is_some_and(|s| !s.broken)
    }

    /// After the rope's step: a fragile anchor or a fragile rope pulled past its rating long
    /// enough breaks, and the rope lets go.
    pub(crate) fn check_breaks(&mut self, events: &mut Vec<Event>) {
        let Hook::Attached { rope, body, .. } = &self.hook else {
            return;
        };
        let tensions = rope.tension_n();
        // The anchor takes the pull of the rope's first segment and of every segment lying on
        // the level next to it (a rope draped over the beam it is hooked in pulls the beam
        // through its contacts as well as its end).
        let on_anchor = rope.touching()[1..]
            .iter()
            .position(|&t| !t)
            .map_or(tensions.len(), |k| k + 1);
        let anchor_n = tensions[..on_anchor.min(tensions.len())]
            .iter()
            .fold(0.0f32, |a, &t| a.max(t));
        let (strongest, strongest_n) = tensions.iter().enumerate().fold(
            (0, 0.0f32),
            |best, (i, &t)| if t > best.1 { (i, t) } else { best },
        );
        if let Body::Fragile(i) = *body {
            let i = i as usize;
            let (Some(def), Some(strain)) = (self.level.fragile.get(i), self.fragile.get_mut(i))
            else {
                return;
            };
            if strain.load(anchor_n, &def.rating()) {
                let kind = match def.anchor {
                    FragileAnchorDef::Beam { .. } => BreakKind::Beam(i as u16),
                    FragileAnchorDef::Ring { .. } => BreakKind::Ring(i as u16),
                };
                let at = rope.anchor();
                self.let_rope_go_broken(None);
                self.pose_bodies();
                events.push(Event::Broke { kind, at });
                return;
            }
        }
        let Some(rating) = self.level.fragile_rope.clone() else {
            return;
        };
        if self.rope_strain.load(strongest_n, &rating) {
            let at = rope.nodes[strongest];
            self.let_rope_go_broken(Some(strongest));
            // A rope that snapped may snap again: the next one starts unstrained.
            self.rope_strain = Strain::default();
            events.push(Event::Broke {
                kind: BreakKind::Rope,
                at,
            });
        }
    }

    /// The hook lets go as a release does (the player keeps their velocity), and the rope's
    /// pieces go on as loose ropes: split after segment `snapped_segment` (a snapped rope: the
    /// upper piece hangs from the anchor, the lower from the player), or whole, hanging from the
    /// player (an anchor that gave way).
    fn let_rope_go_broken(&mut self, snapped_segment: Option<usize>) {
        let hook = std::mem::replace(&mut self.hook, Hook::Idle);
        self.player.flung = true;
        let Hook::Attached { rope, .. } = hook else {
            return;
        };
        let ticks_left = Tuning::ticks(LOOSE_ROPE_S);
        let from_player = |piece: &Rope| LooseRope {
            rope: piece.reversed(),
            held_by_player: true,
            ticks_left,
        };
        match snapped_segment {
            Some(segment) if rope.segment_count() >= 2 => {
                let (upper, lower) = rope.split_at_node(segment.clamp(1, rope.segment_count() - 1));
                self.loose_ropes.push(LooseRope {
                    rope: upper,
                    held_by_player: false,
                    ticks_left,
                });
                self.loose_ropes.push(from_player(&lower));
            }
            _ => self.loose_ropes.push(from_player(&rope)),
        }
    }

    /// Loose ropes whip about (a piece in the player's hand follows them) and are drawn in when
    /// their time is up.
    pub(crate) fn step_loose_ropes(&mut self) {
        let gravity = Vec2::new(0.0, -self.tuning.player.gravity_m_per_s2);
        let hand = self.player.pos;
        for loose in &mut self.loose_ropes {
            loose.ticks_left = loose.ticks_left.saturating_sub(1);
            if loose.held_by_player {
                loose
                    .rope
                    .step_driven(&self.geometry, gravity, hand, TICK_DT_S);
            } else {
                loose.rope.step_free(&self.geometry, gravity, TICK_DT_S);
            }
        }
        self.loose_ropes.retain(|loose| loose.ticks_left > 0);
    }

    /// A death puts every fragile anchor back.
    pub(crate) fn mend_fragile(&mut self) {
        self.fragile.fill(Strain::default());
        self.rope_strain = Strain::default();
        self.loose_ropes.clear();
        self.pose_bodies();
    }
}

/// Whether a fragile body is still in the level (the geometry leaves broken ones out).
pub fn body_present(fragile: &[Strain], body: Body) -> bool {
    match body {
        Body::Fragile(i) => fragile.get(i as usize).is_some_and(|s| !s.broken),
        _ => true,
    }
}
