//! The online profile and the run queue as earlier versions kept them (RON, written by the
//! `ron` crate), rewritten as JSON text so the stored forms (miniserde JSON) have one reader.
//! They are read once: the next save writes JSON. A player's queued runs and key must survive
//! the upgrade. The proof runs of "My levels" (`publish_proof.rs`) are still kept as that RON
//! and read through here every time.
//!
//! Only the RON those versions wrote is taken: structs without names `(field: value, ...)`,
//! enum variants as `Name` or `Name(field: value, ...)`, `Some(value)`, `None`, booleans,
//! integers, strings with `char::escape_debug`'s escapes, and lists. A hand-written reader, not
//! `ron`'s serde deserializer: the serde code instantiated for these types was a fifth of what
//! the online code added to the browser's download (docs/online.md, "Download cost"). It
//! writes the JSON as it reads instead of building a `miniserde::json::Value`: that value's
//! writer and map were 20 KB of the download for a path taken once per player.
//!
//! A struct-like variant as a field's value, `state: Sent(id: 7)`, becomes the variant's name
//! under the field's key and its fields beside it, `"state":"Sent","id":7` (the flat form the
//! stored queue keeps, as miniserde's derive reads only unit variants). Elsewhere it becomes an
//! object with the name under `VARIANT_KEY`.

/// The key under which a struct-like variant `Name(...)` that is not a field's value keeps its
/// `Name`; no RON field can be called this.
const VARIANT_KEY: &str = "(variant)";
/// Deepest nesting read (the stored forms nest four deep); deeper text is refused before it
/// can exhaust the stack.
const MAX_DEPTH: usize = 16;

/// `text` as JSON text, or where and why it is not the RON this reads (`line:column: ...`).
pub fn to_json(text: &str) -> Result<String, String> {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
        json: String::with_capacity(text.len()),
    };
    reader.value(0)?;
    reader.skip_space();
    if reader.at < reader.text.len() {
        return Err(reader.problem("text after the end"));
    }
    Ok(reader.json)
}

struct Reader<'t> {
    text: &'t [u8],
    at: usize,
    /// The JSON written so far.
    json: String,
}

/// What `named` read: a whole value (written), or a variant's name with its fields still to
/// read (its opening parenthesis taken), which the caller writes as its place needs.
enum Named {
    Written,
    VariantWithFields(String),
}

impl Reader<'_> {
    fn problem(&self, what: &str) -> String {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.iter().filter(|&&byte| byte == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |at| at + 1);
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        format!("{line}:{column}: {what}")
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    /// Takes `byte` (after any space) if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        if self.eat(byte) {
            return Ok(());
        }
        Err(self.problem(&format!("expected '{}'", char::from(byte))))
    }

    /// Reads one value and writes it; a struct-like variant as an object with `VARIANT_KEY`.
    fn value(&mut self, depth: usize) -> Result<(), String> {
        if let Named::VariantWithFields(name) = self.value_or_variant(depth)? {
            self.json.push('{');
            write_string(&mut self.json, VARIANT_KEY);
            self.json.push(':');
            write_string(&mut self.json, &name);
            self.fields(depth, true)?;
            self.json.push('}');
        }
        Ok(())
    }

    fn value_or_variant(&mut self, depth: usize) -> Result<Named, String> {
        if depth > MAX_DEPTH {
            return Err(self.problem("nested too deep"));
        }
        self.skip_space();
        match self.peek() {
            Some(b'"') => {
                let text = self.string()?;
                write_string(&mut self.json, &text);
            }
            Some(b'-' | b'0'..=b'9') => self.integer()?,
            Some(b'[') => {
                self.at += 1;
                self.json.push('[');
                let mut first = true;
                while !self.eat(b']') {
                    if !std::mem::take(&mut first) {
                        self.json.push(',');
                    }
                    self.value(depth + 1)?;
                    if !self.eat(b',') {
                        self.expect(b']')?;
                        break;
                    }
                }
                self.json.push(']');
            }
            Some(b'(') => {
                self.at += 1;
                self.json.push('{');
                self.fields(depth, false)?;
                self.json.push('}');
            }
            Some(byte) if byte.is_ascii_alphabetic() => return self.named(depth),
            _ => return Err(self.problem("expected a value")),
        }
        Ok(Named::Written)
    }

    fn ident(&mut self) -> String {
        let start = self.at;
        while matches!(self.peek(), Some(byte) if byte.is_ascii_alphanumeric() || byte == b'_') {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    /// `true`, `false`, `None`, `Some(value)`, a variant `Name` (a string) or
    /// `Name(field: value, ...)` (left to the caller).
    fn named(&mut self, depth: usize) -> Result<Named, String> {
        let name = self.ident();
        match name.as_str() {
            "true" | "false" => self.json.push_str(&name),
            "None" => self.json.push_str("null"),
            "Some" => {
                self.expect(b'(')?;
                self.value(depth + 1)?;
                self.eat(b',');
                self.expect(b')')?;
            }
            _ if self.eat(b'(') => return Ok(Named::VariantWithFields(name)),
            _ => write_string(&mut self.json, &name),
        }
        Ok(Named::Written)
    }

    /// `field: value, ...)` after the opening parenthesis, written as `"field":value,...`
    /// without braces; `after_other` when fields were written before them in the same object.
    fn fields(&mut self, depth: usize, mut after_other: bool) -> Result<(), String> {
        while !self.eat(b')') {
            let key = self.ident();
            if key.is_empty() {
                return Err(self.problem("expected a field name"));
            }
            self.expect(b':')?;
            if std::mem::replace(&mut after_other, true) {
                self.json.push(',');
            }
            write_string(&mut self.json, &key);
            self.json.push(':');
            if let Named::VariantWithFields(name) = self.value_or_variant(depth + 1)? {
                write_string(&mut self.json, &name);
                self.fields(depth + 1, true)?;
            }
            if !self.eat(b',') {
                self.expect(b')')?;
                break;
            }
        }
        Ok(())
    }

    /// An integer (the stored forms have no other numbers), written as read once it is known
    /// to fit an `i64` or `u64`.
    fn integer(&mut self) -> Result<(), String> {
        let start = self.at;
        self.at += usize::from(self.peek() == Some(b'-'));
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        let digits = std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default();
        let fits = if digits.starts_with('-') {
            digits.parse::<i64>().is_ok()
        } else {
            digits.parse::<u64>().is_ok()
        };
        if !fits || matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return Err(self.problem("not an integer this reads"));
        }
        self.json.push_str(digits);
        Ok(())
    }

    /// A string after `char::escape_debug`, as `ron` writes them.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.problem("the string does not end"));
            };
            self.at += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    let escaped = self.escape()?;
                    bytes.extend_from_slice(escaped.encode_utf8(&mut [0; 4]).as_bytes());
                }
                _ => bytes.push(byte),
            }
        }
        // Split only at ASCII bytes of what was `&str`: still UTF-8.
        String::from_utf8(bytes).map_err(|_| self.problem("the string is not UTF-8"))
    }

    fn escape(&mut self) -> Result<char, String> {
        let byte = self.peek();
        self.at += 1;
        Ok(match byte {
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'0') => '\0',
            Some(b'\\') => '\\',
            Some(b'"') => '"',
            Some(b'\'') => '\'',
            Some(b'u') if self.eat(b'{') => {
                let start = self.at;
                while matches!(self.peek(), Some(byte) if byte.is_ascii_hexdigit()) {
                    self.at += 1;
                }
                let hex = std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default();
                let code = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
                match code {
                    Some(code) if self.eat(b'}') => code,
                    _ => return Err(self.problem("a bad \\u{...} escape")),
                }
            }
            _ => return Err(self.problem("an unknown escape")),
        })
    }
}

/// `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as is.
fn write_string(json: &mut String, text: &str) {
    json.push('"');
    for c in text.chars() {
        match c {
            '"' => json.push_str("\\\""),
            '\\' => json.push_str("\\\\"),
            '\n' => json.push_str("\\n"),
            '\r' => json.push_str("\\r"),
            '\t' => json.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                json.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => json.push(c),
        }
    }
    json.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> String {
        to_json(text).unwrap_or_else(|err| format!("error {err}"))
    }

    #[test]
    fn reads_what_ron_wrote() {
        assert_eq!(
            json("(a:1,b:-2,c:Some(\"x\"),d:None,e:[true,false,],f:Queued,g:Sent(id:7),h:[Sent(id:8)])"),
            r#"{"a":1,"b":-2,"c":"x","d":null,"e":[true,false],"f":"Queued","g":"Sent","id":7,"h":[{"(variant)":"Sent","id":8}]}"#
        );
        assert_eq!(
            json("(\n    enabled: true,\n    name: Some(\"A\\\"d\\\\a\\n\\u{202e}\\'\"),\n)\n"),
            "{\"enabled\":true,\"name\":\"A\\\"d\\\\a\\n\u{202e}'\"}"
        );
        // Control characters are escaped as JSON requires.
        assert_eq!(json("(a:\"\\u{1}\\t\")"), r#"{"a":"\u0001\t"}"#);
        assert_eq!(json("([], ())"), "error 1:2: expected a field name");
    }

    #[test]
    fn refuses_what_it_does_not_read_without_panicking() {
        for (text, problem) in [
            ("(a:1.5)", "1:5: not an integer this reads"),
            (
                "(a:99999999999999999999)",
                "1:24: not an integer this reads",
            ),
            ("(a:\"x)", "1:7: the string does not end"),
            ("(a:\"\\q\")", "1:7: an unknown escape"),
            ("(a:\"\\u{d800}\")", "1:12: a bad \\u{...} escape"),
            ("(a:1) x", "1:7: text after the end"),
            ("(a 1)", "1:4: expected ':'"),
            ("", "1:1: expected a value"),
        ] {
            assert_eq!(json(text), format!("error {problem}"), "{text}");
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(json(&deep), "error 1:18: nested too deep");
    }
}
