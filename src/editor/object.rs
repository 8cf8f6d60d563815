//! One object of any kind, owned: what the operations take out of a level, change and put back.
//! `Object` and its per-kind matches are generated from the simulation's table of kinds
//! (`object_kinds!`); what the editor does with one kind (its template, bounds, handles, moves)
//! is that kind's [`EditKind`] impl (`geometry/per_kind.rs`), so a kind added to the table does
//! not compile until the editor knows it.

use serde::de::DeserializeOwned;

use super::handle::{Handle, HandleError, HandleId};
use super::kinds::{Kind, ObjectRef};
use super::text;
use crate::sim::level::{LevelDef, RonError};
use crate::sim::math::Vec2;
use crate::sim::objects::{ObjectDef, MAX_ID_CHARS};

/// Why `Create` cannot make an object of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CreateError {
    /// A kind a level holds exactly one of (the goal): it is moved, not made.
    OnlyOne(Kind),
}

impl std::fmt::Display for CreateError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            CreateError::OnlyOne(kind) => write!(
                f,
                "the {} cannot be created: a level has one, move it instead",
                kind.label()
            ),
        }
    }
}

impl std::error::Error for CreateError {}

/// What the editor does with one kind of object, implemented on its definition.
pub trait EditKind: Sized {
    /// How a click ranks this kind against others under the mouse (lower wins): small markers
    /// 0, the level's bodies 1, invisible regions 2.
    const PICK_RANK: u8;
    /// The object `Create` makes, at the origin (`apply` centres it where asked); it passes the
    /// level's checks on its own. Err says why the kind cannot be created.
    fn template(level: &LevelDef) -> Result<Self, CreateError>;
    /// The object's axis-aligned bounds in world metres, as written.
    fn bounds(&self) -> (Vec2, Vec2);
    /// Whether `at` is on the object (within `tolerance_m`).
    fn hit(&self, at: Vec2, tolerance_m: f32) -> bool;
    /// Pushes the handles the editor draws on the object when it is selected.
    fn handles(&self, _out: &mut Vec<Handle>) {}
    /// Drags handle `id` to `to`. Err names a handle the object does not have.
    fn set_handle(&mut self, id: HandleId, _to: Vec2) -> Result<(), HandleError> {
        Err(super::handle::no_handle(id))
    }
    /// Moves everything of the object by `delta`.
    fn translate(&mut self, delta: Vec2);
    /// Turns the object by `deg` counter-clockwise about `about` (see `geometry::rotate_object`).
    fn rotate(&mut self, about: Vec2, deg: f32);
    /// Gives the object a new id; false for the kinds that carry none.
    fn set_id(&mut self, _id: String) -> bool {
        false
    }
}

/// Generates `Object` and its per-kind matches from the table of kinds.
macro_rules! object_enum {
    (
        single: $single:ident $single_field:ident $single_label:tt $single_def:ty;
        lists: $( $(#[$doc:meta])* $kind:ident $field:ident $label:tt $def:ty, $max:expr, $skip:tt; )*
    ) => {
        /// One object's definition, of any kind.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Object {
            $single($single_def),
            $($kind($def),)*
        }

        /// Runs `$body` with `$d` bound to the definition inside any `Object` variant.
        macro_rules! each_def {
            ($object:expr, $d:ident => $body:expr) => {
                match $object {
                    Object::$single($d) => $body,
                    $(Object::$kind($d) => $body,)*
                }
            };
        }

        impl Object {
            pub fn kind(&self) -> Kind {
                match self {
                    Object::$single(_) => Kind::$single,
                    $(Object::$kind(_) => Kind::$kind,)*
                }
            }

            /// A copy of the object `obj` of `level`; `None` for a stale ref.
            pub fn get(level: &LevelDef, obj: ObjectRef) -> Option<Object> {
                let i = obj.index;
                Some(match obj.kind {
                    Kind::$single => {
                        if i != 0 {
                            return None;
                        }
                        Object::$single(Clone::clone(&level.$single_field))
                    }
                    $(Kind::$kind => Object::$kind(Clone::clone(level.$field.get(i)?)),)*
                })
            }

            /// Puts `self` in place of the object `obj`. False (and nothing changed) when the
            /// ref is stale or of another kind.
            pub fn put(self, level: &mut LevelDef, obj: ObjectRef) -> bool {
                let i = obj.index;
                if obj.kind != self.kind() {
                    return false;
                }
                match self {
                    Object::$single(d) => {
                        if i != 0 {
                            return false;
                        }
                        level.$single_field = d;
                        true
                    }
                    $(Object::$kind(d) => put_at(&mut level.$field, i, d),)*
                }
            }

            /// Appends `self` to its kind's list; `None` for the goal (there is only one).
            pub fn push(self, level: &mut LevelDef) -> Option<ObjectRef> {
                let kind = self.kind();
                match self {
                    Object::$single(_) => return None,
                    $(Object::$kind(d) => level.$field.push(d),)*
                }
                Some(ObjectRef::new(kind, kind.count(level) - 1))
            }

            /// Removes the object `obj` from its list. False for the goal or a stale ref.
            pub fn remove(level: &mut LevelDef, obj: ObjectRef) -> bool {
                match obj.kind {
                    Kind::$single => false,
                    $(Kind::$kind => remove_at(&mut level.$field, obj.index),)*
                }
            }

            /// Parses `text` as an object of `kind`, with the parser and options of level files.
            pub fn parse(kind: Kind, text: &str, file: &str) -> Result<Object, RonError> {
                Ok(match kind {
                    Kind::$single => Object::$single(parse_as(text, file)?),
                    $(Kind::$kind => Object::$kind(parse_as(text, file)?),)*
                })
            }

            /// The field names the kind's RON struct accepts, from serde; empty for the tuple
            /// kinds (a hazard is its shape, a ring its point).
            pub fn serde_fields(kind: Kind) -> &'static [&'static str] {
                match kind {
                    Kind::$single => text::struct_fields::<$single_def>(),
                    $(Kind::$kind => text::struct_fields::<$def>(),)*
                }
            }

            /// The object `Create` makes of `kind`, at the origin (its `EditKind::template`).
            pub fn template(level: &LevelDef, kind: Kind) -> Result<Object, CreateError> {
                Ok(match kind {
                    Kind::$single => Object::$single(EditKind::template(level)?),
                    $(Kind::$kind => Object::$kind(EditKind::template(level)?),)*
                })
            }

            /// How a click ranks this object against others under the mouse (lower wins).
            pub fn pick_rank(&self) -> u8 {
                match self {
                    Object::$single(_) => <$single_def as EditKind>::PICK_RANK,
                    $(Object::$kind(_) => <$def as EditKind>::PICK_RANK,)*
                }
            }
        }
    };
}

crate::sim::object_kinds!(object_enum);

fn put_at<T>(list: &mut [T], i: usize, value: T) -> bool {
    match list.get_mut(i) {
        Some(slot) => {
            *slot = value;
            true
        }
        None => false,
    }
}

fn remove_at<T>(list: &mut Vec<T>, i: usize) -> bool {
    if i < list.len() {
        list.remove(i);
        true
    } else {
        false
    }
}

fn parse_as<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, RonError> {
    RonError::parse::<T>(text, file)
}

impl Object {
    /// The object's id, if it has one (a switch always has).
    pub fn id(&self) -> Option<&str> {
        each_def!(self, d => ObjectDef::id(d))
    }

    /// Gives the object a new id; false for the kinds that carry none.
    pub fn set_id(&mut self, id: String) -> bool {
        each_def!(self, d => d.set_id(id))
    }

    /// The object's axis-aligned bounds in world metres, as written.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        each_def!(self, d => d.bounds())
    }

    /// Whether `at` is on the object (within `tolerance_m`).
    pub fn hit(&self, at: Vec2, tolerance_m: f32) -> bool {
        each_def!(self, d => d.hit(at, tolerance_m))
    }

    /// The handles the editor draws on the object when it is selected.
    pub fn handles(&self) -> Vec<Handle> {
        let mut out = Vec::new();
        each_def!(self, d => d.handles(&mut out));
        out
    }

    /// Drags handle `id` to `to`. Err names a handle the object does not have.
    pub fn set_handle(&mut self, id: HandleId, to: Vec2) -> Result<(), HandleError> {
        each_def!(self, d => d.set_handle(id, to))
    }

    /// Moves everything of the object by `delta`.
    pub fn translate(&mut self, delta: Vec2) {
        each_def!(self, d => d.translate(delta))
    }

    /// Turns the object by `deg` counter-clockwise about `about`.
    pub fn rotate(&mut self, about: Vec2, deg: f32) {
        each_def!(self, d => d.rotate(about, deg))
    }

    /// The object as compact one-line RON, every field written (see `text::compact`).
    pub fn to_compact_ron(&self) -> String {
        each_def!(self, d => text::compact(d))
    }

    /// The object as a hand-written file would have it: one line, fields at their default
    /// left out.
    pub fn to_ron(&self) -> String {
        each_def!(self, d => text::minimal(d))
    }
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

/// An id like `id` that no object of `level` nor of `pending` (copies not yet added) has.
pub fn fresh_id(level: &LevelDef, pending: &[Object], id: &str) -> String {
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
