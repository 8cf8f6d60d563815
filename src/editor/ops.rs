//! The editing operations. `apply` is all-or-nothing: it works on a copy and replaces the level
//! only when the operation succeeded and left every object it touched with finite numbers and
//! ids unique in the level, so a failed operation leaves the level exactly as it was.

use std::collections::BTreeMap;

use super::fields;
use super::geometry::{self, HandleId};
use super::kinds::{Kind, ObjectRef};
use super::object::{fresh_id, Object};
use super::text;
use crate::sim::level::{DriveDef, LevelDef, P};
use crate::sim::math::Vec2;

mod error;

pub use self::error::OpError;
pub use super::geometry::{NEW_SIGN_TEXT, NEW_SWITCH_ID};
pub use super::object::fresh_id_in;

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
            return Err(OpError::Missing(*r));
        }
    }
    Ok(refs)
}

fn get(level: &LevelDef, r: ObjectRef) -> Result<Object, OpError> {
    Object::get(level, r).ok_or(OpError::Missing(r))
}

fn finite(what: &'static str, point: Vec2) -> Result<(), OpError> {
    if point.is_finite() {
        Ok(())
    } else {
        Err(OpError::NotFinite { what, point })
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
            geometry::set_object_handle(&mut def, *handle, *to).map_err(|problem| {
                OpError::Handle {
                    object: *object,
                    problem,
                }
            })?;
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
                return Err(OpError::AngleNotFinite { deg: *deg });
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
            let new = fields::with_field(&def, field, value).map_err(OpError::field_of(*object))?;
            new.put(level, *object);
            Ok(changed(vec![*object]))
        }
        Op::ReplaceObject { object, ron } => {
            get(level, *object)?;
            let new = fields::parse_object(object.kind, ron).map_err(OpError::field_of(*object))?;
            new.put(level, *object);
            Ok(changed(vec![*object]))
        }
        Op::SetLevel { field, value } => {
            fields::set_level_field(level, field, value).map_err(OpError::LevelField)?;
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
    let mut object = Object::template(level, kind).map_err(OpError::Template)?;
    let (lo, hi) = geometry::object_bounds(&object);
    geometry::translate_object(&mut object, at - (lo + hi) * 0.5);
    let r = object.push(level).ok_or(OpError::CannotCreate(kind))?;
    check_list_sizes(level)?;
    Ok(changed(vec![r]))
}

/// Deletes `objects` (the goal stays: it can only be moved).
fn delete(level: &mut LevelDef, objects: &[ObjectRef]) -> Result<(Applied, Touched), OpError> {
    let refs = existing(level, objects)?;
    let goal_selected = refs.iter().any(|r| r.kind.is_single());
    let doomed: Vec<ObjectRef> = refs.into_iter().filter(|r| !r.kind.is_single()).collect();
    if doomed.is_empty() && goal_selected {
        return Err(OpError::GoalNotDeleted);
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
        return Err(OpError::GoalNotDuplicated);
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
            return Err(OpError::TooMany {
                field: list.field,
                max: list.max_count,
            });
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
                    return Err(OpError::LevelNotFinite);
                }
            }
            Some(r) => {
                let object = get(level, *r)?;
                if text::has_non_finite(&object.to_compact_ron()) {
                    return Err(OpError::ObjectNotFinite(*r));
                }
                if let Some(id) = object.id() {
                    if ids.get(id).copied().unwrap_or(0) > 1 {
                        return Err(OpError::IdTaken {
                            object: *r,
                            id: id.to_string(),
                        });
                    }
                }
            }
        }
    }
    Ok(())
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
mod tests;
