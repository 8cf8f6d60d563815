//! Wind zones: streaks of air drifting through each zone at the air's speed, longer and brighter
//! when it blows harder, so a gust is seen coming. Their positions are a function of the time
//! alone (no state), so a screenshot at a tick is the same every time.

use macroquad::shapes::draw_line;

use crate::app::palette;
use crate::app::render::mq;
use crate::sim::math::Vec2;
use crate::sim::World;

/// Streaks per square metre of zone, and most per zone.
const STREAKS_PER_M2: f32 = 0.35;
const MAX_STREAKS_PER_ZONE: usize = 400;
/// A streak is this many seconds of the air's travel long.
const STREAK_LENGTH_S: f32 = 0.09;
/// Air speed at which streaks are fully bright.
const FULL_BRIGHT_M_PER_S: f32 = 25.0;

/// A fixed pseudo-random number in [0, 1) for streak `k` of zone `zone` (salt picks which).
fn unit(zone: usize, k: usize, salt: u32) -> f32 {
    let mut x =
        (zone as u32).wrapping_mul(0x9e37_79b9) ^ (k as u32).wrapping_mul(0x85eb_ca6b) ^ salt;
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    (x >> 8) as f32 / (1u32 << 24) as f32
}

pub fn draw(world: &World, time_s: f32) {
    let Some(wind) = world.wind_now() else {
        return;
    };
    for (zone, (aabb, air)) in wind.zones().enumerate() {
        let speed = air.length();
        if speed < 0.2 {
            continue;
        }
        let dir = air / speed;
        let size = aabb.maxs - aabb.mins;
        let count = ((size.x * size.y * STREAKS_PER_M2) as usize).clamp(4, MAX_STREAKS_PER_ZONE);
        let brightness = (speed / FULL_BRIGHT_M_PER_S).clamp(0.15, 1.0);
        let color = palette::WIND_STREAK.with_alpha(0.55 * brightness);
        let length_m = speed * STREAK_LENGTH_S;
        // Streaks travel along the air; each wraps round its zone's box along the wind.
        let travel_m = size.x.abs() * dir.x.abs() + size.y.abs() * dir.y.abs() + length_m;
        for k in 0..count {
            let start = Vec2::new(unit(zone, k, 1) * size.x, unit(zone, k, 2) * size.y);
            // Each streak drifts at its own share of the speed (eddies), 70-130 %.
            let own_speed = speed * (0.7 + 0.6 * unit(zone, k, 3));
            let along = (own_speed * time_s + unit(zone, k, 4) * travel_m) % travel_m;
            let mut head = aabb.mins + start + dir * along;
            // Wrap the head back into the box.
            head.x = aabb.mins.x + (head.x - aabb.mins.x).rem_euclid(size.x.max(1e-3));
            head.y = aabb.mins.y + (head.y - aabb.mins.y).rem_euclid(size.y.max(1e-3));
            // Only inside the zone's own shape (a circle or polygon is smaller than its box).
            if wind.air_velocity(head) == Vec2::ZERO {
                continue;
            }
            let tail = head - dir * length_m;
            let (h, t) = (mq(head), mq(tail));
            draw_line(t.x, t.y, h.x, h.y, 0.035 + 0.02 * brightness, color);
        }
    }
}
