//! A gamepad types a name, through the game's own input path (pad events → bindings → menu
//! actions → the text entry's on-screen character picker): the d-pad moves over the grid, A
//! types the character chosen, B deletes, Start is done, and B on an empty line leaves.

use tether::app::input::pad::{PadButton, PadEvent};
use tether::app::input::{ActionMapper, Bindings, RawFrame};
use tether::app::screens::text_entry::{TextEntry, Typed, CODE_PICKER_CHARS, NAME_PICKER_CHARS};

/// A gamepad in front of a text entry, one rendered frame at a time.
struct Pad {
    bindings: Bindings,
    mapper: ActionMapper,
}

impl Pad {
    fn new(entry: &mut TextEntry) -> Pad {
        let mut pad = Pad {
            bindings: Bindings::default(),
            mapper: ActionMapper::default(),
        };
        assert_eq!(pad.frame(entry, vec![PadEvent::Connected]), Typed::Editing);
        pad
    }

    fn frame(&mut self, entry: &mut TextEntry, pad_events: Vec<PadEvent>) -> Typed {
        let raw = RawFrame {
            pad_events,
            ..RawFrame::default()
        };
        let actions = self.mapper.map(&self.bindings, &raw);
        entry.update(&[], &actions)
    }

    /// Pressed on one frame, let go on the next: what the entry made of the press.
    fn press(&mut self, entry: &mut TextEntry, button: PadButton) -> Typed {
        let typed = self.frame(entry, vec![PadEvent::Button(button, 1.0)]);
        assert_eq!(
            self.frame(entry, vec![PadEvent::Button(button, 0.0)]),
            Typed::Editing,
            "letting go of {button:?} did something"
        );
        typed
    }

    fn presses(&mut self, entry: &mut TextEntry, buttons: &[PadButton]) {
        for &button in buttons {
            assert_eq!(
                self.press(entry, button),
                Typed::Editing,
                "{button:?} ended typing"
            );
        }
    }
}

use PadButton::{DPadDown as Down, DPadLeft as Left, DPadRight as Right, DPadUp as Up};
use PadButton::{East as B, South as A, Start};

#[test]
fn a_gamepad_types_a_name_on_the_picker_and_start_sends_it() {
    let mut entry = TextEntry::new("", 24).with_picker(NAME_PICKER_CHARS);
    let mut pad = Pad::new(&mut entry);
    // The grid starts on "A".
    assert_eq!(entry.picker().unwrap().chosen(), 'A');
    pad.presses(&mut entry, &[A]);
    assert_eq!(entry.text, "A");
    // Two rows down and three along: "d" (the lower case starts the third row of 13).
    pad.presses(&mut entry, &[Down, Down, Right, Right, Right]);
    assert_eq!(entry.picker().unwrap().chosen(), 'd');
    // A slip: "e" typed, then B takes it back.
    pad.presses(&mut entry, &[Right, A, B]);
    assert_eq!(entry.text, "A");
    pad.presses(&mut entry, &[Left, A, Left, Left, Left, A]);
    assert_eq!(entry.text, "Ada");
    // Up from the first row wraps to the last row's character in that column (the last row
    // is "'" and the space).
    pad.presses(&mut entry, &[Up, Up]);
    assert_eq!(entry.picker().unwrap().chosen(), 'A');
    pad.presses(&mut entry, &[Up]);
    assert_eq!(entry.picker().unwrap().chosen(), '\'');
    // Right to the space, which types one.
    pad.presses(&mut entry, &[Right, A]);
    assert_eq!(entry.text, "Ada ");
    pad.presses(&mut entry, &[B]);
    // Start (which also presses the menus' back) is done, not a deletion.
    assert_eq!(pad.press(&mut entry, Start), Typed::Submit("Ada".into()));
}

#[test]
fn b_deletes_then_leaves_on_an_empty_line() {
    let mut entry = TextEntry::new("Bo", 24).with_picker(NAME_PICKER_CHARS);
    let mut pad = Pad::new(&mut entry);
    pad.presses(&mut entry, &[B, B]);
    assert_eq!(entry.text, "");
    assert_eq!(pad.press(&mut entry, B), Typed::Cancel);
}

#[test]
fn a_gamepad_types_a_recovery_code_from_its_alphabet_only() {
    let mut entry = TextEntry::new("", 80).with_picker(CODE_PICKER_CHARS);
    let mut pad = Pad::new(&mut entry);
    // "0", then one left: wraps to the alphabet's last character, "Z".
    pad.presses(&mut entry, &[A, Left, A, Right, Right, A]);
    assert_eq!(entry.text, "0Z1");
    // Down past the last row wraps to the first: the grid has no letters O, I, L or U.
    pad.presses(&mut entry, &[Down, Down, Down, A]);
    assert_eq!(entry.text, "0Z11");
    assert!(!entry
        .picker()
        .unwrap()
        .rows()
        .concat()
        .contains(['O', 'I', 'L', 'U']));
    assert_eq!(pad.press(&mut entry, Start), Typed::Submit("0Z11".into()));
}
