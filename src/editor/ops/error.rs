//! Why an editing operation was refused. Each refusal keeps the object and the field or value
//! it is about; `Display` gives the words the editor's status bar has always shown.

use std::fmt;

use super::super::fields::FieldError;
use super::super::handle::HandleError;
use super::super::kinds::{Kind, ObjectRef};
use super::super::object::CreateError;
use crate::sim::math::Vec2;

/// Why an operation was refused (the level is unchanged).
#[derive(Clone, Debug, PartialEq)]
pub enum OpError {
    /// An object the operation names is gone: the level changed since it was selected.
    Missing(ObjectRef),
    /// A point the operation was given (`what`: "the move", "the spawn", …) is not finite.
    NotFinite {
        what: &'static str,
        point: Vec2,
    },
    /// A rotation by an angle that is not a finite number.
    AngleNotFinite {
        deg: f32,
    },
    /// A handle of `object` could not go where it was dragged.
    Handle {
        object: ObjectRef,
        problem: HandleError,
    },
    /// A field of `object` (or its whole text, when replaced) was refused.
    Field {
        object: ObjectRef,
        problem: FieldError,
    },
    /// One of the level's own fields was refused.
    LevelField(FieldError),
    /// The kind has no template to create from.
    Template(CreateError),
    /// The kind's list would not take one more.
    CannotCreate(Kind),
    GoalNotDeleted,
    GoalNotDuplicated,
    /// Adding would pass a list's limit (`LevelDef::object_lists`).
    TooMany {
        field: &'static str,
        max: usize,
    },
    /// The level's own fields would hold a number that is not finite.
    LevelNotFinite,
    /// `object` would hold a number that is not finite.
    ObjectNotFinite(ObjectRef),
    /// `object`'s id is already another object's.
    IdTaken {
        object: ObjectRef,
        id: String,
    },
}

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpError::Missing(object) => write!(
                f,
                "{} does not exist (the level has changed since it was selected)",
                object.name()
            ),
            OpError::NotFinite { what, point } => {
                write!(f, "{what} ({}, {}) is not a finite point", point.x, point.y)
            }
            OpError::AngleNotFinite { deg } => write!(f, "the angle {deg} is not a finite number"),
            OpError::Handle { object, problem } => write!(f, "{} {problem}", object.name()),
            OpError::Field { object, problem } => write!(f, "{}: {problem}", object.name()),
            OpError::LevelField(problem) => write!(f, "{problem}"),
            OpError::Template(problem) => write!(f, "{problem}"),
            OpError::CannotCreate(kind) => write!(f, "a {} cannot be created", kind.label()),
            OpError::GoalNotDeleted => f.write_str("the goal cannot be deleted, only moved"),
            OpError::GoalNotDuplicated => {
                f.write_str("the goal cannot be duplicated: a level has one")
            }
            OpError::TooMany { field, max } => write!(f, "a level holds at most {max} {field}"),
            OpError::LevelNotFinite => {
                f.write_str("the level's fields would hold a number that is not finite")
            }
            OpError::ObjectNotFinite(object) => write!(
                f,
                "{} would hold a number that is not finite (a coordinate out of range?)",
                object.name()
            ),
            OpError::IdTaken { object, id } => write!(
                f,
                "{}: the id \"{id}\" is already used by another object",
                object.name()
            ),
        }
    }
}

impl std::error::Error for OpError {}

impl OpError {
    /// For `map_err`: `object`'s field (or whole text) was refused.
    pub(super) fn field_of(object: ObjectRef) -> impl Fn(FieldError) -> OpError {
        move |problem| OpError::Field { object, problem }
    }
}
