//! Text typed by the keyboard into a screen (a display name, a recovery code, a server address):
//! the characters typed this frame, read once in `Ctx::read_actions` into `ctx.input.typed`
//! with Backspace, Enter and Escape as `\u{8}`, `\n` and `\u{1b}` (a menu script's `Type:TEXT`
//! adds its text there), and `TextEntry`, the line being typed.
//!
//! The menu's keyboard actions are not used while typing (Space and W/A/S/D are letters then),
//! but a touch's confirm and back still submit and cancel. A gamepad types with `CharPicker`,
//! an on-screen grid of the characters allowed: the d-pad (or left stick) moves over it, A (the
//! menus' confirm) types the character chosen, B (the menus' back) deletes the last one, or
//! leaves on an empty line as B leaves every menu, and Start is done.

use macroquad::input::{get_char_pressed, is_key_pressed, KeyCode};

use crate::app::input::{Action, ActionFrame, DeviceKind};

pub const BACKSPACE: char = '\u{8}';
pub const ENTER: char = '\n';
pub const ESCAPE: char = '\u{1b}';

/// The characters typed this frame (printable ones as typed, then the editing keys).
pub fn read_typed_keys() -> Vec<char> {
    let mut typed = Vec::new();
    while let Some(c) = get_char_pressed() {
        if !c.is_control() {
            typed.push(c);
        }
    }
    for (key, c) in [
        (KeyCode::Backspace, BACKSPACE),
        (KeyCode::Enter, ENTER),
        (KeyCode::KpEnter, ENTER),
        (KeyCode::Escape, ESCAPE),
    ] {
        if is_key_pressed(key) {
            typed.push(c);
        }
    }
    typed
}

/// Characters a gamepad can type into a display name: the picker's grid, row by row. The space
/// is last, so that its wider cell (`SPACE_CELL`) ends the last row.
pub const NAME_PICKER_CHARS: &str =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.' ";
/// Characters a gamepad can type into a recovery code (its alphabet: the dashes are optional).
pub const CODE_PICKER_CHARS: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters on one row of the picker's grid.
const PICKER_COLUMNS: usize = 13;
/// How the space is shown on the grid: the default font has no visible-space glyph, and a
/// space drawn as `_` looked the same as the real `_` beside it.
const SPACE_CELL: &str = "space";

/// The on-screen character grid a gamepad types with, and the character chosen on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharPicker {
    chars: Vec<char>,
    at: usize,
}

impl CharPicker {
    pub fn new(chars: &str) -> CharPicker {
        CharPicker {
            chars: chars.chars().collect(),
            at: 0,
        }
    }

    pub fn chosen(&self) -> char {
        self.chars[self.at]
    }

    /// Moves the choice with the gamepad's menu directions: left and right along the
    /// characters, up and down a row, each wrapping around the grid.
    fn steer(&mut self, by_gamepad: impl Fn(Action) -> bool) {
        let count = self.chars.len();
        if by_gamepad(Action::MenuRight) {
            self.at = (self.at + 1) % count;
        }
        if by_gamepad(Action::MenuLeft) {
            self.at = (self.at + count - 1) % count;
        }
        if by_gamepad(Action::MenuDown) {
            self.at = match self.at + PICKER_COLUMNS {
                below if below < count => below,
                _ => self.at % PICKER_COLUMNS,
            };
        }
        if by_gamepad(Action::MenuUp) {
            self.at = match self.at.checked_sub(PICKER_COLUMNS) {
                Some(above) => above,
                // To the last row's character in this column (or the last character).
                None => {
                    let last_row_start = (count - 1) / PICKER_COLUMNS * PICKER_COLUMNS;
                    (last_row_start + self.at).min(count - 1)
                }
            };
        }
    }

    /// The grid as drawn, the chosen character in brackets. Every row is as long as a full
    /// one (the panel centres its lines, and its font is monospaced), so a short last row
    /// lines up under the columns above it instead of being centred.
    pub fn rows(&self) -> Vec<String> {
        let row_chars = PICKER_COLUMNS * 3;
        self.chars
            .chunks(PICKER_COLUMNS)
            .enumerate()
            .map(|(row, chars)| {
                let cells: String = chars
                    .iter()
                    .enumerate()
                    .map(|(column, &c)| {
                        let shown = if c == ' ' {
                            SPACE_CELL.to_string()
                        } else {
                            c.to_string()
                        };
                        if row * PICKER_COLUMNS + column == self.at {
                            format!("[{shown}]")
                        } else {
                            format!(" {shown} ")
                        }
                    })
                    .collect();
                format!("{cells:<row_chars$}")
            })
            .collect()
    }
}

/// What a frame of typing ends in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    Editing,
    /// Enter (a touch's confirm, a gamepad's Start): the text as typed.
    Submit(String),
    /// Escape (a touch's back, a gamepad's B on an empty line).
    Cancel,
}

/// One line of text being typed, at most `max_chars` characters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextEntry {
    pub text: String,
    max_chars: usize,
    /// The grid a gamepad types with (none: a gamepad's confirm submits, as a touch's does).
    picker: Option<CharPicker>,
}

impl TextEntry {
    pub fn new(text: &str, max_chars: usize) -> TextEntry {
        TextEntry {
            text: text.chars().take(max_chars).collect(),
            max_chars,
            picker: None,
        }
    }

    /// The entry with a gamepad's character grid of `chars`.
    pub fn with_picker(mut self, chars: &str) -> TextEntry {
        self.picker = Some(CharPicker::new(chars));
        self
    }

    pub fn picker(&self) -> Option<&CharPicker> {
        self.picker.as_ref()
    }

    fn push(&mut self, c: char) {
        if !c.is_control() && self.text.chars().count() < self.max_chars {
            self.text.push(c);
        }
    }

    /// A frame of the gamepad on the picker; `None` when it did not end the typing.
    fn pick(&mut self, actions: &ActionFrame) -> Option<Typed> {
        let picker = self.picker.as_mut()?;
        let by_gamepad = |action| actions.pressed_by(action) == Some(DeviceKind::Gamepad);
        picker.steer(by_gamepad);
        let chosen = picker.chosen();
        // Start presses the menus' back and pause together: as pause it is "done".
        if by_gamepad(Action::Pause) {
            return Some(Typed::Submit(self.text.clone()));
        }
        if by_gamepad(Action::MenuConfirm) {
            self.push(chosen);
        } else if by_gamepad(Action::MenuBack) && self.text.pop().is_none() {
            return Some(Typed::Cancel);
        }
        None
    }

    /// One frame: the characters typed, and the menu actions (only a non-keyboard confirm or
    /// back is read: on the keyboard those are keys being typed).
    pub fn update(&mut self, typed: &[char], actions: &ActionFrame) -> Typed {
        for &c in typed {
            match c {
                ENTER => return Typed::Submit(self.text.clone()),
                ESCAPE => return Typed::Cancel,
                BACKSPACE => {
                    self.text.pop();
                }
                c => self.push(c),
            }
        }
        if let Some(ended) = self.pick(actions) {
            return ended;
        }
        // With a picker a gamepad's confirm and back were letters typed and deleted above.
        let picking = self.picker.is_some();
        let by_pad = |action| {
            actions.pressed_by(action).is_some_and(|device| {
                device != DeviceKind::Keyboard && !(picking && device == DeviceKind::Gamepad)
            })
        };
        if by_pad(Action::MenuConfirm) {
            return Typed::Submit(self.text.clone());
        }
        if by_pad(Action::MenuBack) {
            return Typed::Cancel;
        }
        Typed::Editing
    }

    /// The text with a cursor after it, as drawn.
    pub fn shown(&self) -> String {
        format!("{}_", crate::sim::limits::printable(&self.text))
    }
}

/// The picker's grid and how a gamepad uses it, as panel lines: only while a gamepad was the
/// device last used (a keyboard or touch player types without it), and nothing without a
/// picker. The picker follows the pad either way, so its first press shows the grid.
pub fn picker_lines(entry: &TextEntry, last_device: DeviceKind) -> Vec<(String, bool)> {
    let Some(picker) = entry.picker() else {
        return Vec::new();
    };
    if last_device != DeviceKind::Gamepad {
        return Vec::new();
    }
    let mut lines: Vec<(String, bool)> =
        picker.rows().into_iter().map(|row| (row, false)).collect();
    lines.push((
        "Gamepad: d-pad choose, A type, B delete, Start done".into(),
        false,
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(entry: &mut TextEntry, text: &str) -> Typed {
        let chars: Vec<char> = text.chars().collect();
        entry.update(&chars, &ActionFrame::default())
    }

    #[test]
    fn typing_editing_and_submitting() {
        let mut entry = TextEntry::new("", 5);
        assert_eq!(typed(&mut entry, "Ad x"), Typed::Editing);
        assert_eq!(entry.text, "Ad x");
        assert_eq!(typed(&mut entry, "\u{8}\u{8}a"), Typed::Editing);
        assert_eq!(entry.text, "Ada");
        // Past the limit nothing more is taken; control characters never are.
        assert_eq!(typed(&mut entry, "\u{7}bcdef"), Typed::Editing);
        assert_eq!(entry.text, "Adabc");
        assert_eq!(typed(&mut entry, "\n"), Typed::Submit("Adabc".into()));
        assert_eq!(typed(&mut entry, "\u{1b}"), Typed::Cancel);
        // Backspace on nothing is nothing.
        let mut empty = TextEntry::new("", 5);
        assert_eq!(typed(&mut empty, "\u{8}\u{8}"), Typed::Editing);
        assert_eq!(empty.text, "");
    }

    #[test]
    fn only_a_pads_confirm_submits_the_keyboards_is_a_key_typed() {
        let mut entry = TextEntry::new("Bob", 24);
        let mut frame = ActionFrame::default();
        frame.press(Action::MenuConfirm, DeviceKind::Keyboard);
        assert_eq!(entry.update(&[' '], &frame), Typed::Editing);
        assert_eq!(entry.text, "Bob ");
        let mut frame = ActionFrame::default();
        frame.press(Action::MenuConfirm, DeviceKind::Gamepad);
        assert_eq!(entry.update(&[], &frame), Typed::Submit("Bob ".into()));
        let mut frame = ActionFrame::default();
        frame.press(Action::MenuBack, DeviceKind::Gamepad);
        assert_eq!(entry.update(&[], &frame), Typed::Cancel);
    }

    #[test]
    fn the_grid_shows_the_space_as_a_word_and_lines_its_rows_up() {
        let mut picker = CharPicker::new(NAME_PICKER_CHARS);
        let rows = picker.rows();
        // The last row is "'" and the space: every row as long as a full one, left-aligned.
        assert_eq!(rows.last().unwrap().trim_end(), " '  space");
        assert!(rows
            .iter()
            .all(|row| row.chars().count() == PICKER_COLUMNS * 3));
        // No cell shows the space as the underscore beside it.
        assert_eq!(rows.concat().matches('_').count(), 1);
        picker.at = NAME_PICKER_CHARS.len() - 1;
        assert_eq!(picker.chosen(), ' ');
        assert!(picker.rows().last().unwrap().contains("[space]"));
    }

    #[test]
    fn only_a_gamepad_player_sees_the_grid() {
        let entry = TextEntry::new("", 24).with_picker(NAME_PICKER_CHARS);
        assert!(picker_lines(&entry, DeviceKind::Keyboard).is_empty());
        assert!(picker_lines(&entry, DeviceKind::Touch).is_empty());
        assert!(picker_lines(&entry, DeviceKind::Gamepad).len() > 5);
        // No picker, no grid, whatever the device.
        assert!(picker_lines(&TextEntry::new("", 24), DeviceKind::Gamepad).is_empty());
    }
}
