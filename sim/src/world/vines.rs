//! Vines in a tick: grabbing one, climbing the part above the hand, and joining it again when
//! let go.

use crate::event::{AttachKind, Event};
use crate::geometry::{Body, Geometry};
use crate::hook::Hook;
use crate::objects::vine::{VineState, GRAB_RADIUS_M, MIN_BELOW_M};
use crate::player::Player;
use crate::rope::Rope;
use crate::tuning::TICK_DT_S;
use crate::world::attached_rope;
use crate::world::parts::Scene;

/// The vine `hook` holds, if any.
pub(crate) fn held_vine(hook: &Hook) -> Option<usize> {
    match hook {
        Hook::Attached {
            kind: AttachKind::Vine(i),
            ..
        } => Some(*i as usize),
        _ => None,
    }
}

/// The part above the hand, for joining the vine again if the hook lets go of it.
pub(crate) fn held_vine_upper(hook: &Hook) -> Option<(usize, Rope)> {
    let i = held_vine(hook)?;
    attached_rope(hook).map(|rope| (i, rope.clone()))
}

/// The part below the hand hangs from the player, who has just moved; climbing moved rope
/// from one part to the other.
pub(crate) fn step_held_vine(
    scene: Scene,
    geometry: &Geometry,
    player: &Player,
    hook: &Hook,
    vines: &mut [VineState],
) {
    let Some(i) = held_vine(hook) else {
        return;
    };
    let Some(def) = scene.level.vines.get(i) else {
        return;
    };
    let above_m = attached_rope(hook).map_or(0.0, |r| r.length_m);
    let gravity = scene.gravity();
    let vine = &mut vines[i];
    let below_m = (def.length_m - above_m).max(MIN_BELOW_M);
    vine.rope.set_length(below_m, MIN_BELOW_M, def.length_m);
    vine.rope
        .step_driven(geometry, gravity, player.pos, TICK_DT_S);
}

/// Lets go of a vine the hook no longer holds (released, jumped off, died): its two parts
/// become one rope again.
pub(crate) fn rejoin_released_vine(
    upper: &Option<(usize, Rope)>,
    hook: &Hook,
    vines: &mut [VineState],
) {
    let Some((i, upper)) = upper else {
        return;
    };
    if held_vine(hook) == Some(*i) {
        return;
    }
    let vine = &mut vines[*i];
    if vine.held {
        vine.rope = Rope::joined(upper, &vine.rope);
        vine.held = false;
        vine.let_go = true;
    }
}

/// A player in the air, not on a rope, who touches a vine grabs it at the nearest node.
pub(crate) fn grab_vines(
    player: &mut Player,
    hook: &mut Hook,
    vines: &mut [VineState],
    events: &mut Vec<Event>,
) {
    if player.grounded || matches!(hook, Hook::Attached { .. }) {
        return;
    }
    let hand = player.pos;
    let nearest = vines
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.held && !v.let_go)
        .flat_map(|(i, v)| {
            v.rope
                .nodes
                .iter()
                .enumerate()
                .skip(1)
                .map(move |(k, p)| (i, k, p.distance(hand)))
        })
        .filter(|(_, _, d)| *d < GRAB_RADIUS_M)
        .min_by(|a, b| a.2.total_cmp(&b.2));
    let Some((i, k, _)) = nearest else {
        return;
    };
    for vine in vines.iter_mut() {
        vine.let_go = false;
    }
    let whole_m = vines[i].rope.length_m;
    let (mut upper, mut lower) = vines[i].rope.split_at_node(k);
    upper.set_player(hand);
    upper.fit_length_to_hand();
    // The vine stays as long as it is: the piece below the hand gives or takes the
    // difference.
    lower.set_length_m(whole_m - upper.length_m);
    let anchor = upper.anchor();
    vines[i].rope = lower;
    vines[i].held = true;
    *hook = Hook::Attached {
        rope: upper,
        kind: AttachKind::Vine(i as u16),
        body: Body::Fixed,
        anchor_in_body: anchor,
        wheel_queue_m: 0.0,
    };
    player.flung = false;
    events.push(Event::HookAttached {
        kind: AttachKind::Vine(i as u16),
        at: hand,
    });
}
