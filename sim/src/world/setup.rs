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
