//! Set-ups: putting the world into a situation that play would take a while to reach. They
//! exist for tests, benches and the editor's jump preview; `World::step` never calls them, and
//! no run that is recorded or replayed goes through them. Each changes exactly the fields it
//! names and nothing else (the hash and every other part of the world are left as they are), so
//! a set-up reads as what it does.

use super::World;
use crate::hook::Hook;
use crate::math::Vec2;

impl World {
    /// Moves the player to `pos_m` (the centre of their box), keeping their velocity, ground
    /// and timers.
    pub fn place_player(&mut self, pos_m: Vec2) {
        self.player.pos = pos_m;
    }

    /// Sets the player's velocity, keeping everything else.
    pub fn set_player_velocity(&mut self, vel_m_per_s: Vec2) {
        self.player.vel = vel_m_per_s;
    }

    /// Marks the player as not standing on anything (their next tick starts in the air).
    pub fn set_airborne(&mut self) {
        self.player.grounded = false;
    }

    /// The editor's jump preview: the player standing still at `pos_m`, with
    /// `coyote_ticks_left` ticks in which a jump press still counts as from the ground.
    pub fn place_player_standing(&mut self, pos_m: Vec2, coyote_ticks_left: u32) {
        self.player.pos = pos_m;
        self.player.vel = Vec2::ZERO;
        self.player.grounded = true;
        self.player.coyote_ticks_left = coyote_ticks_left;
    }

    /// Replaces the hook's state: `Hook::attached_fixed` to start on the rope, `Hook::Idle` to
    /// start without one.
    /// The player stays where they are: put them at the rope's end first.
    pub fn set_hook(&mut self, hook: Hook) {
        self.hook = hook;
    }

    /// Marks vine `index` (the level's list order) as just let go of, so a player touching it
    /// does not grab it again until they land. Out-of-range indices are ignored.
    pub fn mark_vine_let_go(&mut self, index: usize) {
        if let Some(vine) = self.vines.get_mut(index) {
            vine.let_go = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::hash::tests::test_world;
    use super::*;
    use crate::event::AttachKind;
    use crate::rope::Rope;

    /// Each set-up must leave the world exactly as the field assignments it replaced did (the
    /// tests and benches that use it keep their meaning): the same state hash as the direct
    /// write, and a different one from before (so the set-up did something).
    #[test]
    fn each_set_up_sets_exactly_its_fields() {
        let mut base = test_world(r#"vines: [(at: (-10.0, 14.0), length_m: 6.0)],"#);
        base.player.grounded = true;
        base.player.vel = Vec2::new(0.5, 0.0);
        type SetUp = (&'static str, fn(&mut World), fn(&mut World));
        let set_ups: Vec<SetUp> = vec![
            (
                "place_player",
                |w| w.place_player(Vec2::new(3.0, 4.0)),
                |w| w.player.pos = Vec2::new(3.0, 4.0),
            ),
            (
                "set_player_velocity",
                |w| w.set_player_velocity(Vec2::new(-2.0, 1.0)),
                |w| w.player.vel = Vec2::new(-2.0, 1.0),
            ),
            (
                "set_airborne",
                |w| w.set_airborne(),
                |w| w.player.grounded = false,
            ),
            (
                "place_player_standing",
                |w| w.place_player_standing(Vec2::new(1.0, 2.0), 4),
                |w| {
                    w.player.pos = Vec2::new(1.0, 2.0);
                    w.player.vel = Vec2::ZERO;
                    w.player.grounded = true;
                    w.player.coyote_ticks_left = 4;
                },
            ),
            (
                "set_hook",
                |w| w.set_hook(on_a_rope(w)),
                |w| w.hook = on_a_rope(w),
            ),
            (
                "mark_vine_let_go",
                |w| w.mark_vine_let_go(0),
                |w| w.vines[0].let_go = true,
            ),
            (
                "set_invincible",
                |w| w.set_invincible(true),
                |w| w.invincible = true,
            ),
        ];
        for (name, set_up, direct) in set_ups {
            let (mut by_set_up, mut by_hand) = (base.clone(), base.clone());
            set_up(&mut by_set_up);
            direct(&mut by_hand);
            assert_eq!(by_set_up.state_hash(), by_hand.state_hash(), "{name}");
            assert_ne!(
                by_set_up.state_hash(),
                base.state_hash(),
                "{name} changed nothing"
            );
        }
    }

    /// A 5 m rope from (0, 10) down to the player.
    fn on_a_rope(world: &World) -> Hook {
        let rope = Rope::new(
            Vec2::new(0.0, 10.0),
            world.player.pos,
            5.0,
            &world.tuning.rope,
        );
        Hook::attached_fixed(rope, AttachKind::Surface)
    }
}
