//! The editing operations. `apply` is all-or-nothing: it works on a copy and replaces the level
//! only when the operation succeeded and left every object it touched with finite numbers and
//! ids unique in the level, so a failed operation leaves the level exactly as it was.

use std::collections::BTreeMap;
use std::fmt;

use super::fields;
use super::geometry::{self, HandleId};
use super::kinds::{Kind, ObjectRef};
use super::object::Object;
use super::text;
use crate::sim::level::{
    CheckpointDef, ClothDef, DriveDef, FragileDef, LevelDef, LoadDef, MotionDef, PlatformDef,
    RingDef, ShapeDef, SignDef, SolidDef, SwitchDef, VineDef, WinchDef, WindDef, P,
};
use crate::sim::math::Vec2;
use crate::sim::objects::cloth::{ClothLook, PinsDef};
use crate::sim::objects::fragile::FragileAnchorDef;
use crate::sim::objects::MAX_ID_CHARS;

/// The id a new switch is given (made unique: `switch-2`, ...).
pub const NEW_SWITCH_ID: &str = "switch";
/// The text of a new sign.
pub const NEW_SIGN_TEXT: &str = "Sign";

/// One change to a level, as the UI asks for it.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// A template object of `kind` centred at `at` (not the goal: there is one, it only moves).
    Create { kind: Kind, at: Vec2 },
    /// Removes the objects. The goal cannot be deleted: it is skipped (and stays selected).
    Delete(Vec<ObjectRef>),
    /// Copies of the objects moved by `offset`, with fresh ids ("lift" → "lift-2"). A copied
    /// winch driven by a switch copied with it is driven by the copy.
    Duplicate {
        objects: Vec<ObjectRef>,
        offset: Vec2,
    },
    /// Moves all of each object (a platform's path and pivot too).
    Move {
        objects: Vec<ObjectRef>,
        delta: Vec2,
    },
    /// Drags one handle of an object to `to`. `HandleId::Spawn` moves the spawn, whatever the
    /// object.
    SetHandle {
        object: ObjectRef,
        handle: HandleId,
        to: Vec2,
    },
    /// Turns the objects by `deg` counter-clockwise about `about` (see
    /// `geometry::rotate_object` for what turns and what only moves).
    Rotate {
        objects: Vec<ObjectRef>,
        about: Vec2,
        deg: f32,
    },
    /// Sets one field of an object to a RON value (empty: back to its default); see `fields`.
    SetField {
        object: ObjectRef,
        field: String,
        value: String,
    },
    /// Replaces the object by the object written in `ron` (its whole RON text).
    ReplaceObject { object: ObjectRef, ron: String },
    /// Sets a level-wide field (`name`, `spawn`, `view_height_m`, `kill_y_m`,
    /// `max_rope_length_m`, `fragile_rope`) to a RON value; see `fields::level_fields`.
    SetLevel { field: String, value: String },
    /// Moves the spawn point.
    MoveSpawn { to: Vec2 },
}

/// What an operation left selected, for the UI.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Applied {
    /// The created or duplicated objects, the objects moved or changed, or after a delete what
    /// is left of the selection (the goal, if it was in it). Indices are those of the level
    /// after the operation.
    pub selection: Vec<ObjectRef>,
    /// True when the op changed no object (the level's fields, the spawn): the selection the
    /// UI holds is still good, and `selection` is empty.
    pub selection_unchanged: bool,
}

/// Why an operation was refused (the level is unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpError(pub String);

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpError {}

fn err<T>(message: impl Into<String>) -> Result<T, OpError> {
    Err(OpError(message.into()))
}

/// Applies `op` to `level`: all of it, or nothing and an error saying why.
pub fn apply(level: &mut LevelDef, op: &Op) -> Result<Applied, OpError> {
    let mut work = level.clone();
    let (applied, touched) = apply_to(&mut work, op)?;
    check_touched(&work, &touched)?;
    *level = work;
    Ok(applied)
}

/// The refs of `objects`, each once, in order, all existing.
fn existing(level: &LevelDef, objects: &[ObjectRef]) -> Result<Vec<ObjectRef>, OpError> {
    let mut refs = objects.to_vec();
    refs.sort_unstable();
    refs.dedup();
    for r in &refs {
        if !r.exists(level) {
            return err(format!(
                "{} does not exist (the level has changed since it was selected)",
                r.name()
            ));
        }
    }
    Ok(refs)
}

fn get(level: &LevelDef, r: ObjectRef) -> Result<Object, OpError> {
    Object::get(level, r).ok_or_else(|| {
        OpError(format!(
            "{} does not exist (the level has changed since it was selected)",
            r.name()
        ))
    })
}

fn finite(what: &str, v: Vec2) -> Result<(), OpError> {
    if v.is_finite() {
        Ok(())
    } else {
        err(format!("{what} ({}, {}) is not a finite point", v.x, v.y))
    }
}

/// What an op that changed only the level's own fields leaves selected: what was.
fn level_only() -> Applied {
    Applied {
        selection: vec![],
        selection_unchanged: true,
    }
}

/// `None` in the touched list stands for the level's own fields.
type Touched = Vec<Option<ObjectRef>>;

fn apply_to(level: &mut LevelDef, op: &Op) -> Result<(Applied, Touched), OpError> {
    match op {
        Op::Create { kind, at } => create(level, *kind, *at),
        Op::Delete(objects) => delete(level, objects),
        Op::Duplicate { objects, offset } => duplicate(level, objects, *offset),
        Op::Move { objects, delta } => {
            finite("the move", *delta)?;
            let refs = existing(level, objects)?;
            for r in &refs {
                let mut object = get(level, *r)?;
                geometry::translate_object(&mut object, *delta);
                object.put(level, *r);
            }
            Ok(changed(refs))
        }
        Op::SetHandle { object, handle, to } => {
            finite("the handle's place", *to)?;
            if *handle == HandleId::Spawn {
                level.spawn = P(to.x, to.y);
                return Ok((level_only(), vec![None]));
            }
            let mut def = get(level, *object)?;
            geometry::set_object_handle(&mut def, *handle, *to)
                .map_err(|m| OpError(format!("{} {m}", object.name())))?;
            def.put(level, *object);
            Ok(changed(vec![*object]))
        }
        Op::Rotate {
            objects,
            about,
            deg,
        } => {
            finite("the centre of the turn", *about)?;
            if !deg.is_finite() {
                return err(format!("the angle {deg} is not a finite number"));
            }
            let refs = existing(level, objects)?;
            for r in &refs {
                let mut object = get(level, *r)?;
                geometry::rotate_object(&mut object, *about, *deg);
                object.put(level, *r);
            }
            Ok(changed(refs))
        }
        Op::SetField {
            object,
            field,
            value,
        } => {
            let def = get(level, *object)?;
            let new = fields::with_field(&def, field, value)
                .map_err(|m| OpError(format!("{}: {m}", object.name())))?;
            new.put(level, *object);
            Ok(changed(vec![*object]))
        }
        Op::ReplaceObject { object, ron } => {
            get(level, *object)?;
            let new = fields::parse_object(object.kind, ron)
                .map_err(|m| OpError(format!("{}: {m}", object.name())))?;
            new.put(level, *object);
            Ok(changed(vec![*object]))
        }
        Op::SetLevel { field, value } => {
            fields::set_level_field(level, field, value).map_err(OpError)?;
            Ok((level_only(), vec![None]))
        }
        Op::MoveSpawn { to } => {
            finite("the spawn", *to)?;
            level.spawn = P(to.x, to.y);
            Ok((level_only(), vec![None]))
        }
    }
}

/// What an op that changed `refs` leaves: those objects, selected.
fn changed(refs: Vec<ObjectRef>) -> (Applied, Touched) {
    let touched = refs.iter().copied().map(Some).collect();
    (
        Applied {
            selection: refs,
            selection_unchanged: false,
        },
        touched,
    )
}

/// A new object of `kind` from its template, centred on `at`.
fn create(level: &mut LevelDef, kind: Kind, at: Vec2) -> Result<(Applied, Touched), OpError> {
    finite("the place to create at", at)?;
    let mut object = template(level, kind)?;
    let (lo, hi) = geometry::object_bounds(&object);
    geometry::translate_object(&mut object, at - (lo + hi) * 0.5);
    let r = object
        .push(level)
        .ok_or_else(|| OpError(format!("a {} cannot be created", kind.label())))?;
    check_list_sizes(level)?;
    Ok(changed(vec![r]))
}

/// Deletes `objects` (the goal stays: it can only be moved).
fn delete(level: &mut LevelDef, objects: &[ObjectRef]) -> Result<(Applied, Touched), OpError> {
    let refs = existing(level, objects)?;
    let goal_selected = refs.iter().any(|r| r.kind.is_single());
    let doomed: Vec<ObjectRef> = refs.into_iter().filter(|r| !r.kind.is_single()).collect();
    if doomed.is_empty() && goal_selected {
        return err("the goal cannot be deleted, only moved");
    }
    // From the back of each list, so the indices still to remove do not shift.
    for r in doomed.iter().rev() {
        Object::remove(level, *r);
    }
    let selection = if goal_selected {
        vec![ObjectRef::GOAL]
    } else {
        vec![]
    };
    Ok((
        Applied {
            selection,
            selection_unchanged: false,
        },
        vec![],
    ))
}

/// Copies of `objects` moved by `offset`, with fresh ids; a copied winch driven by a copied
/// switch is driven by the copy.
fn duplicate(
    level: &mut LevelDef,
    objects: &[ObjectRef],
    offset: Vec2,
) -> Result<(Applied, Touched), OpError> {
    finite("the offset", offset)?;
    let refs = existing(level, objects)?;
    let copies: Vec<ObjectRef> = refs
        .iter()
        .copied()
        .filter(|r| !r.kind.is_single())
        .collect();
    if copies.is_empty() && !refs.is_empty() {
        return err("the goal cannot be duplicated: a level has one");
    }
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    let mut new_objects = Vec::new();
    for r in &copies {
        let mut object = get(level, *r)?;
        geometry::translate_object(&mut object, offset);
        if let Some(id) = object.id().map(str::to_string) {
            let fresh = fresh_id(level, &new_objects, &id);
            renamed.insert(id, fresh.clone());
            object.set_id(fresh);
        }
        new_objects.push(object);
    }
    let mut selection = Vec::new();
    for mut object in new_objects {
        if let Object::Winch(w) = &mut object {
            if let DriveDef::Switch(id) = &mut w.drive {
                if let Some(fresh) = renamed.get(id) {
                    *id = fresh.clone();
                }
            }
        }
        selection.extend(object.push(level));
    }
    check_list_sizes(level)?;
    Ok(changed(selection))
}

/// Adding objects stops at each list's limit (`LevelDef::object_lists`), so the editor never
/// makes a level the game refuses for its size.
fn check_list_sizes(level: &LevelDef) -> Result<(), OpError> {
    for list in level.object_lists() {
        if list.items.len() > list.max_count {
            return err(format!(
                "a level holds at most {} {}",
                list.max_count, list.field
            ));
        }
    }
    Ok(())
}

/// Every object (or the level's fields) an operation changed must hold finite numbers only,
/// and an id no other object of the level has.
fn check_touched(level: &LevelDef, touched: &Touched) -> Result<(), OpError> {
    let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
    for list in level.object_lists() {
        for item in &list.items {
            if let Some(id) = item.id() {
                *ids.entry(id).or_default() += 1;
            }
        }
    }
    for t in touched {
        match t {
            None => {
                if text::has_non_finite(&text::compact(&fields::header(level))) {
                    return err("the level's fields would hold a number that is not finite");
                }
            }
            Some(r) => {
                let object = get(level, *r)?;
                if text::has_non_finite(&object.to_compact_ron()) {
                    return err(format!(
                        "{} would hold a number that is not finite (a coordinate out of range?)",
                        r.name()
                    ));
                }
                if let Some(id) = object.id() {
                    if ids.get(id).copied().unwrap_or(0) > 1 {
                        return err(format!(
                            "{}: the id \"{id}\" is already used by another object",
                            r.name()
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Whether some object of `level` or of `pending` has the id `id`.
fn id_taken(level: &LevelDef, pending: &[Object], id: &str) -> bool {
    level
        .object_lists()
        .iter()
        .flat_map(|l| l.items.iter())
        .any(|o| o.id() == Some(id))
        || pending.iter().any(|o| o.id() == Some(id))
}

/// An id like `id` that no object has: `lift` → `lift-2`, `lift-2` → `lift-3`, kept within
/// the id length limit.
pub fn fresh_id_in(level: &LevelDef, id: &str) -> String {
    fresh_id(level, &[], id)
}

fn fresh_id(level: &LevelDef, pending: &[Object], id: &str) -> String {
    let base = match id.rsplit_once('-') {
        Some((head, tail))
            if !head.is_empty() && !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit()) =>
        {
            head
        }
        _ => id,
    };
    let base = if base.is_empty() { "object" } else { base };
    if !id_taken(level, pending, id) {
        return id.to_string();
    }
    (2usize..)
        .map(|n| {
            let suffix = format!("-{n}");
            let keep = MAX_ID_CHARS.saturating_sub(suffix.len());
            let head: String = base.chars().take(keep).collect();
            format!("{head}{suffix}")
        })
        .find(|candidate| !id_taken(level, pending, candidate))
        .expect("some number is free")
}

/// The object `Create` makes, at the origin (`apply` centres it where asked). Every template
/// passes the level's checks on its own.
fn template(level: &LevelDef, kind: Kind) -> Result<Object, OpError> {
    let o = P(0.0, 0.0);
    let box_at = |hx: f32, hy: f32| ShapeDef::Box {
        center: o,
        half_extents: P(hx, hy),
        rotation_deg: 0.0,
    };
    Ok(match kind {
        Kind::Goal => return err("the goal cannot be created: a level has one, move it instead"),
        Kind::Solid => Object::Solid(SolidDef {
            id: None,
            shape: box_at(2.0, 0.5),
            hookable: true,
        }),
        Kind::Hazard => Object::Hazard(crate::sim::level::HazardDef(box_at(2.0, 0.5))),
        Kind::Checkpoint => Object::Checkpoint(CheckpointDef {
            id: None,
            min: P(-1.0, -1.5),
            max: P(1.0, 1.5),
        }),
        Kind::Ring => Object::Ring(RingDef(o)),
        Kind::Platform => Object::Platform(PlatformDef {
            id: None,
            shape: box_at(2.0, 0.3),
            hookable: true,
            motion: MotionDef::Path {
                points: vec![o, P(8.0, 0.0)],
                speed_m_per_s: 3.0,
                ping_pong: true,
                pause_s: 0.0,
            },
        }),
        Kind::Switch => Object::Switch(SwitchDef {
            id: fresh_id(level, &[], NEW_SWITCH_ID),
            min: P(-1.0, -0.25),
            max: P(1.0, 0.25),
        }),
        Kind::Winch => Object::Winch(WinchDef {
            id: None,
            at: o,
            min_length_m: 2.0,
            max_length_m: 8.0,
            start_length_m: None,
            speed_m_per_s: 2.0,
            load: LoadDef::Weight {
                radius_m: 0.5,
                mass_kg: 50.0,
            },
            drive: DriveDef::Timer { wait_s: 1.0 },
        }),
        Kind::Vine => Object::Vine(VineDef {
            id: None,
            at: o,
            length_m: 6.0,
            weight_kg: 0.0,
        }),
        Kind::Wind => Object::Wind(WindDef {
            id: None,
            region: box_at(4.0, 3.0),
            direction_deg: 0.0,
            speed_m_per_s: 5.0,
            gust: None,
        }),
        Kind::Fragile => Object::Fragile(FragileDef {
            id: None,
            anchor: FragileAnchorDef::Beam {
                shape: box_at(1.5, 0.3),
            },
            breaks_at_n: 4000.0,
            after_s: 0.5,
        }),
        Kind::Cloth => Object::Cloth(ClothDef {
            id: None,
            top_left: o,
            columns: 6,
            rows: 8,
            spacing_m: 0.3,
            pins: PinsDef::TopRow,
            tears_at_stretch: None,
            look: ClothLook::Banner,
        }),
        Kind::Sign => Object::Sign(SignDef {
            id: None,
            at: o,
            text: NEW_SIGN_TEXT.to_string(),
        }),
    })
}

/// Where the refs `refs` are after the objects `deleted` were removed: deleted ones dropped,
/// later ones of the same kind shifted down. For the UI to fix up refs it keeps.
pub fn refs_after_delete(deleted: &[ObjectRef], refs: &[ObjectRef]) -> Vec<ObjectRef> {
    refs.iter()
        .filter(|r| r.kind.is_single() || !deleted.contains(r))
        .map(|r| {
            if r.kind.is_single() {
                return *r;
            }
            let mut gone: Vec<usize> = deleted
                .iter()
                .filter(|d| d.kind == r.kind && d.index < r.index)
                .map(|d| d.index)
                .collect();
            gone.sort_unstable();
            gone.dedup();
            ObjectRef::new(r.kind, r.index - gone.len())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::geometry::bounds;
    use crate::sim::level::RonError;

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
        assert!(e.0.contains("at most 500 grapple_points"), "{e}");
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
            assert!(e.0.contains("does not exist"), "{op:?}: {e}");
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
        assert!(apply(&mut l, &far).unwrap_err().0.contains("not finite"));
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
        assert!(e.unwrap_err().0.contains("no handle"));
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
        assert!(e.unwrap_err().0.contains("already used"));
        let e = apply(
            &mut l,
            &Op::ReplaceObject {
                object: r(Kind::Switch, 0),
                ron: "(id: \"lift\", min: (0.0, 0.0), max: (1.0, 1.0))".into(),
            },
        );
        assert!(e.unwrap_err().0.contains("already used"));
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
}
