//! The game's JSON writer for miniserde's `Serialize` types: the bodies it sends and the
//! profile and run queue it keeps. It writes what `miniserde::json::to_string` and serde_json
//! write, byte for byte (`tests/codecs.rs` checks it against serde_json), but numbers go
//! through `core::fmt`, which the game links anyway: miniserde's writer formats every float
//! through `zmij`, whose code and tables (about 4 KB gzipped) the browser's download carried
//! although nothing the game writes has a float.
//!
//! Recursive, unlike miniserde's: it only ever writes values the game built, a few levels deep.

use miniserde::ser::{Fragment, Serialize};
use std::fmt::Write;

/// `value` as compact JSON.
pub fn to_string(value: &dyn Serialize) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out
}

fn write_value(value: &dyn Serialize, out: &mut String) {
    match value.begin() {
        Fragment::Null => out.push_str("null"),
        Fragment::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Fragment::Str(text) => write_str(&text, out),
        // Writing to a `String` cannot fail: the `fmt::Result`s here are always `Ok`.
        Fragment::U64(n) => _ = write!(out, "{n}"),
        Fragment::I64(n) => _ = write!(out, "{n}"),
        // `{:?}` is the shortest text that reads back as the same number (`1.0`, `1e300`);
        // JSON has no infinity or NaN, which are written as null, as miniserde does.
        Fragment::F64(n) if n.is_finite() => _ = write!(out, "{n:?}"),
        Fragment::F64(_) => out.push_str("null"),
        Fragment::Seq(mut seq) => {
            out.push('[');
            let mut first = true;
            while let Some(element) = seq.next() {
                if !std::mem::take(&mut first) {
                    out.push(',');
                }
                write_value(element, out);
            }
            out.push(']');
        }
        Fragment::Map(mut map) => {
            out.push('{');
            let mut first = true;
            while let Some((key, element)) = map.next() {
                if !std::mem::take(&mut first) {
                    out.push(',');
                }
                write_str(&key, out);
                out.push(':');
                write_value(element, out);
            }
            out.push('}');
        }
    }
}

/// `text` as a JSON string: quotes, backslashes and control characters escaped as serde_json
/// escapes them (`\n`, `\u001f`, ...), everything else as it is.
fn write_str(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => _ = write!(out, "\\u{:04x}", c as u32),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_read_back_as_the_same_number() {
        for n in [0.0, -0.0, 1.0, 0.1, 1.5e300, 5e-324, f64::MAX, -2.75] {
            let text = to_string(&n);
            assert_eq!(
                text.parse::<f64>().unwrap().to_bits(),
                n.to_bits(),
                "{text}"
            );
        }
        assert_eq!(to_string(&f64::NAN), "null");
        assert_eq!(to_string(&f64::INFINITY), "null");
    }
}
