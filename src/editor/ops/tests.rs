//! The operations' unit tests.

use super::*;
use crate::editor::geometry::bounds;
use crate::editor::handle::HandleError;
use crate::sim::level::{MotionDef, RingDef, RonError, ShapeDef};
use crate::sim::objects::MAX_ID_CHARS;

fn level() -> LevelDef {
    RonError::parse(
        "Level(name: \"t\", spawn: (0.0, 1.0), goal: (min: (20.0, 0.0), max: (23.0, 3.0)),
          solids: [(shape: Box(center: (0.0, -1.0), half_extents: (8.0, 1.0))),
                   (id: \"lift\", shape: Circle(center: (5.0, 5.0), radius: 1.0))],
          grapple_points: [(3.0, 6.0)],
          platforms: [(id: \"ferry\", shape: Box(center: (2.0, 3.0), half_extents: (2.0, 0.3)),
                       motion: Path(points: [(2.0, 3.0), (10.0, 3.0)], speed_m_per_s: 3.0))],
          switches: [(id: \"plate\", min: (-3.0, 0.0), max: (-1.0, 1.0))],
          winches: [(id: \"w\", at: (6.0, 12.0), min_length_m: 2.0, max_length_m: 8.0, speed_m_per_s: 1.0,
                     load: Weight(radius_m: 0.5, mass_kg: 50.0), drive: Switch(\"plate\"))])",
        "t",
    )
    .unwrap()
}

fn r(kind: Kind, index: usize) -> ObjectRef {
    ObjectRef::new(kind, index)
}

#[test]
fn every_template_is_a_valid_object_centred_where_asked() {
    for kind in Kind::ALL {
        let mut l = level();
        let result = apply(
            &mut l,
            &Op::Create {
                kind,
                at: Vec2::new(40.0, 30.0),
            },
        );
        if kind == Kind::Goal {
            assert!(result.is_err());
            assert_eq!(l, level());
            continue;
        }
        let made = result.unwrap().selection;
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].kind, kind);
        let (lo, hi) = bounds(&l, made[0]).unwrap();
        let center = (lo + hi) * 0.5;
        assert!(
            center.distance(Vec2::new(40.0, 30.0)) < 1e-3,
            "{kind:?} at {center}"
        );
        assert_eq!(l.issues(), vec![], "{kind:?}");
    }
}

#[test]
fn lists_stop_at_their_limit() {
    let mut l = level();
    l.grapple_points = vec![RingDef(P(0.0, 0.0)); crate::sim::level::MAX_GRAPPLE_POINTS];
    let before = l.clone();
    let e = apply(
        &mut l,
        &Op::Create {
            kind: Kind::Ring,
            at: Vec2::ZERO,
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("at most 500 grapple_points"), "{e}");
    let e = apply(
        &mut l,
        &Op::Duplicate {
            objects: vec![r(Kind::Ring, 0)],
            offset: Vec2::ONE,
        },
    );
    assert!(e.is_err());
    assert_eq!(l, before);
}

#[test]
fn two_new_switches_get_different_ids() {
    let mut l = level();
    for _ in 0..3 {
        apply(
            &mut l,
            &Op::Create {
                kind: Kind::Switch,
                at: Vec2::ZERO,
            },
        )
        .unwrap();
    }
    let ids: Vec<&str> = l.switches.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, vec!["plate", "switch", "switch-2", "switch-3"]);
}

#[test]
fn delete_skips_the_goal_and_keeps_it_selected() {
    let mut l = level();
    let applied = apply(
        &mut l,
        &Op::Delete(vec![r(Kind::Solid, 0), ObjectRef::GOAL, r(Kind::Ring, 0)]),
    )
    .unwrap();
    assert_eq!(applied.selection, vec![ObjectRef::GOAL]);
    assert_eq!(l.solids.len(), 1);
    assert_eq!(l.solids[0].id.as_deref(), Some("lift"));
    assert!(l.grapple_points.is_empty());
    assert!(apply(&mut l, &Op::Delete(vec![ObjectRef::GOAL])).is_err());
}

#[test]
fn stale_refs_are_errors_and_change_nothing() {
    let mut l = level();
    let before = l.clone();
    for op in [
        Op::Delete(vec![r(Kind::Solid, 0), r(Kind::Solid, 7)]),
        Op::Move {
            objects: vec![r(Kind::Ring, 1)],
            delta: Vec2::ONE,
        },
        Op::Duplicate {
            objects: vec![r(Kind::Vine, 0)],
            offset: Vec2::ONE,
        },
        Op::SetHandle {
            object: r(Kind::Solid, 9),
            handle: HandleId::Radius,
            to: Vec2::ONE,
        },
        Op::Rotate {
            objects: vec![r(Kind::Sign, 0)],
            about: Vec2::ZERO,
            deg: 10.0,
        },
        Op::SetField {
            object: r(Kind::Cloth, 0),
            field: "rows".into(),
            value: "3".into(),
        },
        Op::ReplaceObject {
            object: ObjectRef::new(Kind::Goal, 1),
            ron: "(min: (0.0, 0.0), max: (1.0, 1.0))".into(),
        },
    ] {
        let e = apply(&mut l, &op).unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{op:?}: {e}");
        assert_eq!(l, before);
    }
}

#[test]
fn non_finite_coordinates_are_refused() {
    let mut l = level();
    let before = l.clone();
    let nan = Vec2::new(f32::NAN, 0.0);
    let huge = Vec2::new(f32::MAX, 0.0);
    for op in [
        Op::Create {
            kind: Kind::Solid,
            at: nan,
        },
        Op::Move {
            objects: vec![r(Kind::Solid, 0)],
            delta: nan,
        },
        Op::MoveSpawn {
            to: Vec2::new(0.0, f32::INFINITY),
        },
        Op::Rotate {
            objects: vec![r(Kind::Solid, 0)],
            about: Vec2::ZERO,
            deg: f32::NAN,
        },
        Op::SetField {
            object: r(Kind::Ring, 0),
            field: "at".into(),
            value: "(inf, 1.0)".into(),
        },
        Op::SetLevel {
            field: "kill_y_m".into(),
            value: "NaN".into(),
        },
    ] {
        assert!(apply(&mut l, &op).is_err(), "{op:?}");
        assert_eq!(l, before, "{op:?}");
    }
    // Finite itself, but the second sum overflows to infinity.
    let far = Op::Move {
        objects: vec![r(Kind::Solid, 0)],
        delta: huge,
    };
    apply(&mut l, &far).unwrap();
    let moved = l.clone();
    let refused = apply(&mut l, &far).unwrap_err();
    assert_eq!(refused, OpError::ObjectNotFinite(r(Kind::Solid, 0)));
    assert!(refused.to_string().contains("not finite"));
    assert_eq!(l, moved);
}

#[test]
fn duplicates_get_fresh_ids_and_follow_their_switch() {
    let mut l = level();
    let applied = apply(
        &mut l,
        &Op::Duplicate {
            objects: vec![
                r(Kind::Solid, 1),
                r(Kind::Switch, 0),
                r(Kind::Winch, 0),
                r(Kind::Solid, 1),
            ],
            offset: Vec2::new(1.0, 0.0),
        },
    )
    .unwrap();
    assert_eq!(
        applied.selection,
        vec![r(Kind::Solid, 2), r(Kind::Switch, 1), r(Kind::Winch, 1)]
    );
    assert_eq!(l.solids[2].id.as_deref(), Some("lift-2"));
    assert_eq!(l.switches[1].id, "plate-2");
    assert_eq!(l.winches[1].id.as_deref(), Some("w-2"));
    assert_eq!(l.winches[1].drive, DriveDef::Switch("plate-2".into()));
    assert_eq!(l.winches[0].drive, DriveDef::Switch("plate".into()));
    assert_eq!(l.winches[1].at, P(7.0, 12.0));
    // Again: the next free number.
    apply(
        &mut l,
        &Op::Duplicate {
            objects: vec![r(Kind::Solid, 2)],
            offset: Vec2::ZERO,
        },
    )
    .unwrap();
    assert_eq!(l.solids[3].id.as_deref(), Some("lift-3"));
    assert_eq!(l.issues(), vec![]);
}

#[test]
fn fresh_ids_stay_within_the_limit() {
    let mut l = level();
    let long = "x".repeat(MAX_ID_CHARS);
    l.solids[1].id = Some(long.clone());
    let id = fresh_id_in(&l, &long);
    assert_eq!(id.chars().count(), MAX_ID_CHARS);
    assert!(id.ends_with("-2"));
    assert_eq!(fresh_id_in(&l, "new"), "new");
}

#[test]
fn moving_a_platform_moves_its_path() {
    let mut l = level();
    apply(
        &mut l,
        &Op::Move {
            objects: vec![r(Kind::Platform, 0)],
            delta: Vec2::new(1.0, 2.0),
        },
    )
    .unwrap();
    match &l.platforms[0].motion {
        MotionDef::Path { points, .. } => assert_eq!(points, &vec![P(3.0, 5.0), P(11.0, 5.0)]),
        _ => unreachable!(),
    }
    assert_eq!(
        bounds(&l, r(Kind::Platform, 0)).unwrap().0,
        Vec2::new(1.0, 4.7)
    );
}

#[test]
fn rotating_turns_boxes_and_moves_rectangles() {
    let mut l = level();
    apply(
        &mut l,
        &Op::Rotate {
            objects: vec![r(Kind::Solid, 0), ObjectRef::GOAL],
            about: Vec2::new(0.0, 0.0),
            deg: 90.0,
        },
    )
    .unwrap();
    match &l.solids[0].shape {
        ShapeDef::Box {
            center,
            rotation_deg,
            ..
        } => {
            assert!((center.0 - 1.0).abs() < 1e-5 && center.1.abs() < 1e-5);
            assert_eq!(*rotation_deg, 90.0);
        }
        _ => unreachable!(),
    }
    // The goal (centre (21.5, 1.5)) moves to (-1.5, 21.5), still 3 × 3.
    let g = l.goal;
    assert!(
        (g.min.0 + 3.0).abs() < 1e-4 && (g.max.1 - 23.0).abs() < 1e-4,
        "{g:?}"
    );
}

#[test]
fn set_handle_and_spawn() {
    let mut l = level();
    apply(
        &mut l,
        &Op::SetHandle {
            object: r(Kind::Solid, 1),
            handle: HandleId::Radius,
            to: Vec2::new(5.0, 8.0),
        },
    )
    .unwrap();
    assert_eq!(
        l.solids[1].shape,
        ShapeDef::Circle {
            center: P(5.0, 5.0),
            radius: 3.0
        }
    );
    apply(
        &mut l,
        &Op::SetHandle {
            object: r(Kind::Platform, 0),
            handle: HandleId::Waypoint(1),
            to: Vec2::new(12.0, 3.0),
        },
    )
    .unwrap();
    assert!(
        matches!(&l.platforms[0].motion, MotionDef::Path { points, .. } if points[1] == P(12.0, 3.0))
    );
    apply(
        &mut l,
        &Op::SetHandle {
            object: ObjectRef::GOAL,
            handle: HandleId::Spawn,
            to: Vec2::new(2.0, 2.0),
        },
    )
    .unwrap();
    assert_eq!(l.spawn, P(2.0, 2.0));
    apply(
        &mut l,
        &Op::MoveSpawn {
            to: Vec2::new(-1.0, 3.0),
        },
    )
    .unwrap();
    assert_eq!(l.spawn, P(-1.0, 3.0));
    let kept = apply(&mut l, &Op::MoveSpawn { to: Vec2::ZERO }).unwrap();
    assert!(kept.selection_unchanged && kept.selection.is_empty());
    let moved = apply(
        &mut l,
        &Op::Move {
            objects: vec![r(Kind::Ring, 0)],
            delta: Vec2::ONE,
        },
    )
    .unwrap();
    assert!(!moved.selection_unchanged);
    assert_eq!(moved.selection, vec![r(Kind::Ring, 0)]);
    let e = apply(
        &mut l,
        &Op::SetHandle {
            object: r(Kind::Ring, 0),
            handle: HandleId::Radius,
            to: Vec2::ZERO,
        },
    );
    let refused = e.unwrap_err();
    assert_eq!(
        refused,
        OpError::Handle {
            object: r(Kind::Ring, 0),
            problem: HandleError::NoHandle(HandleId::Radius),
        }
    );
    assert_eq!(
        refused.to_string(),
        "grapple_points[0] has no handle Radius"
    );
}

#[test]
fn ids_stay_unique_when_set_by_hand() {
    let mut l = level();
    let before = l.clone();
    let e = apply(
        &mut l,
        &Op::SetField {
            object: r(Kind::Solid, 0),
            field: "id".into(),
            value: "\"plate\"".into(),
        },
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "solids[0]: the id \"plate\" is already used by another object"
    );
    let e = apply(
        &mut l,
        &Op::ReplaceObject {
            object: r(Kind::Switch, 0),
            ron: "(id: \"lift\", min: (0.0, 0.0), max: (1.0, 1.0))".into(),
        },
    );
    assert_eq!(
        e.unwrap_err(),
        OpError::IdTaken {
            object: r(Kind::Switch, 0),
            id: "lift".into(),
        }
    );
    assert_eq!(l, before);
    apply(
        &mut l,
        &Op::ReplaceObject {
            object: r(Kind::Switch, 0),
            ron: "(id: \"plate\", min: (0.0, 0.0), max: (1.0, 1.0))".into(),
        },
    )
    .unwrap();
    assert_eq!(l.switches[0].min, P(0.0, 0.0));
}

#[test]
fn refs_shift_after_a_delete() {
    let deleted = [r(Kind::Solid, 1), r(Kind::Solid, 3)];
    assert_eq!(
        refs_after_delete(
            &deleted,
            &[
                r(Kind::Solid, 0),
                r(Kind::Solid, 1),
                r(Kind::Solid, 4),
                r(Kind::Ring, 2),
                ObjectRef::GOAL
            ]
        ),
        vec![
            r(Kind::Solid, 0),
            r(Kind::Solid, 2),
            r(Kind::Ring, 2),
            ObjectRef::GOAL
        ]
    );
}
