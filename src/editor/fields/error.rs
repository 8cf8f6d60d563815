//! Why a value typed into the property panel (or an object's text pasted in) is refused: the
//! field, the place in the typed text, and the problem. The text is made only when the panel
//! shows it.

use std::fmt;

use crate::editor::kinds::Kind;
use crate::sim::level::RonError;
use crate::sim::limits;

/// Where in typed text: `column C`, or `line L, column C` when the text has several lines
/// (both 1-based, in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextSpot {
    /// `None`: the text is one line, so the column alone says where.
    pub line: Option<usize>,
    pub column: usize,
}

impl TextSpot {
    /// Where byte `at` of `text` is.
    pub fn of_byte(text: &str, at: usize) -> TextSpot {
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        TextSpot {
            line: text.contains('\n').then_some(line),
            column,
        }
    }

    /// Where a parse error is (`None`: it has no position, a whole-text problem). Line 1 is
    /// shown as a column alone.
    fn of_ron_error(e: &RonError) -> Option<TextSpot> {
        match e.line {
            0 => None,
            1 => Some(TextSpot {
                line: None,
                column: e.column,
            }),
            line => Some(TextSpot {
                line: Some(line),
                column: e.column,
            }),
        }
    }
}

impl fmt::Display for TextSpot {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}, column {}", self.column),
            None => write!(f, "column {}", self.column),
        }
    }
}

/// How a typed value fails to be one RON value (which could close its struct and write other
/// fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueProblem {
    ClosesNothing,
    CommaOutsideBrackets,
    NeverClosed,
}

impl fmt::Display for ValueProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            ValueProblem::ClosesNothing => "this bracket closes nothing",
            ValueProblem::CommaOutsideBrackets => {
                "a comma outside brackets: the value must be one RON value"
            }
            ValueProblem::NeverClosed => "this bracket is never closed",
        })
    }
}

/// Why setting a field (or replacing a whole object's text) was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldError {
    /// `on`: the object's kind, `None` for the level itself. `field` is as typed.
    NoSuchField {
        on: Option<Kind>,
        field: String,
        names: &'static [&'static str],
    },
    /// The kinds that are a bare value (a hazard, a ring) have one pseudo-field.
    OnlyField { kind: Kind, field: &'static str },
    /// The value is not one RON value; `at` is in the typed value.
    NotOneValue {
        field: String,
        at: TextSpot,
        problem: ValueProblem,
    },
    /// The text does not parse, or its values are refused: ron's own message, with the line and
    /// column moved into the typed value. `field`: `None` when a whole object was typed.
    Parse {
        field: Option<String>,
        error: RonError,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FieldError::NoSuchField { on, field, names } => {
                match on {
                    Some(kind) => write!(f, "a {}", kind.label())?,
                    None => write!(f, "the level")?,
                }
                write!(
                    f,
                    " has no field \"{}\" (its fields: {})",
                    limits::printable(field),
                    names.join(", ")
                )
            }
            FieldError::OnlyField { kind, field } => {
                write!(f, "a {} has one field, \"{field}\"", kind.label())
            }
            FieldError::NotOneValue { field, at, problem } => {
                write!(f, "{field}: {at}: {problem}")
            }
            FieldError::Parse { field, error } => {
                if let Some(field) = field {
                    write!(f, "{field}: ")?;
                }
                if let Some(at) = TextSpot::of_ron_error(error) {
                    write!(f, "{at}: ")?;
                }
                write!(f, "{}", error.message)
            }
        }
    }
}

impl std::error::Error for FieldError {}
