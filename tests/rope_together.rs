//! Ropes stepped together (`Rope::step_free_all`: the chain solves of ropes with one node count
//! four at a time in vector lanes, each rope at its own pace) come out exactly as each stepped
//! alone (`Rope::step_free`), bit for bit, over a row of vines of mixed lengths, some swinging
//! into a box, some hanging still until asleep.

use tether::sim::geometry::Geometry;
use tether::sim::level::{ShapeDef, P};
use tether::sim::math::Vec2;
use tether::sim::rope::{Rope, RopeParams, DEFAULT_CHAIN_ITERATIONS, DEFAULT_FRICTION};

const DT_S: f32 = 1.0 / 120.0;
const GRAVITY: Vec2 = Vec2::new(0.0, -20.0);
const SEGMENT_M: f32 = 0.3;

/// A vine of `segments` segments from `anchor`, laid out at `angle_rad` from straight down
/// (so it swings), set up as the game's vines are (few substeps in the open, more by need,
/// sleeping when still).
fn vine(anchor: Vec2, segments: usize, angle_rad: f32) -> Rope {
    let points: Vec<Vec2> = (0..=segments)
        .map(|i| {
            let along = i as f32 * SEGMENT_M;
            anchor + Vec2::new(angle_rad.sin(), -angle_rad.cos()) * along
        })
        .collect();
    let mut rope = Rope::from_nodes(
        &points,
        RopeParams {
            segments,
            radius_m: 0.06,
            substeps: 8,
            min_substeps: 1,
            end_mass_ratio: if segments.is_multiple_of(2) {
                1.0
            } else {
                20.0
            },
            damping_per_s: 0.5,
            friction: DEFAULT_FRICTION,
            chain_iterations: DEFAULT_CHAIN_ITERATIONS,
            node_mass_kg: 0.2,
        },
    );
    rope.set_min_substeps(1);
    rope.set_substeps_by_need(true);
    rope.set_sleeps_when_still(true);
    rope
}

/// Everything of a rope this test compares, as bits.
fn bits(rope: &Rope) -> (Vec<(u32, u32)>, Vec<u32>, u32, bool) {
    (
        rope.nodes
            .iter()
            .map(|p| (p.x.to_bits(), p.y.to_bits()))
            .collect(),
        rope.tension_n().iter().map(|t| t.to_bits()).collect(),
        rope.last_substeps(),
        rope.is_asleep(),
    )
}

#[test]
fn ropes_stepped_together_match_each_stepped_alone() {
    // A box the long vines swing into, and the ground far below.
    let geometry = Geometry::of_solids(vec![
        ShapeDef::Box {
            center: P(9.0, -9.0),
            half_extents: P(1.5, 1.0),
            rotation_deg: 20.0,
        },
        ShapeDef::Box {
            center: P(0.0, -40.0),
            half_extents: P(60.0, 1.0),
            rotation_deg: 0.0,
        },
    ]);
    // 13 vines: nine of 40 segments (two fours and one left over), three of 25, one of 10
    // hanging straight down (it falls asleep while the others swing).
    let mut alone: Vec<Rope> = (0..13)
        .map(|k| {
            let anchor = Vec2::new(k as f32 * 1.5, 0.0);
            match k {
                0..=8 => vine(anchor, 40, 0.2 + 0.15 * k as f32),
                9..=11 => vine(anchor, 25, -0.9 + 0.3 * k as f32),
                _ => vine(anchor, 10, 0.0),
            }
        })
        .collect();
    let mut together = alone.clone();
    let (mut mixed_paces, mut contact_steps) = (0, 0);
    for tick in 0..600 {
        for rope in &mut alone {
            rope.step_free(&geometry, GRAVITY, DT_S);
        }
        {
            let mut ropes: Vec<&mut Rope> = together.iter_mut().collect();
            Rope::step_free_all(&mut ropes, &geometry, GRAVITY, DT_S);
        }
        for (k, (a, b)) in alone.iter().zip(&together).enumerate() {
            assert!(bits(a) == bits(b), "tick {tick}: vine {k} differs");
        }
        // Awake long vines taking different substep counts this tick: their chain solves
        // shared lanes at different points of their substeps.
        let mut paces: Vec<u32> = alone[..9]
            .iter()
            .filter(|r| !r.is_asleep())
            .map(|r| r.last_substeps())
            .collect();
        paces.sort_unstable();
        paces.dedup();
        mixed_paces += usize::from(paces.len() >= 2);
        contact_steps += usize::from(alone.iter().any(|r| r.touching().iter().any(|&t| t)));
    }
    // The cases this test is for happened: ropes at different paces side by side, ropes in
    // contact with the box (their contact solves in lanes too), and the short still vine slept.
    assert!(mixed_paces > 50, "mixed paces on {mixed_paces} ticks");
    assert!(contact_steps > 50, "contacts on {contact_steps} ticks");
    assert!(alone[12].is_asleep(), "the still vine never slept");
}
