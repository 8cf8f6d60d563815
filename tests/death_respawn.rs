//! Dying and coming back: hazards and the kill plane kill, the player respawns at the latest
//! checkpoint (never an earlier one), still and with the hook put away, the death counter counts,
//! and touching the goal on the tick the player dies does not finish the level.

mod common;

use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::{Event, InputFrame, World};

/// Flat floor (top y = 0) from x = -5 to 40; checkpoints at x = 5 and x = 10; a hazard block on
/// the floor at x = 15; a ring above x = 13; a pit from x = 40 on (kill plane at y = -10).
const RUN: &str = r#"Level(
    name: "run",
    spawn: (0.0, 0.5),
    goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
    kill_y_m: -10.0,
    solids: [(shape: Box(center: (17.5, -1.0), half_extents: (22.5, 1.0)))],
    hazards: [Box(center: (15.0, 0.5), half_extents: (0.5, 0.5))],
    checkpoints: [(min: (4.5, 0.0), max: (5.5, 3.0)), (min: (9.5, 0.0), max: (10.5, 3.0))],
    grapple_points: [(13.0, 6.0)],
)"#;

fn walk(world: &mut World, move_x: i8, until: impl Fn(&World, &[Event]) -> bool) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..1200 {
        let events = world.step(&InputFrame {
            move_x,
            ..Default::default()
        });
        let done = until(world, &events);
        all.extend(events);
        if done {
            return all;
        }
    }
    panic!("never happened; player at {:?}", world.player().pos);
}

fn died(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::Died { .. }))
}

fn checkpoint_center(world: &World, index: usize) -> Vec2 {
    world.level().checkpoints[index].center()
}

#[test]
fn a_hazard_kills_and_the_player_respawns_at_the_latest_checkpoint() {
    let mut world = common::world_from(RUN);
    let events = walk(&mut world, 1, |_, events| died(events));
    let reached: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            Event::CheckpointReached { index } => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(
        reached,
        vec![0, 1],
        "both checkpoints were touched, in order"
    );
    let tail: Vec<&str> = events.iter().rev().take(2).map(Event::kind_name).collect();
    assert_eq!(
        tail,
        vec!["respawned", "died"],
        "death and respawn on one tick"
    );
    assert_eq!(world.deaths(), 1);
    assert_eq!(world.player().pos, checkpoint_center(&world, 1));
    assert_eq!(world.player().vel, Vec2::ZERO, "respawned standing still");
    assert_eq!(world.teleported_at_tick(), Some(world.tick()));
    assert!(!world.is_completed());
}

#[test]
fn walking_back_through_an_earlier_checkpoint_does_not_move_the_respawn_back() {
    let mut world = common::world_from(RUN);
    walk(&mut world, 1, |w, _| w.checkpoint() == Some(1));
    // Back through checkpoint 0 to the spawn side.
    let events = walk(&mut world, -1, |w, _| w.player().pos.x < 2.0);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::CheckpointReached { .. })),
        "an earlier checkpoint is not reached again: {events:?}"
    );
    assert_eq!(world.checkpoint(), Some(1));
    walk(&mut world, 1, |_, events| died(events));
    assert_eq!(world.player().pos, checkpoint_center(&world, 1));
}

#[test]
fn falling_below_the_kill_plane_kills_and_deaths_are_counted() {
    let mut world = common::world_from(RUN);
    // Skip the hazard: start past it, run into the pit, twice.
    for death in 1..=2 {
        world.place_player(Vec2::new(30.0, 0.5));
        world.set_player_velocity(Vec2::ZERO);
        let kill_y = world.level().kill_y_m;
        let mut lowest = f32::MAX;
        let events = walk(&mut world, 1, |w, events| {
            if died(events) {
                return true;
            }
            assert!(w.player().pos.y >= kill_y, "alive below the kill plane");
            false
        });
        for e in &events {
            if let Event::Died { at } = e {
                lowest = lowest.min(at.y);
            }
        }
        assert!(
            lowest < kill_y,
            "died below the kill plane, at y = {lowest}"
        );
        assert_eq!(world.deaths(), death);
        // No checkpoint was touched: back at the spawn.
        assert_eq!(world.player().pos, world.level().spawn.v());
    }
}

#[test]
fn dying_puts_the_hook_and_rope_away() {
    // Attached: hook the ring, walk into the hazard with the rope on.
    let mut world = common::world_from(RUN);
    world.place_player(Vec2::new(12.0, 0.5));
    world.step(&InputFrame::default());
    let (aim_x, aim_y) = InputFrame::quantize_aim(Vec2::new(13.0, 6.0) - world.player().pos);
    world.step(&InputFrame {
        fire_pressed: true,
        aim_x,
        aim_y,
        ..Default::default()
    });
    walk(&mut world, 0, |w, _| w.rope().is_some());
    walk(&mut world, 1, |_, events| died(events));
    assert_eq!(
        *world.hook(),
        Hook::Idle,
        "the rope is gone after respawning"
    );
    assert!(world.rope().is_none());

    // Flying: fire at nothing and walk into the hazard at once.
    let mut world = common::world_from(RUN);
    world.place_player(Vec2::new(14.2, 0.5));
    world.step(&InputFrame::default());
    let events = world.step(&InputFrame {
        fire_pressed: true,
        move_x: 1,
        aim_x: -1.0,
        aim_y: 0.1,
        ..Default::default()
    });
    assert!(events.contains(&Event::HookFired));
    if !died(&events) {
        walk(&mut world, 1, |_, events| died(events));
    }
    assert_eq!(*world.hook(), Hook::Idle, "a flying hook is put away too");
}

/// A goal rectangle that the player reaches only by also dying on the same tick.
fn goal_and_death_on_one_tick(level: &str) {
    let mut world = common::world_from(level);
    let mut events = Vec::new();
    for _ in 0..240 {
        events = world.step(&InputFrame::default());
        if died(&events) {
            break;
        }
    }
    assert!(died(&events), "the player died");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::GoalReached { .. })),
        "no goal on the death tick: {events:?}"
    );
    assert!(!world.is_completed());
}

#[test]
fn no_goal_on_the_tick_the_player_dies() {
    // The goal overlaps a hazard: the player falls into both at once.
    goal_and_death_on_one_tick(
        r#"Level(
            name: "goal in hazard",
            spawn: (0.0, 3.0),
            goal: (min: (-1.0, -2.0), max: (1.0, 0.0)),
            kill_y_m: -50.0,
            hazards: [Box(center: (0.0, -1.0), half_extents: (1.0, 1.0))],
        )"#,
    );
    // The goal hangs below the kill plane: reaching it means having fallen out of the level.
    goal_and_death_on_one_tick(
        r#"Level(
            name: "goal below the kill plane",
            spawn: (0.0, 3.0),
            goal: (min: (-1.0, -20.0), max: (1.0, -5.0)),
            kill_y_m: -4.0,
        )"#,
    );
}
