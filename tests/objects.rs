//! Level objects that move and hang: moving platforms carry, push and crush the player and
//! hold the hook in their own frame; winches reel between their limits on a timer or a switch,
//! and their loads sag and bounce through the rope solver; every new field is validated; the
//! state hash sees every piece of evolving state.

mod common;

use rapier2d::geometry::SharedShape;
use tether::sim::geometry::Body;
use tether::sim::hook::Hook;
use tether::sim::level::LevelError;
use tether::sim::math::{Pose, Vec2};
use tether::sim::{Event, InputFrame, LevelDef, World};

use common::IDLE;

/// A level around `objects` (RON fields): a long floor at y = 0 and a far goal.
fn level(objects: &str) -> String {
    format!(
        r#"Level(
            name: "objects",
            spawn: (0.0, 1.0),
            goal: (min: (90.0, 0.0), max: (92.0, 2.0)),
            kill_y_m: -30.0,
            solids: [(shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0)))],
            {objects}
        )"#
    )
}

fn run(world: &mut World, ticks: usize) -> Vec<Event> {
    (0..ticks).flat_map(|_| world.step(&IDLE)).collect()
}

fn died(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::Died { .. }))
}

#[test]
fn a_moving_platform_carries_the_player_standing_on_it() {
    // A raft 2 m up moving right at 2 m/s; the player starts standing on it.
    let mut world = common::world_from(&level(
        r#"platforms: [(id: "raft", shape: Box(center: (0.0, 2.0), half_extents: (2.0, 0.25)),
            motion: Path(points: [(0.0, 2.0), (20.0, 2.0)], speed_m_per_s: 2.0))],"#,
    ));
    world.place_player(Vec2::new(0.0, 2.25 + 0.5));
    run(&mut world, 30);
    assert!(world.player().grounded, "the player stands on the raft");
    let raft_x = world.body_pose(Body::Platform(0)).translation.x;
    let offset_before = world.player().pos.x - raft_x;
    let events = run(&mut world, 360);
    let raft_x = world.body_pose(Body::Platform(0)).translation.x;
    assert!(raft_x > 6.0, "the raft moved: {raft_x} m");
    assert!(world.player().grounded);
    assert!(!died(&events));
    let offset_after = world.player().pos.x - raft_x;
    assert!(
        (offset_after - offset_before).abs() < 0.05,
        "the player rode along: offset {offset_before} m → {offset_after} m"
    );
}

#[test]
fn a_platform_pushes_the_player_and_crushes_them_against_a_wall() {
    // A block sweeping left along the floor toward a wall at x = -6.
    let objects = r#"platforms: [(id: "ram", shape: Box(center: (4.0, 1.0), half_extents: (1.0, 1.0)),
            hookable: false,
            motion: Path(points: [(4.0, 1.0), (-4.0, 1.0)], speed_m_per_s: 2.0))],"#;
    let with_wall = level(objects).replace(
        "solids: [",
        "solids: [(shape: Box(center: (-5.5, 3.0), half_extents: (1.0, 3.0))), ",
    );
    let mut pushed = common::world_from(&level(objects));
    // 2.5 s at 2 m/s: the ram's left face goes from x = 3 to −2.
    let events = run(&mut pushed, 300);
    assert!(!died(&events), "pushed along open floor is not a death");
    assert!(
        pushed.player().pos.x < -2.0,
        "the ram pushed the player left: x = {}",
        pushed.player().pos.x
    );
    let mut crushed = common::world_from(&with_wall);
    // The ram's left face reaches the wall's (x = −4.5) and goes 0.5 m on: no room left.
    let events = run(&mut crushed, 560);
    assert!(
        died(&events),
        "squeezed against the wall, the player dies: {:?}",
        crushed.player().pos
    );
    assert!(crushed.deaths() >= 1);
}

#[test]
fn the_hook_holds_a_moving_platform_in_its_frame() {
    let mut world = common::world_from(&level(
        r#"platforms: [(id: "beam", shape: Box(center: (0.0, 8.0), half_extents: (3.0, 0.4)),
            motion: Path(points: [(0.0, 8.0), (10.0, 8.0)], speed_m_per_s: 2.0, ping_pong: true))],"#,
    ));
    let (aim_x, aim_y) = InputFrame::quantize_aim(Vec2::new(0.5, 6.0));
    world.step(&InputFrame {
        fire_pressed: true,
        aim_x,
        aim_y,
        ..IDLE
    });
    let mut attached_at = None;
    for _ in 0..60 {
        world.step(&InputFrame {
            aim_x,
            aim_y,
            ..IDLE
        });
        if let Hook::Attached {
            body,
            anchor_in_body,
            ..
        } = world.hook()
        {
            attached_at = Some((*body, *anchor_in_body));
            break;
        }
    }
    let (body, anchor_in_body) = attached_at.expect("the hook bit the beam");
    assert_eq!(body, Body::Platform(0));
    let mut anchor_xs = Vec::new();
    for _ in 0..300 {
        world.step(&InputFrame {
            aim_x,
            aim_y,
            ..IDLE
        });
        let rope = world.rope().expect("still attached");
        let expected = world.body_pose(body).transform_point(anchor_in_body);
        assert!(
            rope.anchor().distance(expected) < 1e-4,
            "the anchor {:?} stays on the beam at {expected:?}",
            rope.anchor()
        );
        anchor_xs.push(rope.anchor().x);
    }
    let travel = anchor_xs.last().unwrap() - anchor_xs.first().unwrap();
    assert!(
        travel > 4.0,
        "the anchor travelled with the beam: {travel} m"
    );
}

const TIMER_WINCH: &str = r#"solids: [(shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0))),
        (shape: Box(center: (10.0, 15.5), half_extents: (1.0, 0.5)))],
    winches: [(id: "w", at: (10.0, 15.0), min_length_m: 3.0, max_length_m: 9.0,
        speed_m_per_s: 3.0, load: Weight(radius_m: 0.5, mass_kg: 50.0), drive: Timer(wait_s: 0.5))],"#;

#[test]
fn a_timer_winch_reels_between_its_limits_and_back() {
    let text = level("").replace(
        "solids: [(shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0)))],",
        TIMER_WINCH,
    );
    let mut world = common::world_from(&text);
    let (mut shortest, mut longest) = (f32::MAX, 0.0f32);
    let mut reached_top_at = None;
    for t in 0..1200 {
        world.step(&IDLE);
        let winch = &world.winches()[0];
        let length = winch.rope.length_m;
        assert!((3.0..=9.0).contains(&length), "tick {t}: {length} m");
        // The rope never stretches much past its length, even carrying the weight.
        assert!(winch.rope.measured_length_m() <= length * 1.02 + 0.05);
        shortest = shortest.min(length);
        longest = longest.max(length);
        if length <= 3.0 && reached_top_at.is_none() {
            reached_top_at = Some(t);
        }
    }
    assert_eq!(shortest, 3.0);
    assert_eq!(longest, 9.0);
    // 6 m at 3 m/s: two seconds up (plus the start), then it comes back down.
    let top = reached_top_at.expect("reached the short limit");
    assert!((230..=300).contains(&top), "reached the top at tick {top}");
    let end = world.winches()[0].rope.end();
    assert!(
        end.y < 15.0 && (end.x - 10.0).abs() < 1.0,
        "hangs under the drum: {end:?}"
    );
}

#[test]
fn a_switch_winch_lifts_its_platform_while_the_switch_is_held_and_lowers_it_after() {
    let text = level(
        r#"switches: [(id: "go", min: (-1.0, 0.0), max: (1.0, 2.0))],
        winches: [(id: "lift", at: (8.0, 14.0), min_length_m: 4.0, max_length_m: 12.0,
            speed_m_per_s: 2.0, load: Platform(half_extents: (1.0, 0.2), mass_kg: 40.0),
            drive: Switch("go"))],"#,
    );
    let mut world = common::world_from(&text);
    run(&mut world, 10);
    assert!(
        world.switches_pressed()[0],
        "the player spawned on the switch"
    );
    let start = world.winches()[0].rope.length_m;
    run(&mut world, 120);
    let lifted = world.winches()[0].rope.length_m;
    assert!(
        (start - lifted - 2.0).abs() < 0.1,
        "one second on the switch reels 2 m in: {start} → {lifted}"
    );
    // Step off: the switch lets go and the platform lowers again.
    for _ in 0..90 {
        world.step(&InputFrame { move_x: 1, ..IDLE });
    }
    assert!(!world.switches_pressed()[0]);
    let before = world.winches()[0].rope.length_m;
    run(&mut world, 60);
    assert!(world.winches()[0].rope.length_m > before + 0.9);
}

/// The load hangs from the rope through the solver: the top segment's tension is the weight
/// it carries, the player's included while they stand on it, and a player landing with speed
/// sets the load swinging, which the rope (not a script) brings back under the drum.
#[test]
fn a_hanging_platform_weighs_on_its_rope_and_swings_when_landed_on() {
    let text = level(
        r#"winches: [(id: "lift", at: (0.0, 14.0), min_length_m: 4.0, max_length_m: 8.0,
            speed_m_per_s: 2.0, load: Platform(half_extents: (1.5, 0.2), mass_kg: 30.0),
            drive: Switch("none"))],
        switches: [(id: "none", min: (40.0, 0.0), max: (41.0, 1.0))],"#,
    );
    let tuning = common::tuning();
    let g = tuning.player.gravity_m_per_s2;
    let mut world = common::world_from(&text);
    world.place_player(Vec2::new(30.0, 0.5));
    run(&mut world, 240);
    let top_tension = |w: &World| w.winches()[0].rope.tension_n()[0];
    let rope_kg = world.winches()[0].rope.segment_count() as f32
        * world.winches()[0].rope.params().node_mass_kg;
    let alone = top_tension(&world);
    let expected_alone = (30.0 + rope_kg) * g;
    assert!(
        (alone - expected_alone).abs() < 0.1 * expected_alone,
        "the rope holds the load and itself: {alone} N, expected {expected_alone} N"
    );
    // Drop the player onto the platform from 2 m, running right.
    let rest = world.winches()[0].rope.end();
    world.place_player(Vec2::new(-1.2, rest.y + 2.0));
    world.set_player_velocity(Vec2::new(4.0, 0.0));
    let mut farthest = 0.0f32;
    for t in 0..60 {
        // Running right as they land, then standing still.
        let run_right = InputFrame { move_x: 1, ..IDLE };
        world.step(if t < 20 { &run_right } else { &IDLE });
        farthest = farthest.max(world.winches()[0].rope.end().x - rest.x);
    }
    assert!(world.player().grounded, "the player landed on the platform");
    assert!(
        farthest > 0.05,
        "the landing set the load swinging: {farthest} m"
    );
    run(&mut world, 600);
    let with_player = top_tension(&world);
    let expected = expected_alone + tuning.rope.player_mass_kg * g;
    assert!(
        (with_player - expected).abs() < 0.1 * expected,
        "standing on it adds the player's weight: {with_player} N, expected {expected} N"
    );
    let settled = world.winches()[0].rope.end();
    assert!(
        (settled.x - rest.x).abs() < farthest,
        "the swing dies down under the drum: {settled:?} (rest {rest:?})"
    );
}

/// `check`'s messages for a level (object: message).
fn issues(text: &str) -> Vec<String> {
    let found = match LevelDef::from_ron(text, "bad.ron") {
        Ok(level) => level.issues(),
        Err(LevelError::Semantic { issues, .. }) => issues,
        Err(other) => panic!("does not parse: {other}"),
    };
    found
        .into_iter()
        .map(|i| format!("{}: {}", i.object, i.message))
        .collect()
}

fn assert_issue(text: &str, object: &str, words: &str) {
    let found = issues(text);
    assert!(
        found
            .iter()
            .any(|m| m.starts_with(object) && m.contains(words)),
        "expected an issue on {object} mentioning {words:?}, got {found:#?}"
    );
}

#[test]
fn check_names_every_bad_object_field() {
    let platform = |motion: &str| {
        level(&format!(
            r#"platforms: [(shape: Box(center: (0.0, 3.0), half_extents: (1.0, 0.2)), motion: {motion})],"#
        ))
    };
    assert_issue(
        &platform("Path(points: [(0.0, 3.0), (5.0, 3.0)], speed_m_per_s: 50.0)"),
        "platforms[0]",
        "speed_m_per_s",
    );
    assert_issue(
        &platform("Path(points: [(0.0, 3.0)], speed_m_per_s: 2.0)"),
        "platforms[0]",
        "points",
    );
    assert_issue(
        &platform("Path(points: [(0.0, 3.0), (0.0, 3.0)], speed_m_per_s: 2.0)"),
        "platforms[0]",
        "points",
    );
    assert_issue(
        &platform("Path(points: [(0.0, 3.0), (99999.0, 3.0)], speed_m_per_s: 2.0)"),
        "platforms[0]",
        "points[1]",
    );
    assert_issue(
        &platform("Rotate(pivot: (1e9, 0.0), deg_per_s: 30.0)"),
        "platforms[0]",
        "pivot",
    );
    let winch = |lengths: &str, drive: &str| {
        level(&format!(
            r#"winches: [(id: "w", at: (0.0, 14.0), {lengths}, speed_m_per_s: 2.0,
                load: Weight(radius_m: 0.5, mass_kg: 10.0), drive: {drive})],"#
        ))
    };
    assert_issue(
        &winch("min_length_m: 9.0, max_length_m: 4.0", "Timer(wait_s: 1.0)"),
        "winches[0]",
        "min_length_m",
    );
    assert_issue(
        &winch(
            "min_length_m: 4.0, max_length_m: 9.0",
            "Switch(\"nowhere\")",
        ),
        "winches[0]",
        "nowhere",
    );
    let duplicate = level(
        r#"switches: [(id: "same", min: (0.0, 0.0), max: (1.0, 1.0))],
        checkpoints: [(id: "same", min: (4.0, 0.0), max: (5.0, 2.0))],"#,
    );
    assert_issue(
        &duplicate,
        "switches[0]",
        "\"same\", already used by checkpoints[0]",
    );
    // A good level says nothing.
    assert_eq!(
        issues(&winch(
            "min_length_m: 4.0, max_length_m: 9.0",
            "Timer(wait_s: 1.0)"
        )),
        Vec::<String>::new()
    );
}

/// One edit of a world's state, named.
/// A level with one 10 m vine, weighted, hanging from (0, 14).
fn vine_world() -> World {
    common::world_from(&level(
        r#"vines: [(id: "v", at: (0.0, 14.0), length_m: 10.0, weight_kg: 5.0)],"#,
    ))
}

fn vine_length_m(world: &World) -> f32 {
    let below = world.vines()[0].rope.length_m;
    match world.held_vine() {
        Some(0) => world.rope().expect("held").length_m + below,
        _ => below,
    }
}

#[test]
fn a_vine_is_caught_by_touch_climbed_and_let_go_whole() {
    let mut world = vine_world();
    run(&mut world, 120);
    assert_eq!(
        world.held_vine(),
        None,
        "a player on the ground does not catch a vine"
    );
    // Jump into the vine from the side.
    world.place_player(Vec2::new(-1.0, 7.0));
    world.set_player_velocity(Vec2::new(6.0, 0.0));
    world.set_airborne();
    let mut events = Vec::new();
    for _ in 0..30 {
        events.extend(world.step(&IDLE));
        if world.held_vine().is_some() {
            break;
        }
    }
    assert_eq!(
        world.held_vine(),
        Some(0),
        "touching the vine in the air catches it"
    );
    assert!(events.iter().any(|e| e.kind_name() == "vine_grabbed"));
    let total = vine_length_m(&world);
    assert!(
        (total - 10.0).abs() < 0.05,
        "split, the vine is still 10 m: {total}"
    );
    // Climb up: the part above the hand shortens at the climbing speed, the vine stays whole.
    let above_before = world.rope().unwrap().length_m;
    for _ in 0..60 {
        world.step(&InputFrame { reel: 1, ..IDLE });
        let total = vine_length_m(&world);
        assert!(
            (total - 10.0).abs() < 0.05,
            "climbing keeps the vine 10 m: {total}"
        );
    }
    let climbed = above_before - world.rope().unwrap().length_m;
    assert!(
        (climbed - 0.5 * tether::sim::objects::vine::CLIMB_SPEED_M_PER_S).abs() < 0.05,
        "half a second of climbing: {climbed} m"
    );
    // Swing and let go: the vine is one rope again, as many nodes as before, still moving.
    for _ in 0..60 {
        world.step(&InputFrame { move_x: 1, ..IDLE });
    }
    let nodes_held = world.rope().unwrap().nodes.len() + world.vines()[0].rope.nodes.len() - 1;
    world.step(&InputFrame {
        release_pressed: true,
        ..IDLE
    });
    assert_eq!(world.held_vine(), None);
    assert!(!world.vines()[0].held);
    assert_eq!(world.vines()[0].rope.nodes.len(), nodes_held);
    assert!((world.vines()[0].rope.length_m - 10.0).abs() < 0.05);
    assert_eq!(world.vines()[0].rope.anchor(), Vec2::new(0.0, 14.0));
    // Just let go: not caught again at once, though the vine swings along.
    let mut events = Vec::new();
    for _ in 0..30 {
        events.extend(world.step(&IDLE));
    }
    assert_eq!(
        world.held_vine(),
        None,
        "a vine just let go of is not caught again mid-air"
    );
}

#[test]
fn a_player_brushing_through_a_vine_pushes_it() {
    let mut world = vine_world();
    run(&mut world, 240);
    let still = world.vines()[0].rope.end();
    // Fly through the vine's lower half having just let go of it (so it is not caught).
    world.mark_vine_let_go(0);
    world.place_player(Vec2::new(-2.0, 6.0));
    world.set_player_velocity(Vec2::new(10.0, 3.0));
    world.set_airborne();
    let mut farthest = 0.0f32;
    for _ in 0..90 {
        world.step(&IDLE);
        farthest = farthest.max(world.vines()[0].rope.end().x - still.x);
    }
    assert_eq!(world.held_vine(), None);
    assert!(
        farthest > 0.1,
        "the vine swung away from the player: {farthest} m"
    );
}

#[test]
fn check_names_bad_vines() {
    let vine = |fields: &str| level(&format!("vines: [({fields})],"));
    assert_issue(
        &vine("at: (0.0, 10.0), length_m: 300.0"),
        "vines[0]",
        "length_m",
    );
    assert_issue(
        &vine("at: (0.0, 10.0), length_m: 0.2"),
        "vines[0]",
        "length_m",
    );
    assert_issue(
        &vine("at: (0.0, 10.0), length_m: 5.0, weight_kg: -1.0"),
        "vines[0]",
        "weight_kg",
    );
    assert_issue(
        &vine("at: (1e9, 10.0), length_m: 5.0"),
        "vines[0].at",
        "x = 1000000000 is beyond",
    );
}

/// Catching a vine a hand's reach from its nearest node must not yank the player: the piece
/// above the hand is as long as it lies, so the catch changes the player's speed only as the
/// swing would. (It used to be cut to whole segments: caught off a node, the rope snapped the
/// player onto it in one tick, throwing them at 25–48 m/s, or hung in a kinked heap.)
#[test]
fn catching_a_vine_off_its_nodes_does_not_throw_the_player() {
    for offset_m in [-0.4_f32, -0.25, -0.1, 0.1, 0.25] {
        let mut world = common::world_from(&level(
            r#"vines: [(id: "v", at: (0.0, 14.0), length_m: 10.0)],"#,
        ));
        // Let the vine hang still, then put the player beside it, moving across it.
        for _ in 0..240 {
            world.step(&common::IDLE);
        }
        let node = world.vines()[0].rope.nodes[12];
        world.place_player(node + tether::sim::math::Vec2::new(offset_m, 0.1));
        world.set_player_velocity(tether::sim::math::Vec2::new(6.0, 0.0));
        world.set_airborne();
        let before = world.player().vel;
        let mut caught = false;
        for _ in 0..3 {
            world.step(&common::IDLE);
            caught |= world.held_vine() == Some(0);
            let change = (world.player().vel - before).length();
            assert!(
                change < 3.0,
                "offset {offset_m} m: the speed jumped by {change:.1} m/s on catching"
            );
        }
        assert!(caught, "offset {offset_m} m: the vine was not caught");
    }
}

/// Winch `index`'s load's collider and where it is now.
fn load_collider(world: &World, index: usize) -> (SharedShape, Pose) {
    let (shape, in_body, _) = world.level().winches[index].load.body_collider();
    (
        shape,
        world.body_pose(Body::WinchLoad(index as u16)) * in_body,
    )
}

/// How deep winch `index`'s load lies in the level's fixed solids, metres (0 when clear).
fn load_depth_in_fixed_m(world: &World, index: usize) -> f32 {
    let (shape, pose) = load_collider(world, index);
    world
        .geometry()
        .deepest_fixed_solid_overlap(&pose, shape.as_ref())
        .map_or(0.0, |(_, depth_m)| depth_m)
}

/// The most a winch's load may end a tick inside the level's fixed solids, metres.
const MAX_LOAD_DEPTH_IN_FIXED_M: f32 = 0.002;

/// Plays `frames` on `world`, asserting every tick that no winch's load ends it deeper than
/// `MAX_LOAD_DEPTH_IN_FIXED_M` in a fixed solid; returns the highest load top seen, metres.
fn play_keeping_loads_out(name: &str, world: &mut World, frames: &[InputFrame]) -> f32 {
    let mut highest_top_m = f32::MIN;
    for (tick, input) in frames.iter().enumerate() {
        world.step(input);
        for index in 0..world.winches().len() {
            let depth_m = load_depth_in_fixed_m(world, index);
            assert!(
                depth_m <= MAX_LOAD_DEPTH_IN_FIXED_M,
                "{name}: winch {index}'s load ended tick {} {depth_m} m inside a fixed solid",
                tick + 1
            );
        }
        let (shape, pose) = load_collider(world, 0);
        highest_top_m = highest_top_m.max(shape.compute_aabb(&pose).maxs.y);
    }
    highest_top_m
}

/// A winch's load is a box hanging under its rope's end node, and the rope's step collides
/// only that node with the level: reeled up under a ledge, the platform went up through it,
/// and 14 Drawbridge's bridge swung 1.74 m into the far floor and 36 cm into a wall (issue 32,
/// stop 45's stream). The load now stops at the face.
#[test]
fn a_winchs_load_stops_at_the_fixed_solids_it_is_reeled_or_swung_into() {
    // The drum at x 0; the ledge's bottom face at y 10 covers the platform's right third.
    let text = level(
        r#"winches: [(id: "lift", at: (0.0, 14.0), min_length_m: 2.0, max_length_m: 8.0,
            speed_m_per_s: 2.0, load: Platform(half_extents: (1.5, 0.2), mass_kg: 30.0),
            drive: Timer(wait_s: 1.0))],"#,
    )
    .replace(
        "half_extents: (60.0, 1.0)))],",
        "half_extents: (60.0, 1.0))),
         (shape: Box(center: (3.0, 10.5), half_extents: (2.5, 0.5)))],",
    );
    let mut world = common::world_from(&text);
    world.place_player(Vec2::new(30.0, 0.5));
    let top_m = play_keeping_loads_out("reeled under a ledge", &mut world, &[IDLE; 900]);
    assert!(
        top_m > 9.9,
        "the platform was reeled up to the ledge: its top reached y {top_m}"
    );

    let stream = common::root().join("tests/data/rope-axis-14-drawbridge-stop45.ron");
    let replay =
        tether::sim::Replay::from_ron(&common::read(&stream), "stop45").expect("the stream parses");
    let level = common::root().join("levels").join(&replay.level);
    let mut world = tether::cli::load_world(&level, common::tuning()).expect("14 loads");
    let frames: Vec<InputFrame> = replay.frames().copied().collect();
    play_keeping_loads_out("14 Drawbridge's stop-45 stream", &mut world, &frames);
}
