//! Text typed by the keyboard into a screen (a display name, a recovery code, a server address):
//! the characters typed this frame, read once in `Ctx::read_actions` into `ctx.input.typed`
//! with Backspace, Enter and Escape as `\u{8}`, `\n` and `\u{1b}` (a menu script's `Type:TEXT`
//! adds its text there), and `TextEntry`, the line being typed.
//!
//! The menu's keyboard actions are not used while typing (Space and W/A/S/D are letters then),
//! but a gamepad's or a touch's confirm and back still submit and cancel.

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

/// What a frame of typing ends in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    Editing,
    /// Enter (or a gamepad's confirm): the text as typed.
    Submit(String),
    /// Escape (or a gamepad's back).
    Cancel,
}

/// One line of text being typed, at most `max_chars` characters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextEntry {
    pub text: String,
    max_chars: usize,
}

impl TextEntry {
    pub fn new(text: &str, max_chars: usize) -> TextEntry {
        TextEntry {
            text: text.chars().take(max_chars).collect(),
            max_chars,
        }
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
                c if !c.is_control() && self.text.chars().count() < self.max_chars => {
                    self.text.push(c)
                }
                _ => {}
            }
        }
        let by_pad = |action| {
            actions
                .pressed_by(action)
                .is_some_and(|device| device != DeviceKind::Keyboard)
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
}
