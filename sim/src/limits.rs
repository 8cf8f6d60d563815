//! Every limit on what comes from outside: files from other people (levels, level indexes,
//! replays and ghosts, settings, saves, level links) are checked against these before and while
//! they are parsed, so no file can make the game or a command panic, hang, print something a
//! terminal would interpret, or reach outside its folder. Pure checks on text; the reading
//! (`crate::files`) applies the size limits before parsing.

use std::fmt;

/// Largest files accepted, in bytes, checked before parsing.
pub const MAX_LEVEL_FILE_BYTES: u64 = 1024 * 1024;
pub const MAX_LEVEL_INDEX_FILE_BYTES: u64 = 64 * 1024;
/// A replay of `MAX_REPLAY_TICKS` changing its input every tick is about 30 MB; one a person
/// records changes it a few times a second, far under this.
pub const MAX_REPLAY_FILE_BYTES: u64 = 8 * 1024 * 1024;
pub const MAX_SETTINGS_FILE_BYTES: u64 = 64 * 1024;
pub const MAX_TUNING_FILE_BYTES: u64 = 64 * 1024;
/// For the saves and level links the campaign and editor will bring (not built yet).
pub const MAX_SAVE_FILE_BYTES: u64 = 256 * 1024;
pub const MAX_LEVEL_LINK_BYTES: u64 = 64 * 1024;

/// Deepest nesting the RON parser follows (a level is about 5 deep).
pub const MAX_RON_NESTING: usize = 32;

/// Longest texts, in characters.
pub const MAX_LEVEL_NAME_CHARS: usize = 48;
pub use super::objects::MAX_ID_CHARS;
/// A level's file name in the index or a replay: a path relative to the levels folder.
pub const MAX_LEVEL_PATH_CHARS: usize = 128;
/// Most levels an index lists.
pub const MAX_INDEX_LEVELS: usize = 500;

/// Longest replay: one hour at the fixed 120 Hz tick. Running any replay takes bounded time.
pub const MAX_REPLAY_TICKS: u64 = 3600 * 120;
/// Largest aim offset a replay may hold, metres from the player (the front end quantises aims
/// to ±1000 m).
pub const MAX_AIM_M: f32 = 1000.0;
/// Most mouse-wheel notches one tick may hold.
pub const MAX_WHEEL_NOTCHES_PER_TICK: i8 = 16;

/// Why a shown text (a level name, an id, a sign) is refused. The words never repeat the
/// text's raw characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextProblem {
    Empty,
    TooLong {
        chars: usize,
        max_chars: usize,
    },
    /// `at_char` is 1-based.
    ControlChar {
        code: u32,
        at_char: usize,
    },
}

impl fmt::Display for TextProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TextProblem::Empty => write!(f, "is empty"),
            TextProblem::TooLong { chars, max_chars } => {
                write!(f, "is {chars} characters long, at most {max_chars} allowed")
            }
            TextProblem::ControlChar { code, at_char } => write!(
                f,
                "holds the control character U+{code:04X} at character {at_char}"
            ),
        }
    }
}

impl std::error::Error for TextProblem {}

/// Checks a text that is shown (a level name, an id): not empty, at most `max_chars`, and no
/// character a terminal or the HUD would interpret (control characters, and the bidirectional
/// overrides that make text read differently from how it is stored).
pub fn check_shown_text(text: &str, max_chars: usize) -> Result<(), TextProblem> {
    if text.trim().is_empty() {
        return Err(TextProblem::Empty);
    }
    let chars = text.chars().count();
    if chars > max_chars {
        return Err(TextProblem::TooLong { chars, max_chars });
    }
    if let Some((at, c)) = text.chars().enumerate().find(|(_, c)| is_unsafe_char(*c)) {
        return Err(TextProblem::ControlChar {
            code: c as u32,
            at_char: at + 1,
        });
    }
    Ok(())
}

/// Why a level path (as written in a level index, a replay, or a store's name) is refused. The
/// path it holds is shown through `printable`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathProblem {
    Empty,
    TooLong,
    BadChar {
        path: String,
        bad: char,
    },
    Absolute {
        path: String,
    },
    /// `..`, `.` or an empty part: it could leave its folder.
    LeavesFolder {
        path: String,
    },
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PathProblem::Empty => write!(f, "is empty"),
            PathProblem::TooLong => write!(f, "is longer than {MAX_LEVEL_PATH_CHARS} characters"),
            PathProblem::BadChar { path, bad } => write!(
                f,
                "\"{}\" holds {}: a level path may use only letters, digits, _ - . and /",
                printable(path),
                describe_char(*bad)
            ),
            PathProblem::Absolute { path } => write!(
                f,
                "\"{}\" is an absolute path: give it relative to the levels folder",
                printable(path)
            ),
            PathProblem::LeavesFolder { path } => write!(
                f,
                "\"{}\" leaves the levels folder or has an empty part (no .., no //)",
                printable(path)
            ),
        }
    }
}

impl std::error::Error for PathProblem {}

/// Checks a level's path as written in the level index or a replay: relative to the levels
/// folder and staying inside it. Absolute paths, `..`, backslashes, drive letters and anything
/// but letters, digits, `_`, `-`, `.` and `/` between folders are rejected, by name.
pub fn check_level_path(path: &str) -> Result<(), PathProblem> {
    if path.is_empty() {
        return Err(PathProblem::Empty);
    }
    if path.chars().count() > MAX_LEVEL_PATH_CHARS {
        return Err(PathProblem::TooLong);
    }
    if let Some(bad) = path
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')))
    {
        return Err(PathProblem::BadChar {
            path: path.to_owned(),
            bad,
        });
    }
    if path.starts_with('/') {
        return Err(PathProblem::Absolute {
            path: path.to_owned(),
        });
    }
    if path
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
    {
        return Err(PathProblem::LeavesFolder {
            path: path.to_owned(),
        });
    }
    Ok(())
}

/// `text` with every character a terminal or the HUD would interpret written as `\u{..}`:
/// what messages and the screen show of text from a file.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_unsafe_char(c) {
            out += &format!("\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Control characters (C0, DEL, C1) and the bidirectional formatting characters.
fn is_unsafe_char(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn describe_char(c: char) -> String {
    if is_unsafe_char(c) || c == ' ' || c == '\\' {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}'")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_rejects_control_characters_without_repeating_them() {
        assert!(check_shown_text("First Swing", 48).is_ok());
        let err = check_shown_text("evil\u{1b}[2J", 48).unwrap_err();
        assert_eq!(
            err,
            TextProblem::ControlChar {
                code: 0x1b,
                at_char: 5
            }
        );
        let err = err.to_string();
        assert!(err.contains("U+001B") && !err.contains('\u{1b}'), "{err}");
        assert!(check_shown_text("a\u{202E}b", 48).is_err());
        assert!(check_shown_text("   ", 48).is_err());
        assert!(check_shown_text(&"x".repeat(49), 48).is_err());
        assert!(check_shown_text("Épreuve — 3", 48).is_ok());
    }

    #[test]
    fn level_paths_stay_in_the_levels_folder() {
        assert!(check_level_path("01_first_swing.ron").is_ok());
        assert!(check_level_path("world2/05_gale.ron").is_ok());
        for bad in [
            "",
            "../secret.ron",
            "a/../../b.ron",
            "/etc/passwd",
            "C:\\x.ron",
            "a//b.ron",
            "./a.ron",
            "a b.ron",
            "a\u{1b}.ron",
        ] {
            assert!(check_level_path(bad).is_err(), "{bad:?} accepted");
        }
        assert!(!check_level_path("a\u{1b}.ron")
            .unwrap_err()
            .to_string()
            .contains('\u{1b}'));
    }

    #[test]
    fn printable_escapes_what_a_terminal_would_interpret() {
        assert_eq!(printable("ok\u{1b}[31m"), "ok\\u{1b}[31m");
        assert_eq!(printable("plain"), "plain");
    }
}
