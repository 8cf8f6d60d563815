//! Cloths in a tick: each flutters in the wind and is pushed aside by the player and their rope.

use crate::cloth::{Air, Cloth, Pusher};
use crate::geometry::Geometry;
use crate::hook::Hook;
use crate::math::Vec2;
use crate::objects::cloth::PLAYER_PUSH_RADIUS_M;
use crate::parallel;
use crate::player::Player;
use crate::tuning::TICK_DT_S;
use crate::world::attached_rope;
use crate::world::parts::Scene;

/// Every cloth flutters in the wind and is pushed aside by the player and their rope.
pub(crate) fn step_cloths(
    scene: Scene,
    geometry: &Geometry,
    player: &Player,
    hook: &Hook,
    cloths: &mut [Cloth],
) {
    if cloths.is_empty() {
        return;
    }
    let gravity = scene.gravity();
    let mut pushers = vec![Pusher::Circle {
        center: player.pos,
        radius_m: PLAYER_PUSH_RADIUS_M,
        velocity: player.vel,
    }];
    if let Some(rope) = attached_rope(hook) {
        let radius_m = scene.tuning.rope.radius_m;
        for (i, pair) in rope.nodes.windows(2).enumerate() {
            pushers.push(Pusher::Capsule {
                a: pair[0],
                b: pair[1],
                radius_m,
                velocity: rope.node_velocity(i + 1),
            });
        }
    }
    let wind = scene.wind_now();
    let air_at = wind.as_ref().map(|w| move |p: Vec2| w.air_velocity(p));
    // Side by side on the machine's cores (`sim::parallel`).
    parallel::each_mut(cloths, Cloth::step_work, |_, cloth| {
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
