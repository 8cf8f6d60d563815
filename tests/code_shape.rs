//! The code's shape, as the team keeps it for the next engineer: no source file over 700 lines
//! and no function over 80 lines (tests aside) in the game, the simulation, the online service,
//! its protocol and the examples. Functions are found by a scan that blanks out comments, strings
//! and character literals and then matches braces, so a `{` in a string or a comment does not
//! count; test code (`#[test]` functions, `#[cfg(test)]` modules inline or in their own file) is
//! left out.

use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 700;
const MAX_FN_LINES: usize = 80;

/// The folders whose Rust files are held to the limits.
const SCANNED: &[&str] = &["src", "sim/src", "server/src", "proto/src", "examples"];

/// Functions allowed over the limit, each with why (`path`, `fn` name, reason). Only generated
/// tables belong here; there are none now.
const LONG_FN_ALLOWED: &[(&str, &str, &str)] = &[];

/// A function found by the scan: where it starts and how many lines it spans, from its `fn`
/// line to its closing brace.
#[derive(Debug, PartialEq)]
struct FnSpan {
    name: String,
    line: usize,
    lines: usize,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source with every comment, string and character literal replaced by spaces (newlines
/// kept), so that braces and `fn` can be matched on what is left.
fn blank_non_code(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let rest = &chars[i..];
        let end = if rest.starts_with(&['/', '/']) {
            i + rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            block_comment_end(&chars, i)
        } else if let Some(end) = string_end(&chars, i) {
            end
        } else if let Some(end) = char_literal_end(&chars, i) {
            end
        } else {
            out.push(chars[i]);
            i += 1;
            continue;
        };
        out.extend(chars[i..end].iter().map(|&c| blank(c)));
        i = end;
    }
    out
}

/// The index just past a (possibly nested) block comment starting at `start`.
fn block_comment_end(chars: &[char], start: usize) -> usize {
    let mut depth = 0;
    let mut i = start;
    while i + 1 < chars.len() {
        match (chars[i], chars[i + 1]) {
            ('/', '*') => {
                depth += 1;
                i += 2;
            }
            ('*', '/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    chars.len()
}

/// If a string literal (plain, byte, raw with any number of `#`) starts at `start`, the index
/// just past it.
fn string_end(chars: &[char], start: usize) -> Option<usize> {
    // A literal's prefix must not be the tail of an identifier (`bar"` is not `r"`).
    if start > 0 && (chars[start - 1].is_alphanumeric() || chars[start - 1] == '_') {
        return None;
    }
    let mut i = start;
    if chars.get(i) == Some(&'b') {
        i += 1;
    }
    if chars.get(i) == Some(&'r') {
        i += 1;
        let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
        i += hashes;
        if chars.get(i) != Some(&'"') {
            return None;
        }
        let closing: Vec<char> = std::iter::once('"')
            .chain(std::iter::repeat_n('#', hashes))
            .collect();
        let body = i + 1;
        let found = (body..chars.len()).find(|&k| chars[k..].starts_with(&closing))?;
        return Some(found + closing.len());
    }
    if chars.get(i) != Some(&'"') {
        return None;
    }
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    Some(chars.len())
}

/// If a character literal (`'x'`, `'\n'`, `'\u{7f}'`, `b'x'`) starts at `start`, the index just
/// past it; a lifetime (`'a`) is not one.
fn char_literal_end(chars: &[char], start: usize) -> Option<usize> {
    let quote = if chars[start] == 'b' {
        start + 1
    } else {
        start
    };
    if chars.get(quote) != Some(&'\'') {
        return None;
    }
    if chars.get(quote + 1) == Some(&'\\') {
        // The escaped character is at quote + 2 (`'\''` escapes the quote itself).
        let close = (quote + 3..chars.len()).find(|&k| chars[k] == '\'')?;
        return Some(close + 1);
    }
    (chars.get(quote + 2) == Some(&'\'')).then_some(quote + 3)
}

/// The index of the brace that closes the one opened at `open`.
fn matching_brace(code: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (k, &c) in code.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    code.len() - 1
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The character ranges of test code: `#[cfg(test)]` items and `#[test]` functions.
fn test_regions(code: &[char]) -> Vec<(usize, usize)> {
    let text: String = code.iter().collect();
    let mut regions = Vec::new();
    for marker in ["#[cfg(test)]", "#[test]"] {
        for (byte, _) in text.match_indices(marker) {
            let at = text[..byte].chars().count();
            let next_brace = (at..code.len()).find(|&k| code[k] == '{' || code[k] == ';');
            if let Some(open) = next_brace.filter(|&k| code[k] == '{') {
                regions.push((at, matching_brace(code, open)));
            }
        }
    }
    regions
}

/// Every function with a body in `source` outside test code, with its span in lines.
fn functions(source: &str) -> Vec<FnSpan> {
    let code: Vec<char> = blank_non_code(source).chars().collect();
    let tests = test_regions(&code);
    let line_of = |at: usize| 1 + code[..at].iter().filter(|&&c| c == '\n').count();
    let mut found = Vec::new();
    let mut i = 0;
    while i + 3 < code.len() {
        let starts_fn = code[i..].starts_with(&['f', 'n'])
            && code[i + 2].is_whitespace()
            && (i == 0 || !is_ident(code[i - 1]));
        if !starts_fn || tests.iter().any(|&(a, b)| (a..=b).contains(&i)) {
            i += 1;
            continue;
        }
        let name: String = code[i + 2..]
            .iter()
            .skip_while(|c| c.is_whitespace())
            .take_while(|&&c| is_ident(c))
            .collect();
        // The body opens at the first `{` outside the signature's brackets; a `;` first means a
        // declaration without one (a trait's).
        let mut depth = 0i32;
        let mut open = None;
        for (k, &c) in code.iter().enumerate().skip(i) {
            match c {
                '(' | '[' | '<' => depth += 1,
                ')' | ']' | '>' if code[k - 1] != '-' => depth -= 1,
                '{' if depth <= 0 => {
                    open = Some(k);
                    break;
                }
                ';' if depth <= 0 => break,
                _ => {}
            }
        }
        if let Some(open) = open {
            let close = matching_brace(&code, open);
            let line = line_of(i);
            found.push(FnSpan {
                name,
                line,
                lines: line_of(close) - line + 1,
            });
        }
        i += 2;
    }
    found
}

/// Files that are test modules declared elsewhere (`#[cfg(test)] mod tests;` → tests.rs beside
/// or below the declaring file).
fn test_module_files(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for file in files {
        let code = blank_non_code(&std::fs::read_to_string(file).unwrap());
        let words: Vec<&str> = code.split_whitespace().collect();
        for pair in words.windows(3) {
            if let ["#[cfg(test)]", "mod", name] = pair {
                let Some(name) = name.strip_suffix(';') else {
                    continue;
                };
                let dir = file.parent().unwrap();
                let stem = file.file_stem().unwrap();
                out.push(dir.join(format!("{name}.rs")));
                out.push(dir.join(stem).join(format!("{name}.rs")));
            }
        }
    }
    out
}

fn scanned_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in SCANNED {
        rust_files(&root().join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 50, "too few files found: {}", files.len());
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().display().to_string()
}

#[test]
fn no_source_file_is_over_700_lines() {
    let long: Vec<String> = scanned_files()
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(file).unwrap().lines().count();
            (lines > MAX_FILE_LINES).then(|| format!("{} ({lines} lines)", relative(file)))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines: {long:#?}"
    );
}

#[test]
fn no_function_outside_tests_is_over_80_lines() {
    let files = scanned_files();
    let test_files = test_module_files(&files);
    let mut long = Vec::new();
    for file in files.iter().filter(|f| !test_files.contains(f)) {
        let path = relative(file);
        for span in functions(&std::fs::read_to_string(file).unwrap()) {
            let allowed = LONG_FN_ALLOWED
                .iter()
                .any(|&(p, name, _)| p == path && name == span.name);
            if span.lines > MAX_FN_LINES && !allowed {
                long.push(format!(
                    "{path}:{} fn {} ({} lines)",
                    span.line, span.name, span.lines
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines (split them): {long:#?}"
    );
}

#[test]
fn the_scan_finds_functions_and_skips_tests_strings_and_comments() {
    let source = r##"
/// A doc comment with fn inside and a { brace.
pub fn outer(a: Vec<u8>) -> Result<(), String> {
    let s = "a } brace in a string";
    let r = r#"and "}" here"#;
    let c = '}';
    let l: &'static str = "x";
    // fn commented() {
    Ok(())
}

trait Shape {
    fn area(&self) -> f32;
}

#[test]
fn a_test() {
    fn helper() {}
}

#[cfg(test)]
mod tests {
    fn in_tests() {}
}

fn last<T: Fn() -> u8>(f: T) -> u8 { f() }
"##;
    let spans = functions(source);
    let names: Vec<(&str, usize, usize)> = spans
        .iter()
        .map(|s| (s.name.as_str(), s.line, s.lines))
        .collect();
    assert_eq!(names, [("outer", 3, 8), ("last", 26, 1)]);
}

#[test]
fn a_declared_test_module_file_is_test_code() {
    let dir = std::env::temp_dir().join(format!("code_shape_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ops = dir.join("ops.rs");
    std::fs::write(&ops, "#[cfg(test)]\nmod tests;\nfn f() {}\n").unwrap();
    let found = test_module_files(&[ops]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(found.contains(&dir.join("ops").join("tests.rs")));
    assert!(found.contains(&dir.join("tests.rs")));
}
