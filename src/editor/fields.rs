//! The property panel's model: every field an object's RON struct accepts with its value as
//! compact RON text, and setting one field by its text. A set field is parsed with the same
//! parser and options as level files (`RonError::parse`), so a value that does not parse gets
//! ron's own message, located in the value.
//!
//! Field names come from serde (what the derived `Deserialize` accepts), so a field added to a
//! definition shows up here without touching the editor.

mod error;

pub use self::error::{FieldError, TextSpot, ValueProblem};
use super::kinds::Kind;
use super::object::Object;
use super::text::{self, EDIT_FILE};
use crate::sim::level::{LevelDef, RonError};

/// The level-wide fields the panel edits; the lists are the objects, the goal is an object.
pub const LEVEL_FIELDS: [&str; 6] = [
    "name",
    "spawn",
    "max_rope_length_m",
    "view_height_m",
    "kill_y_m",
    "fragile_rope",
];
/// What an absent optional field shows: its default, `None`.
pub const ABSENT_VALUE: &str = "None";

/// One row of the property panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldRow {
    pub name: String,
    /// The value as compact RON text (`(1.0, 2.0)`, `true`, `"lift"`, `Box(...)`).
    pub value: String,
    /// False: the field is not written in the file; `value` is its default.
    pub set: bool,
}

/// The one pseudo-field of the kinds that are a bare value in their list: a hazard is its
/// shape, a ring its point.
pub fn pseudo_field(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Hazard => Some("shape"),
        Kind::Ring => Some("at"),
        _ => None,
    }
}

/// The names of the fields of `kind`, in the struct's order (the pseudo-field for the bare
/// kinds).
pub fn field_names(kind: Kind) -> Vec<&'static str> {
    match pseudo_field(kind) {
        Some(name) => vec![name],
        None => Object::serde_fields(kind).to_vec(),
    }
}

/// Every field of the object `obj` (none for a stale ref).
pub fn fields(level: &LevelDef, obj: super::kinds::ObjectRef) -> Vec<FieldRow> {
    match Object::get(level, obj) {
        Some(object) => object_fields(&object),
        None => vec![],
    }
}

/// Every field of `object`, in the struct's order.
pub fn object_fields(object: &Object) -> Vec<FieldRow> {
    if let Some(name) = pseudo_field(object.kind()) {
        return vec![FieldRow {
            name: name.into(),
            value: object.to_ron(),
            set: true,
        }];
    }
    rows(
        Object::serde_fields(object.kind()),
        &object.to_compact_ron(),
        &object.to_ron(),
    )
}

/// Rows for `names` from a struct's full compact text and its minimal text.
fn rows(names: &[&str], full: &str, minimal: &str) -> Vec<FieldRow> {
    let value_of = |text: &str, name: &str| {
        text::entries(text)
            .into_iter()
            .find(|e| e.depth == 1 && &text[e.name.clone()] == name)
            .map(|e| text[e.value.clone()].to_string())
    };
    names
        .iter()
        .map(|&name| {
            let (value, set) = match (value_of(minimal, name), value_of(full, name)) {
                (Some(v), _) => (v, true),
                (None, Some(v)) => (v, false),
                (None, None) => (ABSENT_VALUE.to_string(), false),
            };
            FieldRow {
                name: name.into(),
                value,
                set,
            }
        })
        .collect()
}

/// Parses a whole object of `kind`; the error locates the problem in `ron`.
pub fn parse_object(kind: Kind, ron: &str) -> Result<Object, FieldError> {
    Object::parse(kind, ron, EDIT_FILE).map_err(|error| FieldError::Parse { field: None, error })
}

/// Checks that `value`, typed for `field`, is one RON value: brackets balanced, no comma
/// outside them (so a value cannot close its struct and write other fields). Err locates the
/// first problem.
fn check_single_value(field: &str, value: &str) -> Result<(), FieldError> {
    let refuse = |at: usize, problem: ValueProblem| {
        Err(FieldError::NotOneValue {
            field: field.to_owned(),
            at: TextSpot::of_byte(value, at),
            problem,
        })
    };
    let b = value.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => open.push(i),
            // The guard pops the bracket a closing one matches; only a closing one with nothing
            // open takes this arm.
            b')' | b']' | b'}' if open.pop().is_none() => {
                return refuse(i, ValueProblem::ClosesNothing);
            }
            b',' if open.is_empty() => return refuse(i, ValueProblem::CommaOutsideBrackets),
            _ => {}
        }
        i += 1;
    }
    match open.last() {
        Some(&at) => refuse(at, ValueProblem::NeverClosed),
        None => Ok(()),
    }
}

/// A struct's text with `field` set to `value` (empty: left out, back to its default), the
/// other fields as in `full`; parsed as `parse` does. The field goes first, on its own lines,
/// so a parse error inside it is located in the value itself.
fn set_in_text<T>(
    names: &'static [&'static str],
    on: Option<Kind>,
    full: &str,
    field: &str,
    value: &str,
    parse: impl Fn(&str) -> Result<T, RonError>,
) -> Result<T, FieldError> {
    if !names.contains(&field) {
        return Err(FieldError::NoSuchField {
            on,
            field: field.to_owned(),
            names,
        });
    }
    let located = |error| FieldError::Parse {
        field: Some(field.to_owned()),
        error,
    };
    let others: Vec<String> = text::entries(full)
        .into_iter()
        .filter(|e| e.depth == 1 && &full[e.name.clone()] != field)
        .map(|e| full[e.whole.clone()].to_string())
        .collect();
    let value = value.trim();
    if value.is_empty() {
        return parse(&format!("({})", others.join(", "))).map_err(located);
    }
    check_single_value(field, value)?;
    let prefix = format!("({field}: ");
    let source = format!("{prefix}{value}\n, {})", others.join(", "));
    parse(&source).map_err(|mut e| {
        // The value starts the text's first line after `prefix`; its own lines follow as typed.
        let value_lines = value.lines().count().max(1);
        if e.line == 1 {
            e.column = e.column.saturating_sub(prefix.chars().count()).max(1);
        } else if e.line > value_lines {
            // Past the value: it ended too soon (an unclosed bracket, a missing part).
            e.line = value_lines;
            e.column = value.lines().last().unwrap_or("").chars().count() + 1;
        }
        located(e)
    })
}

/// `object` with `field` set to the RON text `value` (empty: back to its default).
pub fn with_field(object: &Object, field: &str, value: &str) -> Result<Object, FieldError> {
    let kind = object.kind();
    if let Some(name) = pseudo_field(kind) {
        if field != name {
            return Err(FieldError::OnlyField { kind, field: name });
        }
        return Object::parse(kind, value, EDIT_FILE).map_err(|error| FieldError::Parse {
            field: Some(name.to_owned()),
            error,
        });
    }
    set_in_text(
        Object::serde_fields(kind),
        Some(kind),
        &object.to_compact_ron(),
        field,
        value,
        |text| Object::parse(kind, text, EDIT_FILE),
    )
}

/// The level's own fields without its objects: what `level_fields` and `SetLevel` work on.
pub fn header(level: &LevelDef) -> LevelDef {
    LevelDef {
        name: level.name.clone(),
        spawn: level.spawn,
        goal: level.goal,
        max_rope_length_m: level.max_rope_length_m,
        view_height_m: level.view_height_m,
        kill_y_m: level.kill_y_m,
        fragile_rope: level.fragile_rope.clone(),
        ..LevelDef::empty(&level.name)
    }
}

/// The level-wide fields (`LEVEL_FIELDS`).
pub fn level_fields(level: &LevelDef) -> Vec<FieldRow> {
    let header = header(level);
    rows(
        &LEVEL_FIELDS,
        &text::compact(&header),
        &text::minimal(&header),
    )
}

/// Sets one of `LEVEL_FIELDS` to the RON text `value` (empty: back to its default).
pub fn set_level_field(level: &mut LevelDef, field: &str, value: &str) -> Result<(), FieldError> {
    let header = header(level);
    let full = text::compact(&header);
    // Only the header's fields (and the goal, which a level needs to parse) are written.
    let kept: Vec<String> = text::entries(&full)
        .into_iter()
        .filter(|e| {
            e.depth == 1 && {
                let name = &full[e.name.clone()];
                name == "goal" || LEVEL_FIELDS.contains(&name)
            }
        })
        .map(|e| full[e.whole.clone()].to_string())
        .collect();
    let base = format!("({})", kept.join(", "));
    let new: LevelDef = set_in_text(&LEVEL_FIELDS, None, &base, field, value, |t| {
        RonError::parse::<LevelDef>(t, EDIT_FILE)
    })?;
    level.name = new.name;
    level.spawn = new.spawn;
    level.max_rope_length_m = new.max_rope_length_m;
    level.view_height_m = new.view_height_m;
    level.kill_y_m = new.kill_y_m;
    level.fragile_rope = new.fragile_rope;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::history::Document;
    use crate::editor::kinds::ObjectRef;
    use crate::editor::ops::{apply, Op};
    use crate::sim::level::P;

    /// The words an operation the test expects refused was refused with.
    fn refused(level: &mut LevelDef, op: &Op) -> String {
        apply(level, op).unwrap_err().to_string()
    }

    fn level() -> LevelDef {
        RonError::parse(
            "Level(name: \"t\", spawn: (0.0, 1.0), goal: (min: (20.0, 0.0), max: (23.0, 3.0)),
              view_height_m: 20.0,
              solids: [(id: \"a\", shape: Box(center: (0.0, -1.0), half_extents: (8.0, 1.0)))],
              hazards: [Circle(center: (1.0, 1.0), radius: 0.5)],
              grapple_points: [(3.0, 6.0)],
              cloths: [(top_left: (0.0, 5.0), columns: 4, rows: 4, spacing_m: 0.3, pins: TopRow)])",
            "t",
        )
        .unwrap()
    }

    fn solid() -> ObjectRef {
        ObjectRef::new(Kind::Solid, 0)
    }

    #[test]
    fn every_field_of_every_kind_is_listed_as_serde_has_it() {
        assert_eq!(field_names(Kind::Solid), vec!["id", "shape", "hookable"]);
        assert_eq!(field_names(Kind::Hazard), vec!["shape"]);
        assert_eq!(field_names(Kind::Ring), vec!["at"]);
        assert_eq!(field_names(Kind::Goal), vec!["min", "max"]);
        assert_eq!(
            field_names(Kind::Cloth),
            vec![
                "id",
                "top_left",
                "columns",
                "rows",
                "spacing_m",
                "pins",
                "tears_at_stretch",
                "look"
            ]
        );
        assert_eq!(
            field_names(Kind::Winch),
            vec![
                "id",
                "at",
                "min_length_m",
                "max_length_m",
                "start_length_m",
                "speed_m_per_s",
                "load",
                "drive"
            ]
        );
        for name in LEVEL_FIELDS {
            assert!(text::struct_fields::<LevelDef>().contains(&name), "{name}");
        }
    }

    #[test]
    fn rows_show_written_and_default_fields() {
        let l = level();
        assert_eq!(
            fields(&l, solid()),
            vec![
                FieldRow {
                    name: "id".into(),
                    value: "\"a\"".into(),
                    set: true
                },
                FieldRow {
                    name: "shape".into(),
                    value: "Box(center: (0.0, -1.0), half_extents: (8.0, 1.0))".into(),
                    set: true
                },
                FieldRow {
                    name: "hookable".into(),
                    value: "true".into(),
                    set: false
                },
            ]
        );
        let cloth = fields(&l, ObjectRef::new(Kind::Cloth, 0));
        assert_eq!(cloth.len(), 8);
        assert_eq!(
            cloth[0],
            FieldRow {
                name: "id".into(),
                value: "None".into(),
                set: false
            }
        );
        assert_eq!(
            cloth[7],
            FieldRow {
                name: "look".into(),
                value: "Banner".into(),
                set: false
            }
        );
        assert_eq!(
            fields(&l, ObjectRef::new(Kind::Ring, 0)),
            vec![FieldRow {
                name: "at".into(),
                value: "(3.0, 6.0)".into(),
                set: true
            }]
        );
        assert!(fields(&l, ObjectRef::new(Kind::Solid, 5)).is_empty());
    }

    #[test]
    fn showing_a_default_and_setting_it_changes_nothing() {
        let l = level();
        for r in crate::editor::kinds::all_objects(&l) {
            for row in fields(&l, r) {
                let mut again = l.clone();
                apply(
                    &mut again,
                    &Op::SetField {
                        object: r,
                        field: row.name.clone(),
                        value: row.value.clone(),
                    },
                )
                .unwrap_or_else(|e| panic!("{} {}: {e}", r.name(), row.name));
                assert_eq!(again, l, "{} {}", r.name(), row.name);
            }
        }
    }

    #[test]
    fn set_field_sets_and_undoes() {
        let mut doc = Document::new(level());
        let before = doc.level.clone();
        doc.apply(&Op::SetField {
            object: solid(),
            field: "hookable".into(),
            value: "false".into(),
        })
        .unwrap();
        assert!(!doc.level.solids[0].hookable);
        let after = doc.level.clone();
        doc.undo();
        assert_eq!(doc.level, before);
        doc.redo();
        assert_eq!(doc.level, after);
        // An optional field written bare, and cleared again.
        doc.apply(&Op::SetField {
            object: ObjectRef::new(Kind::Cloth, 0),
            field: "tears_at_stretch".into(),
            value: "1.5".into(),
        })
        .unwrap();
        assert_eq!(doc.level.cloths[0].tears_at_stretch, Some(1.5));
        doc.apply(&Op::SetField {
            object: ObjectRef::new(Kind::Cloth, 0),
            field: "tears_at_stretch".into(),
            value: " ".into(),
        })
        .unwrap();
        assert_eq!(doc.level.cloths[0].tears_at_stretch, None);
        doc.apply(&Op::SetField {
            object: ObjectRef::new(Kind::Hazard, 0),
            field: "shape".into(),
            value: "Circle(center: (2.0, 2.0), radius: 1.0)".into(),
        })
        .unwrap();
        assert_eq!(
            doc.level.hazards[0].0,
            crate::sim::level::ShapeDef::Circle {
                center: P(2.0, 2.0),
                radius: 1.0
            }
        );
    }

    #[test]
    fn a_bad_value_names_the_field_and_column() {
        let mut l = level();
        let before = l.clone();
        let e = refused(
            &mut l,
            &Op::SetField {
                object: solid(),
                field: "hookable".into(),
                value: "maybe".into(),
            },
        );
        assert!(e.starts_with("solids[0]: hookable: column 1: "), "{e}");
        let e = refused(
            &mut l,
            &Op::SetField {
                object: solid(),
                field: "shape".into(),
                value: "Box(center: (0.0, x), half_extents: (1.0, 1.0))".into(),
            },
        );
        assert!(e.starts_with("solids[0]: shape: column 19: "), "{e}");
        let e = refused(
            &mut l,
            &Op::SetField {
                object: solid(),
                field: "shape".into(),
                value: "Box(center: (0.0, 1.0)".into(),
            },
        );
        assert_eq!(
            e,
            "solids[0]: shape: column 4: this bracket is never closed"
        );
        // A value over several lines is located by line and column (ron's columns, as `check`
        // prints them for files).
        let e = refused(
            &mut l,
            &Op::SetField {
                object: solid(),
                field: "shape".into(),
                value: "Circle(\n  center: (0.0, 1.0),\n  radius: yes)".into(),
            },
        );
        assert!(
            e.starts_with("solids[0]: shape: line 3, column 10: "),
            "{e}"
        );
        let e = refused(
            &mut l,
            &Op::SetField {
                object: solid(),
                field: "colour".into(),
                value: "1".into(),
            },
        );
        assert!(
            e.contains("no field \"colour\"") && e.contains("id, shape, hookable"),
            "{e}"
        );
        let e = refused(
            &mut l,
            &Op::SetField {
                object: solid(),
                field: "hookable".into(),
                value: "true), id: (\"b\"".into(),
            },
        );
        assert!(e.contains("column 5: this bracket closes nothing"), "{e}");
        let e = refused(
            &mut l,
            &Op::SetField {
                object: solid(),
                field: "shape".into(),
                value: "".into(),
            },
        );
        // An empty value leaves the field out: the message names it as missing.
        assert!(
            e.starts_with("solids[0]: shape: ") && e.contains("missing field named `shape`"),
            "{e}"
        );
        let e = refused(
            &mut l,
            &Op::ReplaceObject {
                object: solid(),
                ron: "(shape: Nope)".into(),
            },
        );
        assert!(e.starts_with("solids[0]: column "), "{e}");
        assert_eq!(l, before);
    }

    #[test]
    fn a_refused_value_keeps_its_field_and_place_as_data() {
        let object = Object::get(&level(), solid()).unwrap();
        assert_eq!(
            with_field(&object, "shape", "Box(center: (0.0, 1.0)"),
            Err(FieldError::NotOneValue {
                field: "shape".into(),
                at: TextSpot {
                    line: None,
                    column: 4
                },
                problem: ValueProblem::NeverClosed,
            })
        );
        assert_eq!(
            with_field(&object, "hookable", "true,\n false"),
            Err(FieldError::NotOneValue {
                field: "hookable".into(),
                at: TextSpot {
                    line: Some(1),
                    column: 5
                },
                problem: ValueProblem::CommaOutsideBrackets,
            })
        );
        match with_field(
            &object,
            "shape",
            "Circle(\n  center: (0.0, 1.0),\n  radius: yes)",
        ) {
            Err(FieldError::Parse {
                field: Some(field),
                error,
            }) => assert_eq!((field.as_str(), error.line, error.column), ("shape", 3, 10)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            with_field(&object, "colour", "1"),
            Err(FieldError::NoSuchField { on: Some(Kind::Solid), ref field, .. }) if field == "colour"
        ));
        let mut l = level();
        assert!(matches!(
            set_level_field(&mut l, "solids", "[]"),
            Err(FieldError::NoSuchField { on: None, .. })
        ));
    }

    #[test]
    fn level_fields_list_and_set() {
        let mut l = level();
        let rows = level_fields(&l);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, LEVEL_FIELDS.to_vec());
        assert_eq!(
            rows[0],
            FieldRow {
                name: "name".into(),
                value: "\"t\"".into(),
                set: true
            }
        );
        assert_eq!(
            rows[2],
            FieldRow {
                name: "max_rope_length_m".into(),
                value: "None".into(),
                set: false
            }
        );
        assert_eq!(
            rows[3],
            FieldRow {
                name: "view_height_m".into(),
                value: "20.0".into(),
                set: true
            }
        );
        assert_eq!(
            rows[4],
            FieldRow {
                name: "kill_y_m".into(),
                value: "-50.0".into(),
                set: false
            }
        );
        apply(
            &mut l,
            &Op::SetLevel {
                field: "max_rope_length_m".into(),
                value: "10.0".into(),
            },
        )
        .unwrap();
        assert_eq!(l.max_rope_length_m, Some(10.0));
        apply(
            &mut l,
            &Op::SetLevel {
                field: "fragile_rope".into(),
                value: "(breaks_at_n: 5000.0)".into(),
            },
        )
        .unwrap();
        assert_eq!(l.fragile_rope.as_ref().unwrap().breaks_at_n, 5000.0);
        apply(
            &mut l,
            &Op::SetLevel {
                field: "view_height_m".into(),
                value: "".into(),
            },
        )
        .unwrap();
        assert_eq!(l.view_height_m, 18.0);
        apply(
            &mut l,
            &Op::SetLevel {
                field: "name".into(),
                value: "\"Renamed\"".into(),
            },
        )
        .unwrap();
        assert_eq!(l.name, "Renamed");
        assert_eq!(l.solids.len(), 1, "the objects stay");
        let e = refused(
            &mut l,
            &Op::SetLevel {
                field: "solids".into(),
                value: "[]".into(),
            },
        );
        assert!(e.contains("no field"), "{e}");
        let e = refused(
            &mut l,
            &Op::SetLevel {
                field: "kill_y_m".into(),
                value: "-1x".into(),
            },
        );
        assert!(e.starts_with("kill_y_m: column "), "{e}");
    }
}
