//! Breaking in a tick: strain on fragile objects and the player's rope, what breaks, the loose
//! ropes that fall away, and everything mended on respawn.

use crate::event::{BreakKind, Event};
use crate::geometry::{Body, Geometry};
use crate::hook::Hook;
use crate::objects::fragile::{FragileAnchorDef, LooseRope, Strain, LOOSE_ROPE_S};
use crate::player::Player;
use crate::rope::Rope;
use crate::tuning::{Tuning, TICK_DT_S};
use crate::world::hooking::let_go;
use crate::world::parts::{Bodies, Breakage, Scene};

/// After the rope's step: a fragile anchor or a fragile rope pulled past its rating long
/// enough breaks, and the rope lets go (a broken anchor leaves `bodies`).
pub(crate) fn check_breaks(
    scene: Scene,
    mut bodies: Bodies,
    breakage: &mut Breakage,
    player: &mut Player,
    hook: &mut Hook,
    events: &mut Vec<Event>,
) {
    let Hook::Attached { rope, body, .. } = &*hook else {
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
        let (Some(def), Some(strain)) = (scene.level.fragile.get(i), breakage.fragile.get_mut(i))
        else {
            return;
        };
        if strain.load(anchor_n, &def.rating()) {
            let kind = match def.anchor {
                FragileAnchorDef::Beam { .. } => BreakKind::Beam(i as u16),
                FragileAnchorDef::Ring { .. } => BreakKind::Ring(i as u16),
            };
            let at = rope.anchor();
            let_rope_go_broken(None, hook, player, breakage.loose_ropes);
            bodies.pose(scene, breakage.fragile);
            events.push(Event::Broke { kind, at });
            return;
        }
    }
    let Some(rating) = scene.level.fragile_rope.clone() else {
        return;
    };
    if breakage.rope_strain.load(strongest_n, &rating) {
        let at = rope.nodes[strongest];
        let_rope_go_broken(Some(strongest), hook, player, breakage.loose_ropes);
        // A rope that snapped may snap again: the next one starts unstrained.
        *breakage.rope_strain = Strain::default();
        events.push(Event::Broke {
            kind: BreakKind::Rope,
            at,
        });
    }
}

/// The hook lets go as a release does (`let_go`), and the rope's
/// pieces go on as loose ropes: split after segment `snapped_segment` (a snapped rope: the
/// upper piece hangs from the anchor, the lower from the player), or whole, hanging from the
/// player (an anchor that gave way).
fn let_rope_go_broken(
    snapped_segment: Option<usize>,
    hook: &mut Hook,
    player: &mut Player,
    loose_ropes: &mut Vec<LooseRope>,
) {
    let Hook::Attached { rope, .. } = let_go(hook, player) else {
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
            loose_ropes.push(LooseRope {
                rope: upper,
                held_by_player: false,
                ticks_left,
            });
            loose_ropes.push(from_player(&lower));
        }
        _ => loose_ropes.push(from_player(&rope)),
    }
}

/// Loose ropes whip about (a piece in the player's hand follows them) and are drawn in when
/// their time is up.
pub(crate) fn step_loose_ropes(
    scene: Scene,
    geometry: &Geometry,
    player: &Player,
    loose_ropes: &mut Vec<LooseRope>,
) {
    let gravity = scene.gravity();
    let hand = player.pos;
    for loose in loose_ropes.iter_mut() {
        loose.ticks_left = loose.ticks_left.saturating_sub(1);
        let anchor_to = if loose.held_by_player {
            hand
        } else {
            loose.rope.anchor()
        };
        loose
            .rope
            .step_loose(geometry, gravity, anchor_to, TICK_DT_S);
    }
    loose_ropes.retain(|loose| loose.ticks_left > 0);
}

/// A death puts every fragile anchor back (into `bodies`) and drops the loose ropes.
pub(crate) fn mend_fragile(scene: Scene, mut bodies: Bodies, breakage: &mut Breakage) {
    breakage.fragile.fill(Strain::default());
    *breakage.rope_strain = Strain::default();
    breakage.loose_ropes.clear();
    bodies.pose(scene, breakage.fragile);
}
