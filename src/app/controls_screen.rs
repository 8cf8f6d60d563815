//! The controls screen: every action with its keys, mouse buttons and gamepad controls;
//! choose one, press the new control, and it is bound (conflicts shown in red at once).
//! The logic (`update`, `capture`) is pure; only `draw` touches the window.

use macroquad::input::KeyCode;

use super::input::action::Action;
use super::input::binding::{Binding, Bindings, Conflict};
use super::input::mapping::{ActionFrame, RawFrame};
use super::input::pad::{PadEvent, AXIS_DOWN_THRESHOLD, BUTTON_DOWN_THRESHOLD};

/// What a press means while the screen waits for a new control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    Bind(Binding),
    /// Delete or Backspace: remove the chosen binding.
    Remove,
    /// Escape: keep things as they were.
    Cancel,
}

/// The first new control pressed this frame, if any. Escape, Delete and Backspace are the
/// screen's own keys while it waits (so they cannot be bound here, only in the file).
pub fn capture(raw: &RawFrame) -> Option<Capture> {
    for key in &raw.keys_pressed {
        return Some(match key {
            KeyCode::Escape => Capture::Cancel,
            KeyCode::Delete | KeyCode::Backspace => Capture::Remove,
            key => match super::input::binding::key_from_name(&format!("{key:?}")) {
                Some(key) => Capture::Bind(Binding::Key(key)),
                None => continue,
            },
        });
    }
    if let Some(button) = raw.mouse_pressed.first() {
        return Some(Capture::Bind(Binding::Mouse(*button)));
    }
    for event in &raw.pad_events {
        match *event {
            PadEvent::Button(button, value) if value > BUTTON_DOWN_THRESHOLD => {
                return Some(Capture::Bind(Binding::Pad(button)));
            }
            PadEvent::Axis(axis, value) if value.abs() > AXIS_DOWN_THRESHOLD => {
                return Some(Capture::Bind(Binding::Axis {
                    axis,
                    positive: value > 0.0,
                }));
            }
            _ => {}
        }
    }
    None
}

/// What the game should do after a frame of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlsOutcome {
    Stay,
    /// The bindings changed: save them.
    Changed,
    Back,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ControlsScreen {
    /// Row: an action (`Action::ALL` order), then "reset all", then "back".
    pub selected: usize,
    /// Which of the action's bindings is chosen; one past the end adds a new one.
    pub slot: usize,
    pub capturing: bool,
    /// The last change's note (a conflict, a reset).
    pub message: Option<String>,
}

const RESET_ROW: usize = Action::ALL.len();
const BACK_ROW: usize = Action::ALL.len() + 1;
const ROWS: usize = Action::ALL.len() + 2;

impl ControlsScreen {
    pub fn selected_action(&self) -> Option<Action> {
        Action::ALL.get(self.selected).copied()
    }

    pub fn update(
        &mut self,
        actions: &ActionFrame,
        raw: &RawFrame,
        bindings: &mut Bindings,
    ) -> ControlsOutcome {
        if self.capturing {
            return self.update_capturing(raw, bindings);
        }
        // Escape and Enter always work here, whatever the menu actions are bound to, so a
        // player who unbinds them can still come back and reset.
        let raw_key = |key: KeyCode| raw.keys_pressed.contains(&key);
        if actions.pressed(Action::MenuBack) || raw_key(KeyCode::Escape) {
            return ControlsOutcome::Back;
        }
        if actions.pressed(Action::MenuDown) {
            self.selected = (self.selected + 1) % ROWS;
            self.slot = 0;
        }
        if actions.pressed(Action::MenuUp) {
            self.selected = (self.selected + ROWS - 1) % ROWS;
            self.slot = 0;
        }
        if let Some(action) = self.selected_action() {
            let slots = bindings.of(action).len() + 1;
            if actions.pressed(Action::MenuRight) {
                self.slot = (self.slot + 1) % slots;
            }
            if actions.pressed(Action::MenuLeft) {
                self.slot = (self.slot + slots - 1) % slots;
            }
            self.slot = self.slot.min(slots - 1);
        }
        if actions.pressed(Action::MenuConfirm) || raw_key(KeyCode::Enter) {
            match self.selected {
                RESET_ROW => {
                    *bindings = Bindings::default();
                    self.message = Some("All controls are back to their defaults".into());
                    return ControlsOutcome::Changed;
                }
                BACK_ROW => return ControlsOutcome::Back,
                _ => {
                    self.capturing = true;
                    self.message = None;
                }
            }
        }
        ControlsOutcome::Stay
    }

    fn update_capturing(&mut self, raw: &RawFrame, bindings: &mut Bindings) -> ControlsOutcome {
        let Some(action) = self.selected_action() else {
            self.capturing = false;
            return ControlsOutcome::Stay;
        };
        let Some(capture) = capture(raw) else {
            return ControlsOutcome::Stay;
        };
        self.capturing = false;
        match capture {
            Capture::Cancel => ControlsOutcome::Stay,
            Capture::Remove => {
                bindings.unbind(action, self.slot);
                self.slot = self.slot.min(bindings.of(action).len());
                ControlsOutcome::Changed
            }
            Capture::Bind(binding) => {
                let clashes = bindings.rebind(action, self.slot, binding);
                self.slot = bindings
                    .of(action)
                    .iter()
                    .position(|b| *b == binding)
                    .unwrap_or(0);
                self.message = (!clashes.is_empty()).then(|| {
                    let names: Vec<&str> = clashes.iter().map(|a| a.label()).collect();
                    format!(
                        "{} also triggers {}: change one of them",
                        binding.label(),
                        names.join(", ")
                    )
                });
                ControlsOutcome::Changed
            }
        }
    }

    pub fn draw(&self, bindings: &Bindings) {
        use super::palette;
        use super::render::hud::ui_scale;
        use super::render::text::draw_text;
        use macroquad::prelude::{
            draw_rectangle, screen_height, screen_width, set_default_camera, Color,
        };
        set_default_camera();
        let (w, h) = (screen_width(), screen_height());
        draw_rectangle(0.0, 0.0, w, h, palette::PANEL.with_alpha(0.96));
        let k = ui_scale();
        let size = (20.0 * k).max(12.0);
        let line_h = size * 1.25;
        let left = w * 0.08;
        let column = w * 0.36;
        let mut y = h * 0.06 + size * 1.6;
        draw_text("Controls", left, y, size * 1.6, palette::GOAL.color());
        y += line_h * 1.2;
        let hint = if self.capturing {
            "Press the new key or button (Delete removes this one, Esc cancels)"
        } else {
            "Up/Down: choose   Left/Right: which binding   Enter: change   Esc: back"
        };
        draw_text(hint, left, y, size, palette::TEXT_DIM.color());
        y += line_h;
        if let Some(message) = &self.message {
            draw_text(message, left, y, size, palette::ERROR_TEXT.color());
        }
        y += line_h * 1.3;
        let conflicts = bindings.conflicts();
        let visible = (((h * 0.95 - y) / line_h) as usize).max(3);
        let first = self
            .selected
            .saturating_sub(visible / 2)
            .min(ROWS.saturating_sub(visible));
        for row in first..(first + visible).min(ROWS) {
            let chosen = row == self.selected;
            let label_color = if chosen {
                palette::TEXT
            } else {
                palette::TEXT_DIM
            };
            if chosen {
                draw_rectangle(
                    left - 8.0,
                    y - size,
                    w * 0.86,
                    line_h,
                    Color::new(1.0, 1.0, 1.0, 0.08),
                );
            }
            let Some(action) = Action::ALL.get(row).copied() else {
                let text = if row == RESET_ROW {
                    "Reset all to defaults"
                } else {
                    "Back"
                };
                draw_text(text, left, y, size, label_color.color());
                y += line_h;
                continue;
            };
            draw_text(action.label(), left, y, size, label_color.color());
            self.draw_bindings(
                bindings.of(action),
                action,
                &conflicts,
                chosen,
                (column, y),
                size,
            );
            y += line_h;
        }
    }

    /// One action's bindings in a row from `(x, y)`, the chosen slot in brackets, a clash in the
    /// error colour, and "+ add" after them on the chosen row.
    fn draw_bindings(
        &self,
        list: &[Binding],
        action: Action,
        conflicts: &[Conflict],
        chosen: bool,
        (mut x, y): (f32, f32),
        size: f32,
    ) {
        use super::palette;
        use super::render::text::{draw_text, measure_text};
        for (slot, binding) in list
            .iter()
            .chain(std::iter::once(&Binding::Key(KeyCode::Unknown)))
            .enumerate()
        {
            let is_add = slot == list.len();
            let text = if is_add {
                if !chosen {
                    break;
                }
                "+ add".to_owned()
            } else {
                binding.label()
            };
            let clash = !is_add
                && conflicts
                    .iter()
                    .any(|c| c.binding == *binding && c.actions.contains(&action));
            let text = if chosen && slot == self.slot {
                if self.capturing {
                    "[ ... ]".to_owned()
                } else {
                    format!("[{text}]")
                }
            } else {
                text
            };
            let color = if clash {
                palette::ERROR_TEXT
            } else if chosen {
                palette::TEXT
            } else {
                palette::TEXT_DIM
            };
            draw_text(&text, x, y, size, color.color());
            x += measure_text(&text, None, size as u16, 1.0).width + size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::input::pad::{PadAxis, PadButton};
    use super::super::input::ActionMapper;
    use super::*;

    fn frame(bindings: &Bindings, raw: &RawFrame) -> ActionFrame {
        ActionMapper::default().map(bindings, raw)
    }

    fn press(key: KeyCode) -> RawFrame {
        RawFrame {
            keys_down: vec![key],
            keys_pressed: vec![key],
            ..RawFrame::default()
        }
    }

    #[test]
    fn capture_takes_keys_mouse_pad_buttons_and_sticks() {
        assert_eq!(
            capture(&press(KeyCode::C)),
            Some(Capture::Bind(Binding::Key(KeyCode::C)))
        );
        assert_eq!(capture(&press(KeyCode::Escape)), Some(Capture::Cancel));
        assert_eq!(capture(&press(KeyCode::Delete)), Some(Capture::Remove));
        let pad = |e: Vec<PadEvent>| RawFrame {
            pad_events: e,
            ..RawFrame::default()
        };
        // A release (the press that opened the capture) and a small stick drift are not new
        // controls; a button press and a stick pushed far are.
        assert_eq!(
            capture(&pad(vec![
                PadEvent::Button(PadButton::South, 0.0),
                PadEvent::Axis(PadAxis::LeftX, 0.2)
            ])),
            None
        );
        assert_eq!(
            capture(&pad(vec![PadEvent::Button(PadButton::North, 1.0)])),
            Some(Capture::Bind(Binding::Pad(PadButton::North)))
        );
        assert_eq!(
            capture(&pad(vec![PadEvent::Axis(PadAxis::RightY, -0.9)])),
            Some(Capture::Bind(Binding::Axis {
                axis: PadAxis::RightY,
                positive: false
            }))
        );
    }

    #[test]
    fn rebinding_jump_to_a_fire_key_shows_the_conflict() {
        let mut bindings = Bindings::default();
        let mut screen = ControlsScreen::default();
        // Down to Jump (row 4), Enter, then press K (Fire's key).
        for _ in 0..4 {
            let raw = press(KeyCode::Down);
            let f = frame(&bindings, &raw);
            assert_eq!(
                screen.update(&f, &raw, &mut bindings),
                ControlsOutcome::Stay
            );
        }
        assert_eq!(screen.selected_action(), Some(Action::Jump));
        let raw = press(KeyCode::Enter);
        let f = frame(&bindings, &raw);
        screen.update(&f, &raw, &mut bindings);
        assert!(screen.capturing);
        let raw = press(KeyCode::K);
        let f = frame(&bindings, &raw);
        assert_eq!(
            screen.update(&f, &raw, &mut bindings),
            ControlsOutcome::Changed
        );
        assert_eq!(bindings.of(Action::Jump)[0], Binding::Key(KeyCode::K));
        assert!(!bindings
            .of(Action::Jump)
            .contains(&Binding::Key(KeyCode::Space)));
        assert!(screen.message.as_deref().unwrap().contains("Fire hook"));
        assert_eq!(bindings.conflicts().len(), 1);
        // Escape while waiting cancels; Escape otherwise leaves the screen.
        let raw = press(KeyCode::Enter);
        screen.update(&frame(&bindings, &raw), &raw, &mut bindings);
        let raw = press(KeyCode::Escape);
        let before = bindings.clone();
        assert_eq!(
            screen.update(&frame(&bindings, &raw), &raw, &mut bindings),
            ControlsOutcome::Stay
        );
        assert_eq!(bindings, before);
        assert_eq!(
            screen.update(&frame(&bindings, &raw), &raw, &mut bindings),
            ControlsOutcome::Back
        );
    }

    #[test]
    fn reset_all_restores_the_defaults() {
        let mut bindings = Bindings::empty();
        let mut screen = ControlsScreen {
            selected: RESET_ROW,
            ..ControlsScreen::default()
        };
        // The actions come from the default map; the table being edited is empty.
        let raw = press(KeyCode::Enter);
        let f = frame(&Bindings::default(), &raw);
        assert_eq!(
            screen.update(&f, &raw, &mut bindings),
            ControlsOutcome::Changed
        );
        assert_eq!(bindings, Bindings::default());
    }

    #[test]
    fn enter_and_escape_work_even_with_the_menu_actions_unbound() {
        let mut bindings = Bindings::empty();
        let mut screen = ControlsScreen {
            selected: RESET_ROW,
            ..ControlsScreen::default()
        };
        let raw = press(KeyCode::Enter);
        let f = frame(&bindings, &raw);
        assert!(!f.pressed(Action::MenuConfirm));
        assert_eq!(
            screen.update(&f, &raw, &mut bindings),
            ControlsOutcome::Changed
        );
        let mut bindings = Bindings::empty();
        let raw = press(KeyCode::Escape);
        let f = frame(&bindings, &raw);
        assert_eq!(
            screen.update(&f, &raw, &mut bindings),
            ControlsOutcome::Back
        );
    }
}
