//! Desktop gamepads through gilrs (evdev/udev on Linux, XInput on Windows, IOKit on macOS),
//! turned into `PadEvent`s. Hot-plugging comes from gilrs's Connected/Disconnected events.

use gilrs::{Axis, Button, EventType, GamepadId, Gilrs};

use super::pad::{PadAxis, PadButton, PadEvent, PadSource};

pub struct GilrsPads {
    gilrs: Gilrs,
    /// Pads counted as connected, so a Connected event for a pad seen at start is not
    /// counted twice.
    known: Vec<GamepadId>,
    /// Connected events for the pads present at start, handed out on the first poll.
    pending: Vec<PadEvent>,
}

impl GilrsPads {
    /// Boxed: gilrs's error can carry a whole `Gilrs` (248 bytes).
    pub fn new() -> Result<GilrsPads, Box<gilrs::Error>> {
        let gilrs = Gilrs::new().map_err(Box::new)?;
        let known: Vec<GamepadId> = gilrs.gamepads().map(|(id, _)| id).collect();
        for (_, pad) in gilrs.gamepads() {
            crate::app::log_line(&format!("gamepad: {} connected", pad.name()));
        }
        let pending = vec![PadEvent::Connected; known.len()];
        Ok(GilrsPads {
            gilrs,
            known,
            pending,
        })
    }
}

impl PadSource for GilrsPads {
    fn poll(&mut self) -> Vec<PadEvent> {
        let mut events = std::mem::take(&mut self.pending);
        while let Some(event) = self.gilrs.next_event() {
            let id = event.id;
            match event.event {
                EventType::Connected if !self.known.contains(&id) => {
                    self.known.push(id);
                    crate::app::log_line(&format!(
                        "gamepad: {} connected",
                        self.gilrs.gamepad(id).name()
                    ));
                    events.push(PadEvent::Connected);
                }
                EventType::Disconnected if self.known.contains(&id) => {
                    self.known.retain(|k| *k != id);
                    crate::app::log_line("gamepad: disconnected");
                    events.push(PadEvent::Disconnected);
                }
                EventType::ButtonChanged(button, value, _) => {
                    if let Some(button) = pad_button(button) {
                        events.push(PadEvent::Button(button, value));
                    }
                }
                EventType::ButtonPressed(button, _) | EventType::ButtonReleased(button, _) => {
                    let down = matches!(event.event, EventType::ButtonPressed(..));
                    if let Some(button) = pad_button(button) {
                        events.push(PadEvent::Button(button, if down { 1.0 } else { 0.0 }));
                    }
                }
                EventType::AxisChanged(axis, value, _) => events.extend(pad_axis(axis, value)),
                _ => {}
            }
        }
        events
    }
}

/// gilrs calls the shoulders "triggers" and the triggers "triggers 2".
fn pad_button(button: Button) -> Option<PadButton> {
    Some(match button {
        Button::South => PadButton::South,
        Button::East => PadButton::East,
        Button::West => PadButton::West,
        Button::North => PadButton::North,
        Button::LeftTrigger => PadButton::LeftShoulder,
        Button::RightTrigger => PadButton::RightShoulder,
        Button::LeftTrigger2 => PadButton::LeftTrigger,
        Button::RightTrigger2 => PadButton::RightTrigger,
        Button::Select => PadButton::Select,
        Button::Start => PadButton::Start,
        Button::Mode => PadButton::Mode,
        Button::LeftThumb => PadButton::LeftStick,
        Button::RightThumb => PadButton::RightStick,
        Button::DPadUp => PadButton::DPadUp,
        Button::DPadDown => PadButton::DPadDown,
        Button::DPadLeft => PadButton::DPadLeft,
        Button::DPadRight => PadButton::DPadRight,
        Button::C | Button::Z | Button::Unknown => return None,
    })
}

/// Sticks map to axes (gilrs's Y is already up-positive); a d-pad reported as a hat axis maps
/// to the d-pad buttons.
fn pad_axis(axis: Axis, value: f32) -> Vec<PadEvent> {
    let pair = |neg: PadButton, pos: PadButton| {
        vec![
            PadEvent::Button(neg, if value < -0.5 { 1.0 } else { 0.0 }),
            PadEvent::Button(pos, if value > 0.5 { 1.0 } else { 0.0 }),
        ]
    };
    match axis {
        Axis::LeftStickX => vec![PadEvent::Axis(PadAxis::LeftX, value)],
        Axis::LeftStickY => vec![PadEvent::Axis(PadAxis::LeftY, value)],
        Axis::RightStickX => vec![PadEvent::Axis(PadAxis::RightX, value)],
        Axis::RightStickY => vec![PadEvent::Axis(PadAxis::RightY, value)],
        Axis::DPadX => pair(PadButton::DPadLeft, PadButton::DPadRight),
        Axis::DPadY => pair(PadButton::DPadDown, PadButton::DPadUp),
        Axis::LeftZ | Axis::RightZ | Axis::Unknown => Vec::new(),
    }
}
