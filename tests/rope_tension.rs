//! The rope reports each segment's tension in newtons, from the direct solve's multipliers
//! (fragile anchors and ropes are rated in newtons). Checked against statics: a player hanging
//! still pulls the bottom segment with its weight, the top one with its weight plus the rope's.

mod common;

use tether::sim::geometry::Geometry;
use tether::sim::math::Vec2;
use tether::sim::rope::Rope;
use tether::sim::TICK_DT_S;

/// Steps a player hanging from `anchor` on a rope for `ticks`, as the world does in the air.
fn hang(rope: &mut Rope, player: &mut (Vec2, Vec2), ticks: usize) {
    let tuning = common::tuning();
    let gravity = Vec2::new(0.0, -tuning.player.gravity_m_per_s2);
    let geometry = Geometry::of_solids(vec![]);
    for _ in 0..ticks {
        player.1 += gravity * TICK_DT_S;
        let (pos, vel) = rope.step(
            &geometry,
            &tuning.rope,
            gravity,
            player.0,
            player.1,
            TICK_DT_S,
        );
        *player = (pos, vel);
        rope.set_player(pos);
    }
}

#[test]
fn a_hanging_player_pulls_the_rope_with_its_weight_plus_the_ropes() {
    let tuning = common::tuning();
    let r = &tuning.rope;
    let g = tuning.player.gravity_m_per_s2;
    let anchor = Vec2::ZERO;
    let mut player = (Vec2::new(0.0, -10.0), Vec2::ZERO);
    let mut rope = Rope::new(anchor, player.0, r.max_length_m, r);
    hang(&mut rope, &mut player, 240);

    let node_kg = r.player_mass_kg / r.player_mass_ratio;
    let inner_nodes = rope.nodes.len() - 2;
    let tension = rope.tension_n();
    eprintln!(
        "{:?}",
        tension.iter().map(|t| *t as i32).collect::<Vec<_>>()
    );
    let bottom = *tension.last().unwrap();
    let top = tension[0];
    let expect_bottom = r.player_mass_kg * g;
    let expect_top = (r.player_mass_kg + inner_nodes as f32 * node_kg) * g;
    assert!(
        (bottom / expect_bottom - 1.0).abs() < 0.02,
        "bottom segment: {bottom:.0} N, the player weighs {expect_bottom:.0} N"
    );
    assert!(
        (top / expect_top - 1.0).abs() < 0.02,
        "top segment: {top:.0} N, player and rope weigh {expect_top:.0} N"
    );
    // Monotone up the rope: each segment carries the one below and a node more.
    for pair in tension.windows(2) {
        assert!(
            pair[0] >= pair[1] - 1.0,
            "tension rises toward the anchor: {tension:?}"
        );
    }
}
