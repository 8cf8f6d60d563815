//! Vines in a tick: grabbing one, climbing the part above the hand, and joining it again when
//! let go.

use crate::event::{AttachKind, Event};
use crate::geometry::Body;
use crate::hook::Hook;
use crate::math::Vec2;
use crate::objects::vine::{GRAB_RADIUS_M, MIN_BELOW_M};
use crate::rope::Rope;
use crate::tuning::TICK_DT_S;
use crate::world::World;

impl World {
    /// The vine the player holds, if any.
    pub fn held_vine(&self) -> Option<usize> {
        match &self.hook {
            Hook::Attached {
                kind: AttachKind::Vine(i),
                ..
            } => Some(*i as usize),
            _ => None,
        }
    }

    /// The part above the hand, for joining the vine again if the hook lets go of it.
    pub(crate) fn held_vine_upper(&self) -> Option<(usize, Rope)> {
        let i = self.held_vine()?;
        self.rope().map(|rope| (i, rope.clone()))
    }

    /// The part below the hand hangs from the player, who has just moved; climbing moved rope
    /// from one part to the other.
    pub(crate) fn step_held_vine(&mut self) {
        let Some(i) = self.held_vine() else {
            return;
        };
        let Some(def) = self.level.vines.get(i) else {
            return;
        };
        let above_m = self.rope().map_or(0.0, |r| r.length_m);
        let gravity = Vec2::new(0.0, -self.tuning.player.gravity_m_per_s2);
        let vine = &mut self.vines[i];
        let below_m = (def.length_m - above_m).max(MIN_BELOW_M);
        vine.rope.set_length(below_m, MIN_BELOW_M, def.length_m);
        vine.rope
            .step_driven(&self.geometry, gravity, self.player.pos, TICK_DT_S);
    }

    /// Lets go of a vine the hook no longer holds (released, jumped off, died): its two parts
    /// become one rope again.
    pub(crate) fn rejoin_released_vine(&mut self, upper: &Option<(usize, Rope)>) {
        let Some((i, upper)) = upper else {
            return;
        };
        if self.held_vine() == Some(*i) {
            return;
        }
        let vine = &mut self.vines[*i];
        if vine.held {
            vine.rope = Rope::joined(upper, &vine.rope);
            vine.held = false;
            vine.let_go = true;
        }
    }

    /// A player in the air, not on a rope, who touches a vine grabs it at the nearest node.
    pub(crate) fn grab_vines(&mut self, events: &mut Vec<Event>) {
        if self.player.grounded || matches!(self.hook, Hook::Attached { .. }) {
            return;
        }
        let player = self.player.pos;
        let nearest = self
            .vines
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.held && !v.let_go)
            .flat_map(|(i, v)| {
                v.rope
                    .nodes
                    .iter()
                    .enumerate()
                    .skip(1)
                    .map(move |(k, p)| (i, k, p.distance(player)))
            })
            .filter(|(_, _, d)| *d < GRAB_RADIUS_M)
            .min_by(|a, b| a.2.total_cmp(&b.2));
        let Some((i, k, _)) = nearest else {
            return;
        };
        for vine in &mut self.vines {
            vine.let_go = false;
        }
        let whole_m = self.vines[i].rope.length_m;
        let (mut upper, mut lower) = self.vines[i].rope.split_at_node(k);
        upper.set_player(player);
        upper.fit_length_to_nodes();
        // The vine stays as long as it is: the piece below the hand gives or takes the
        // difference.
        lower.set_length_m(whole_m - upper.length_m);
        let anchor = upper.anchor();
        self.vines[i].rope = lower;
        self.vines[i].held = true;
        self.hook = Hook::Attached {
            rope: upper,
            kind: AttachKind::Vine(i as u16),
            body: Body::Fixed,
            anchor_in_body: anchor,
            wheel_queue_m: 0.0,
        };
        self.player.flung = false;
        events.push(Event::HookAttached {
            kind: AttachKind::Vine(i as u16),
            at: player,
        });
    }
}
