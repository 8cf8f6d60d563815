//! Device state → actions, once per rendered frame. Pure: `RawFrame` is what the devices said
//! this frame (filled from macroquad and the pad source in `devices`, or from a script in tests),
//! `ActionFrame` is what the game reads.

use macroquad::input::{KeyCode, MouseButton};

use super::action::{Action, ACTION_COUNT};
use super::binding::{Binding, Bindings, DeviceKind};
use super::pad::{PadEvent, PadState, AXIS_DOWN_THRESHOLD};
use crate::sim::math::Vec2;

/// What the devices reported during one rendered frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawFrame {
    pub keys_down: Vec<KeyCode>,
    /// Keys that went down this frame (a key pressed and released within one frame is here
    /// but not in `keys_down`).
    pub keys_pressed: Vec<KeyCode>,
    pub mouse_down: Vec<MouseButton>,
    pub mouse_pressed: Vec<MouseButton>,
    /// Wheel movement in the device's units (only the sign is portable).
    pub wheel_y: f32,
    /// The pointer moved this frame (switches aiming to the mouse).
    pub mouse_moved: bool,
    /// Gamepad changes in the order they happened.
    pub pad_events: Vec<PadEvent>,
    /// Touches this frame (the touch controls turn them into actions; they need the screen).
    pub touches: Vec<TouchPoint>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TouchPhase {
    Started,
    Moved,
    Stationary,
    Ended,
}

/// One touch as reported this frame, in logical pixels (as `screen_width()`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TouchPoint {
    pub id: u64,
    pub phase: TouchPhase,
    pub x: f32,
    pub y: f32,
}

/// What the player asked for this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionFrame {
    down: [bool; ACTION_COUNT],
    pressed: [bool; ACTION_COUNT],
    /// The device of each press this frame (the last one if several).
    pressed_by: [Option<DeviceKind>; ACTION_COUNT],
    pub wheel_y: f32,
    pub mouse_moved: bool,
    /// The right stick's deflection past its dead zone (x right, y up).
    pub aim_stick: Option<Vec2>,
    /// How many gamepads are connected.
    pub pads_connected: u8,
    /// The last gamepad was pulled out this frame: what it held is let go, and play pauses.
    pub pad_unplugged: bool,
}

impl Default for ActionFrame {
    fn default() -> ActionFrame {
        ActionFrame {
            down: [false; ACTION_COUNT],
            pressed: [false; ACTION_COUNT],
            pressed_by: [None; ACTION_COUNT],
            wheel_y: 0.0,
            mouse_moved: false,
            aim_stick: None,
            pads_connected: 0,
            pad_unplugged: false,
        }
    }
}

impl ActionFrame {
    pub fn down(&self, action: Action) -> bool {
        self.down[action.index()]
    }

    /// Whether `action` went down this frame.
    pub fn pressed(&self, action: Action) -> bool {
        self.pressed[action.index()]
    }

    pub fn pressed_by(&self, action: Action) -> Option<DeviceKind> {
        self.pressed_by[action.index()]
    }

    /// -1, 0 or +1 from two opposite actions held.
    pub fn axis(&self, negative: Action, positive: Action) -> i8 {
        self.down(positive) as i8 - self.down(negative) as i8
    }

    /// A frame in which only `action` went down, from the keyboard: what the screens' tests
    /// feed a menu.
    pub fn only_pressed(action: Action) -> ActionFrame {
        let mut frame = ActionFrame::default();
        frame.press(action, DeviceKind::Keyboard);
        frame
    }

    /// Marks `action` pressed (and held) by `device` (touch controls add theirs this way).
    pub fn press(&mut self, action: Action, device: DeviceKind) {
        self.pressed[action.index()] = true;
        self.down[action.index()] = true;
        self.pressed_by[action.index()] = Some(device);
    }

    /// Marks `action` held.
    pub fn hold(&mut self, action: Action) {
        self.down[action.index()] = true;
    }

    /// Whether play pauses this frame: on the pause action, or when the player's hands have
    /// left the game (the window lost focus, the last gamepad was pulled out) unless a replay is
    /// being `watched`.
    pub fn pauses_play(&self, focus_lost: bool, watched: bool) -> bool {
        self.pressed(Action::Pause) || (!watched && (focus_lost || self.pad_unplugged))
    }
}

/// Turns raw frames into action frames; keeps the gamepad's state between frames (pads report
/// changes, and a press is a change from up to down).
#[derive(Clone, Debug, Default)]
pub struct ActionMapper {
    pad: PadState,
}

impl ActionMapper {
    pub fn pad(&self) -> &PadState {
        &self.pad
    }

    pub fn map(&mut self, bindings: &Bindings, raw: &RawFrame) -> ActionFrame {
        let mut frame = ActionFrame {
            wheel_y: raw.wheel_y,
            mouse_moved: raw.mouse_moved,
            ..ActionFrame::default()
        };
        // Pad presses: replay the frame's events one by one, so a button tapped and let go
        // within one frame still presses once.
        let mut pad_was = self.pad_down(bindings);
        for &event in &raw.pad_events {
            let had_pads = self.pad.connected > 0;
            self.pad.apply(event);
            frame.pad_unplugged |= had_pads && self.pad.connected == 0;
            let pad_now = self.pad_down(bindings);
            for action in Action::ALL {
                let i = action.index();
                if pad_now[i] && !pad_was[i] {
                    frame.pressed[i] = true;
                    frame.pressed_by[i] = Some(DeviceKind::Gamepad);
                }
            }
            pad_was = pad_now;
        }
        for action in Action::ALL {
            let i = action.index();
            for &binding in bindings.of(action) {
                match binding {
                    Binding::Key(key) => {
                        frame.down[i] |= raw.keys_down.contains(&key);
                        if raw.keys_pressed.contains(&key) {
                            frame.pressed[i] = true;
                            frame.pressed_by[i] = Some(DeviceKind::Keyboard);
                        }
                    }
                    Binding::Mouse(button) => {
                        frame.down[i] |= raw.mouse_down.contains(&button);
                        if raw.mouse_pressed.contains(&button) {
                            frame.pressed[i] = true;
                            frame.pressed_by[i] = Some(DeviceKind::Mouse);
                        }
                    }
                    Binding::Pad(_) | Binding::Axis { .. } => {}
                }
            }
            frame.down[i] |= pad_was[i];
        }
        frame.aim_stick = self
            .pad
            .right_stick()
            .map(|(x, y)| Vec2::new(x, y))
            .filter(|_| !self.right_stick_bound(bindings));
        frame.pads_connected = self.pad.connected;
        frame
    }

    /// Which actions the pad holds down now.
    fn pad_down(&self, bindings: &Bindings) -> [bool; ACTION_COUNT] {
        std::array::from_fn(|i| {
            bindings.of(Action::ALL[i]).iter().any(|b| match *b {
                Binding::Pad(button) => self.pad.is_down(button),
                Binding::Axis { axis, positive } => {
                    let v = self.pad.axis(axis);
                    if positive {
                        v > AXIS_DOWN_THRESHOLD
                    } else {
                        v < -AXIS_DOWN_THRESHOLD
                    }
                }
                Binding::Key(_) | Binding::Mouse(_) => false,
            })
        })
    }

    /// A player who bound the right stick to actions does not aim with it.
    fn right_stick_bound(&self, bindings: &Bindings) -> bool {
        use super::pad::PadAxis;
        Action::ALL.iter().any(|a| {
            bindings.of(*a).iter().any(|b| {
                matches!(
                    b,
                    Binding::Axis {
                        axis: PadAxis::RightX | PadAxis::RightY,
                        ..
                    }
                )
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::pad::{PadAxis, PadButton};
    use super::*;

    fn keys(down: &[KeyCode], pressed: &[KeyCode]) -> RawFrame {
        RawFrame {
            keys_down: down.to_vec(),
            keys_pressed: pressed.to_vec(),
            ..RawFrame::default()
        }
    }

    #[test]
    fn keys_press_and_hold_their_actions() {
        let mut mapper = ActionMapper::default();
        let b = Bindings::default();
        let f = mapper.map(&b, &keys(&[KeyCode::D, KeyCode::Space], &[KeyCode::Space]));
        assert!(f.down(Action::MoveRight) && !f.down(Action::MoveLeft));
        assert_eq!(f.axis(Action::MoveLeft, Action::MoveRight), 1);
        assert!(f.pressed(Action::Jump));
        assert_eq!(f.pressed_by(Action::Jump), Some(DeviceKind::Keyboard));
        // Space is also "menu select": both are reported; the game reads one per screen.
        assert!(f.pressed(Action::MenuConfirm));
        let f = mapper.map(&b, &keys(&[KeyCode::Space], &[]));
        assert!(f.down(Action::Jump) && !f.pressed(Action::Jump));
    }

    #[test]
    fn a_rebound_key_moves_the_action() {
        let mut mapper = ActionMapper::default();
        let mut b = Bindings::default();
        b.rebind(Action::Jump, 0, Binding::Key(KeyCode::C));
        let f = mapper.map(&b, &keys(&[KeyCode::Space], &[KeyCode::Space]));
        assert!(!f.pressed(Action::Jump));
        let f = mapper.map(&b, &keys(&[KeyCode::C], &[KeyCode::C]));
        assert!(f.pressed(Action::Jump));
    }

    #[test]
    fn a_recorded_gamepad_sequence_maps_to_actions() {
        let mut mapper = ActionMapper::default();
        let b = Bindings::default();
        let pad = |events: Vec<PadEvent>| RawFrame {
            pad_events: events,
            ..RawFrame::default()
        };
        // Plugged in, stick pushed left, trigger squeezed and let go within one frame.
        let f = mapper.map(
            &b,
            &pad(vec![
                PadEvent::Connected,
                PadEvent::Axis(PadAxis::LeftX, -0.8),
                PadEvent::Button(PadButton::RightTrigger, 0.9),
                PadEvent::Button(PadButton::RightTrigger, 0.0),
            ]),
        );
        assert_eq!(f.pads_connected, 1);
        assert!(f.pressed(Action::MoveLeft) && f.down(Action::MoveLeft));
        assert!(
            f.pressed(Action::Fire),
            "a tap within one frame still fires"
        );
        assert_eq!(f.pressed_by(Action::Fire), Some(DeviceKind::Gamepad));
        assert!(!f.down(Action::Fire));
        // Nothing new: the stick is still held, but it is no new press.
        let f = mapper.map(&b, &pad(vec![]));
        assert!(f.down(Action::MoveLeft) && !f.pressed(Action::MoveLeft));
        // A half-pressed trigger (0.3) is not a press; the right stick aims.
        let f = mapper.map(
            &b,
            &pad(vec![
                PadEvent::Button(PadButton::RightTrigger, 0.3),
                PadEvent::Axis(PadAxis::RightX, 0.7),
                PadEvent::Axis(PadAxis::RightY, 0.7),
            ]),
        );
        assert!(!f.pressed(Action::Fire));
        assert_eq!(f.aim_stick, Some(Vec2::new(0.7, 0.7)));
        // Unplugged with the stick held: it lets go.
        let f = mapper.map(&b, &pad(vec![PadEvent::Disconnected]));
        assert!(!f.down(Action::MoveLeft));
        assert_eq!(f.aim_stick, None);
        assert_eq!(f.pads_connected, 0);
    }

    #[test]
    fn mouse_buttons_fire_and_release() {
        let mut mapper = ActionMapper::default();
        let f = mapper.map(
            &Bindings::default(),
            &RawFrame {
                mouse_pressed: vec![MouseButton::Left, MouseButton::Right],
                ..RawFrame::default()
            },
        );
        assert_eq!(f.pressed_by(Action::Fire), Some(DeviceKind::Mouse));
        assert!(f.pressed(Action::Release));
    }
}
