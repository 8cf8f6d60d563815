//! Cloths in a tick: each flutters in the wind and is pushed aside by the player and their rope.

use crate::cloth::{Air, Cloth, Pusher};
use crate::math::Vec2;
use crate::objects::cloth::PLAYER_PUSH_RADIUS_M;
use crate::parallel;
use crate::tuning::TICK_DT_S;
use crate::world::World;

impl World {
    /// Every cloth flutters in the wind and is pushed aside by the player and their rope.
    pub(crate) fn step_cloths(&mut self) {
        if self.cloths.is_empty() {
            return;
        }
        let gravity = Vec2::new(0.0, -self.tuning.player.gravity_m_per_s2);
        let mut pushers = vec![Pusher::Circle {
            center: self.player.pos,
            radius_m: PLAYER_PUSH_RADIUS_M,
            velocity: self.player.vel,
        }];
        if let Some(rope) = self.rope() {
            let radius_m = self.tuning.rope.radius_m;
            for (i, pair) in rope.nodes.windows(2).enumerate() {
                pushers.push(Pusher::Capsule {
                    a: pair[0],
                    b: pair[1],
                    radius_m,
                    velocity: rope.node_velocity(i + 1),
                });
            }
        }
        let wind_field = std::sync::Arc::clone(&self.wind);
        let wind = (!wind_field.is_calm()).then(|| wind_field.at_tick(self.tick));
        let air_at = wind.as_ref().map(|w| move |p: Vec2| w.air_velocity(p));
        let geometry = &self.geometry;
        // Side by side on the machine's cores (`sim::parallel`).
        parallel::each_mut(&mut self.cloths, Cloth::step_work, |_, cloth| {
            // A banner inside one zone (or out of every zone) feels one air velocity all over.
            let air = match (&wind, &air_at) {
                (Some(wind), Some(air_at)) => match wind.uniform_over(&cloth.aabb()) {
                    Some(velocity) => Air::Uniform(velocity),
                    None => Air::Varying(air_at),
                },
                _ => Air::Still,
            };
            cloth.step(geometry, gravity, air, &pushers, TICK_DT_S);
        });
    }
}
