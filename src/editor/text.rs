//! RON text as the editor writes and splits it: compact one-line values in the style authors
//! write (`(shape: Box(center: (0.0, -1.0), half_extents: (30.0, 1.0)))`), fields at their
//! default left out, and a scanner that finds the `name: value` entries of such text.
//!
//! The scanner only ever reads text ron's own serializer wrote (strings escaped, no comments),
//! so it needs to know only strings and brackets.

use std::ops::Range;

use serde::de::{self, DeserializeOwned, Visitor};
use serde::Serialize;

use crate::sim::level::RonError;

/// The file name parse errors of edited text carry (the editor reports the field instead).
pub const EDIT_FILE: &str = "edit";

/// `value` as one line of RON with spaces after `:` and `,`, every field written, optional
/// fields bare (implicit `Some`). Empty only if ron cannot serialize it (it can serialize
/// every definition of a level).
pub fn compact<T: Serialize>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new()
        .compact_structs(true)
        .compact_arrays(true)
        .new_line(" ")
        .indentor("");
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .to_string_pretty(value, config)
        .unwrap_or_default()
}

/// `value` as `compact` writes it with every field whose removal parses back to the same value
/// (its serde default) left out, at any depth: `hookable: true`, `rotation_deg: 0.0`. Checked
/// by parsing, so it is lossless by construction.
pub fn minimal<T: Serialize + DeserializeOwned>(value: &T) -> String {
    let full = compact(value);
    minimize::<T>(&full, &full)
}

/// Leaves out of `text` (the compact form of a value whose compact form is `reference`) every
/// entry whose removal still parses to a value with the same compact form.
pub fn minimize<T: Serialize + DeserializeOwned>(text: &str, reference: &str) -> String {
    let mut text = text.to_string();
    let mut cursor = usize::MAX;
    // From the last entry backwards: a removal only changes text at or after its own start,
    // so the entries before it keep their places.
    while let Some(entry) = entries(&text)
        .into_iter()
        .filter(|e| e.whole.start < cursor)
        .max_by_key(|e| e.whole.start)
    {
        cursor = entry.whole.start;
        let candidate = without(&text, &entry);
        if let Ok(parsed) = RonError::parse::<T>(&candidate, EDIT_FILE) {
            if compact(&parsed) == reference {
                text = candidate;
            }
        }
    }
    text
}

/// One `name: value` of a struct in RON text, by byte ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Bracket depth: 1 for the fields of the outermost struct.
    pub depth: usize,
    pub name: Range<usize>,
    pub value: Range<usize>,
    /// From the name's start to the value's end.
    pub whole: Range<usize>,
}

/// Every `name: value` entry of `text`, at any depth, in order of their starts.
pub fn entries(text: &str) -> Vec<Entry> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut open: Vec<(usize, Range<usize>, usize)> = Vec::new();
    let mut out = Vec::new();
    let mut close = |open: &mut Vec<(usize, Range<usize>, usize)>, depth: usize, end: usize| {
        while let Some((d, _, _)) = open.last() {
            if *d < depth {
                break;
            }
            let (d, name, value_start) = open.pop().expect("just looked");
            let mut value_end = end;
            while value_end > value_start && b[value_end - 1] == b' ' {
                value_end -= 1;
            }
            out.push(Entry {
                depth: d,
                whole: name.start..value_end,
                name,
                value: value_start..value_end,
            });
        }
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                close(&mut open, depth, i);
                depth = depth.saturating_sub(1);
            }
            b',' => close(&mut open, depth, i),
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let name = start..i;
                let mut j = i;
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
                if j < b.len() && b[j] == b':' {
                    j += 1;
                    while j < b.len() && b[j] == b' ' {
                        j += 1;
                    }
                    open.push((depth, name, j));
                    i = j;
                }
                continue;
            }
            b'0'..=b'9' => {
                // A number, exponent included, is not a name.
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    close(&mut open, 0, b.len());
    out.sort_by_key(|e| e.whole.start);
    out
}

/// `text` without `entry` and the `, ` that joined it to its neighbour.
fn without(text: &str, entry: &Entry) -> String {
    let rest = &text[entry.whole.end..];
    if let Some(after) = rest.strip_prefix(", ") {
        format!("{}{}", &text[..entry.whole.start], after)
    } else if text[..entry.whole.start].ends_with(", ") {
        format!("{}{}", &text[..entry.whole.start - 2], rest)
    } else {
        format!("{}{}", &text[..entry.whole.start], rest)
    }
}

/// Whether ron wrote a non-finite float (`inf`, `-inf`, `NaN`) anywhere in `text`.
pub fn has_non_finite(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            if matches!(&text[start..i], "inf" | "NaN") {
                return true;
            }
            continue;
        }
        i += 1;
    }
    false
}

/// The field names serde's derived `Deserialize` of `T` accepts, as it hands them to
/// `deserialize_struct`; empty for a type that is not a struct (a transparent wrapper of an
/// enum or a tuple).
pub fn struct_fields<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields = None;
    let _ = T::deserialize(FieldRecorder(&mut fields));
    fields.unwrap_or(&[])
}

/// A deserializer that only records the fields a struct asks for, then stops.
struct FieldRecorder<'a>(&'a mut Option<&'static [&'static str]>);

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stop")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

impl<'de> de::Deserializer<'de> for FieldRecorder<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        *self.0 = Some(fields);
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::level::{LevelDef, SolidDef, P};

    #[test]
    fn compact_writes_the_authors_style() {
        let solid: SolidDef = RonError::parse(
            "(shape: Box(center: (0.0, -1.0), half_extents: (30.0, 1.0)))",
            "t",
        )
        .unwrap();
        assert_eq!(
            compact(&solid),
            "(shape: Box(center: (0.0, -1.0), half_extents: (30.0, 1.0), rotation_deg: 0.0), hookable: true)"
        );
        assert_eq!(
            minimal(&solid),
            "(shape: Box(center: (0.0, -1.0), half_extents: (30.0, 1.0)))"
        );
        assert_eq!(compact(&P(1.5, -0.25)), "(1.5, -0.25)");
    }

    #[test]
    fn minimal_keeps_what_differs_from_the_default() {
        let solid: SolidDef = RonError::parse(
            "(id: \"a: b\", shape: Circle(center: (1.0, 2.0), radius: 3.0), hookable: false)",
            "t",
        )
        .unwrap();
        assert_eq!(
            minimal(&solid),
            "(id: \"a: b\", shape: Circle(center: (1.0, 2.0), radius: 3.0), hookable: false)"
        );
    }

    #[test]
    fn entries_skip_strings_and_numbers() {
        let text = "(id: \"x, y: (z\", at: (1e-7, 2.0), text: \"q\")";
        let names: Vec<(&str, &str, usize)> = entries(text)
            .iter()
            .map(|e| (&text[e.name.clone()], &text[e.value.clone()], e.depth))
            .collect();
        assert_eq!(
            names,
            vec![
                ("id", "\"x, y: (z\"", 1),
                ("at", "(1e-7, 2.0)", 1),
                ("text", "\"q\"", 1)
            ]
        );
    }

    #[test]
    fn non_finite_numbers_are_found_outside_strings_only() {
        assert!(has_non_finite("(at: (inf, 1.0))"));
        assert!(has_non_finite("(at: (-inf, 1.0))"));
        assert!(has_non_finite("(1.0, NaN)"));
        assert!(!has_non_finite("(text: \"inf NaN\", at: (1e30, 2.0))"));
        assert!(!has_non_finite("(look: Info)"));
    }

    #[test]
    fn struct_fields_come_from_serde() {
        assert_eq!(struct_fields::<SolidDef>(), &["id", "shape", "hookable"]);
        assert!(struct_fields::<LevelDef>().contains(&"fragile_rope"));
        assert!(struct_fields::<crate::sim::level::HazardDef>().is_empty());
        assert!(struct_fields::<crate::sim::level::RingDef>().is_empty());
    }
}
