//! Gamepads as plain data: the W3C "standard" layout (the browser's Gamepad API uses it, and
//! gilrs maps every pad it knows onto the same names), a state that events change, and the
//! per-platform sources behind one trait: gilrs on the desktop, `web/gamepad_plugin.js` in the
//! browser. All pads connected at once act as one (any of them may press a button).

/// Buttons by position, in the W3C standard order (the browser's `buttons[i]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PadButton {
    /// A on Xbox pads, cross on PlayStation pads.
    South,
    East,
    West,
    North,
    LeftShoulder,
    RightShoulder,
    LeftTrigger,
    RightTrigger,
    Select,
    Start,
    LeftStick,
    RightStick,
    DPadUp,
    DPadDown,
    DPadLeft,
    DPadRight,
    Mode,
}

pub const PAD_BUTTON_COUNT: usize = PadButton::ALL.len();

impl PadButton {
    pub const ALL: [PadButton; 17] = [
        PadButton::South,
        PadButton::East,
        PadButton::West,
        PadButton::North,
        PadButton::LeftShoulder,
        PadButton::RightShoulder,
        PadButton::LeftTrigger,
        PadButton::RightTrigger,
        PadButton::Select,
        PadButton::Start,
        PadButton::LeftStick,
        PadButton::RightStick,
        PadButton::DPadUp,
        PadButton::DPadDown,
        PadButton::DPadLeft,
        PadButton::DPadRight,
        PadButton::Mode,
    ];

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Stick axes. Values are -1..1 with +1 right and up (the browser's Y is flipped on the way in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PadAxis {
    LeftX,
    LeftY,
    RightX,
    RightY,
}

pub const PAD_AXIS_COUNT: usize = PadAxis::ALL.len();

impl PadAxis {
    pub const ALL: [PadAxis; 4] = [
        PadAxis::LeftX,
        PadAxis::LeftY,
        PadAxis::RightX,
        PadAxis::RightY,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn is_vertical(self) -> bool {
        matches!(self, PadAxis::LeftY | PadAxis::RightY)
    }
}

/// A button counts as down past this value (triggers are analog: 0..1).
pub const BUTTON_DOWN_THRESHOLD: f32 = 0.5;
/// A stick direction bound like a button is down past this deflection.
pub const AXIS_DOWN_THRESHOLD: f32 = 0.5;
/// Stick deflections below this are noise (worn sticks rest off centre).
pub const STICK_DEADZONE: f32 = 0.25;

/// What the pads report at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PadState {
    /// How many pads are connected.
    pub connected: u8,
    /// 0..1 per button (`PadButton` order).
    pub buttons: [f32; PAD_BUTTON_COUNT],
    /// -1..1 per axis (`PadAxis` order).
    pub axes: [f32; PAD_AXIS_COUNT],
}

/// A change reported by a pad (gilrs reports these; the browser's polled state is turned into
/// them too, so both take one path and tests can record them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadEvent {
    Connected,
    Disconnected,
    Button(PadButton, f32),
    Axis(PadAxis, f32),
}

impl PadState {
    pub fn is_down(&self, button: PadButton) -> bool {
        self.buttons[button.index()] > BUTTON_DOWN_THRESHOLD
    }

    pub fn axis(&self, axis: PadAxis) -> f32 {
        self.axes[axis.index()]
    }

    /// The stick's deflection with the dead zone cut out, or `None` at rest.
    pub fn stick(&self, x: PadAxis, y: PadAxis) -> Option<(f32, f32)> {
        let (vx, vy) = (self.axis(x), self.axis(y));
        (vx * vx + vy * vy > STICK_DEADZONE * STICK_DEADZONE).then_some((vx, vy))
    }

    pub fn right_stick(&self) -> Option<(f32, f32)> {
        self.stick(PadAxis::RightX, PadAxis::RightY)
    }

    /// Applies one event. Values outside their range or not finite are clamped or ignored,
    /// so a misbehaving driver cannot push nonsense further in.
    pub fn apply(&mut self, event: PadEvent) {
        match event {
            PadEvent::Connected => self.connected = self.connected.saturating_add(1),
            PadEvent::Disconnected => {
                self.connected = self.connected.saturating_sub(1);
                if self.connected == 0 {
                    // A pad pulled out with a button held must not leave it held.
                    *self = PadState::default();
                }
            }
            PadEvent::Button(button, value) if value.is_finite() => {
                self.buttons[button.index()] = value.clamp(0.0, 1.0)
            }
            PadEvent::Axis(axis, value) if value.is_finite() => {
                self.axes[axis.index()] = value.clamp(-1.0, 1.0)
            }
            PadEvent::Button(..) | PadEvent::Axis(..) => {}
        }
    }

    /// The events that turn `self` into `next` (the browser reports whole states).
    pub fn diff(&self, next: &PadState) -> Vec<PadEvent> {
        let mut events = Vec::new();
        for _ in self.connected..next.connected {
            events.push(PadEvent::Connected);
        }
        for _ in next.connected..self.connected {
            events.push(PadEvent::Disconnected);
        }
        for button in PadButton::ALL {
            let value = next.buttons[button.index()];
            if value != self.buttons[button.index()] {
                events.push(PadEvent::Button(button, value));
            }
        }
        for axis in PadAxis::ALL {
            let value = next.axes[axis.index()];
            if value != self.axes[axis.index()] {
                events.push(PadEvent::Axis(axis, value));
            }
        }
        events
    }
}

/// A platform's pads: hands over what happened since the last call.
pub trait PadSource {
    fn poll(&mut self) -> Vec<PadEvent>;
}

/// No gamepad support (or none available): never reports anything.
pub struct NoPads;

impl PadSource for NoPads {
    fn poll(&mut self) -> Vec<PadEvent> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unplugging_the_last_pad_lets_go_of_everything() {
        let mut pad = PadState::default();
        pad.apply(PadEvent::Connected);
        pad.apply(PadEvent::Button(PadButton::RightTrigger, 1.0));
        pad.apply(PadEvent::Axis(PadAxis::LeftX, -0.9));
        assert!(pad.is_down(PadButton::RightTrigger));
        pad.apply(PadEvent::Connected);
        pad.apply(PadEvent::Disconnected);
        assert!(pad.is_down(PadButton::RightTrigger), "one pad is still in");
        pad.apply(PadEvent::Disconnected);
        assert_eq!(pad, PadState::default());
    }

    #[test]
    fn bad_values_are_clamped_or_ignored() {
        let mut pad = PadState::default();
        pad.apply(PadEvent::Axis(PadAxis::RightY, 7.0));
        pad.apply(PadEvent::Axis(PadAxis::RightX, f32::NAN));
        pad.apply(PadEvent::Button(PadButton::South, -3.0));
        assert_eq!(pad.axis(PadAxis::RightY), 1.0);
        assert_eq!(pad.axis(PadAxis::RightX), 0.0);
        assert!(!pad.is_down(PadButton::South));
    }

    #[test]
    fn diff_then_apply_reaches_the_new_state() {
        let before = PadState::default();
        let mut after = PadState {
            connected: 1,
            ..PadState::default()
        };
        after.buttons[PadButton::West.index()] = 1.0;
        after.axes[PadAxis::RightX.index()] = 0.5;
        let mut replayed = before;
        for event in before.diff(&after) {
            replayed.apply(event);
        }
        assert_eq!(replayed, after);
        assert!(after.diff(&after).is_empty());
    }

    #[test]
    fn the_dead_zone_hides_a_resting_stick() {
        let mut pad = PadState::default();
        pad.apply(PadEvent::Axis(PadAxis::RightX, 0.1));
        pad.apply(PadEvent::Axis(PadAxis::RightY, -0.15));
        assert_eq!(pad.right_stick(), None);
        pad.apply(PadEvent::Axis(PadAxis::RightY, 0.6));
        assert_eq!(pad.right_stick(), Some((0.1, 0.6)));
    }
}
