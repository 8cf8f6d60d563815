//! Touch controls for phones and tablets: an on-screen stick (run, and reel when pushed up or
//! down) and buttons sized for thumbs (jump, let go, reel in/out, pause); a touch anywhere else
//! aims at that point and fires. The layout follows the screen's size and orientation.
//!
//! Each touch belongs to what it started on, for as long as it lasts, so a thumb sliding off the
//! stick keeps steering. Pure apart from `draw`: tests feed recorded touch sequences.

use super::action::Action;
use super::binding::DeviceKind;
use super::mapping::{ActionFrame, TouchPhase, TouchPoint};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TouchButton {
    Jump,
    Release,
    ReelIn,
    ReelOut,
    Pause,
}

impl TouchButton {
    pub const ALL: [TouchButton; 5] = [
        TouchButton::Jump,
        TouchButton::Release,
        TouchButton::ReelIn,
        TouchButton::ReelOut,
        TouchButton::Pause,
    ];

    /// What the button does in play, and in menus.
    fn actions(self) -> (Action, Option<Action>) {
        match self {
            TouchButton::Jump => (Action::Jump, Some(Action::MenuConfirm)),
            TouchButton::Release => (Action::Release, Some(Action::MenuBack)),
            TouchButton::ReelIn => (Action::Up, Some(Action::MenuUp)),
            TouchButton::ReelOut => (Action::Down, Some(Action::MenuDown)),
            TouchButton::Pause => (Action::Pause, None),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            TouchButton::Jump => "JUMP",
            TouchButton::Release => "LET GO",
            TouchButton::ReelIn => "REEL +",
            TouchButton::ReelOut => "REEL -",
            TouchButton::Pause => "II",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    pub x: f32,
    pub y: f32,
    pub r: f32,
}

impl Circle {
    fn contains(&self, x: f32, y: f32) -> bool {
        let (dx, dy) = (x - self.x, y - self.y);
        dx * dx + dy * dy <= self.r * self.r
    }
}

/// The smallest control radius in logical pixels: about 9 mm across on a phone (Apple's and
/// Google's 44–48 pt touch targets).
pub const MIN_CONTROL_RADIUS_PX: f32 = 24.0;
/// The stick's radius as a fraction of the screen's shorter side, and its largest size.
const STICK_FRACTION: f32 = 0.13;
const MAX_STICK_RADIUS_PX: f32 = 110.0;
/// A stick pushed past this fraction of its radius holds a direction.
const STICK_HOLD_FRACTION: f32 = 0.35;
/// Pushed up or down past this fraction, it reels.
const STICK_REEL_FRACTION: f32 = 0.6;

#[derive(Clone, Debug, PartialEq)]
pub struct TouchLayout {
    pub stick: Circle,
    pub buttons: Vec<(TouchButton, Circle)>,
}

impl TouchLayout {
    /// Thumb-sized controls in the bottom corners (stick left, buttons right), pause at the top
    /// centre; sizes follow the shorter side, so portrait and landscape both fit.
    pub fn for_screen(width: f32, height: f32) -> TouchLayout {
        let short = width.min(height).max(1.0);
        let r = (short * STICK_FRACTION).clamp(MIN_CONTROL_RADIUS_PX * 1.5, MAX_STICK_RADIUS_PX);
        let margin = r * 0.45;
        let stick = Circle {
            x: margin + r,
            y: height - margin - r,
            r,
        };
        let b = (r * 0.55).max(MIN_CONTROL_RADIUS_PX);
        let gap = b * 0.35;
        let jump = Circle {
            x: width - margin - b,
            y: height - margin - b,
            r: b,
        };
        let release = Circle {
            x: jump.x - 2.0 * b - gap,
            y: jump.y + b * 0.2,
            r: b,
        };
        let reel_in = Circle {
            x: jump.x,
            y: jump.y - 2.0 * b - gap,
            r: (b * 0.8).max(MIN_CONTROL_RADIUS_PX),
        };
        let reel_out = Circle {
            x: release.x,
            y: reel_in.y + b * 0.2,
            r: (b * 0.8).max(MIN_CONTROL_RADIUS_PX),
        };
        let pause = Circle {
            x: width * 0.5,
            y: margin + MIN_CONTROL_RADIUS_PX,
            r: MIN_CONTROL_RADIUS_PX,
        };
        TouchLayout {
            stick,
            buttons: vec![
                (TouchButton::Jump, jump),
                (TouchButton::Release, release),
                (TouchButton::ReelIn, reel_in),
                (TouchButton::ReelOut, reel_out),
                (TouchButton::Pause, pause),
            ],
        }
    }

    /// What a touch starting at (x, y) belongs to. The stick's zone is larger than its drawing
    /// (thumbs land roughly), the buttons' exact.
    fn control_at(&self, x: f32, y: f32) -> Control {
        for (button, circle) in &self.buttons {
            if circle.contains(x, y) {
                return Control::Button(*button);
            }
        }
        let zone = Circle {
            r: self.stick.r * 1.4,
            ..self.stick
        };
        if zone.contains(x, y) {
            Control::Stick
        } else {
            Control::World
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Control {
    Stick,
    Button(TouchButton),
    World,
}

#[derive(Clone, Debug, Default)]
pub struct TouchControls {
    /// Shown and read once the first touch arrives (desktop players never see them).
    pub active: bool,
    owners: Vec<(u64, Control)>,
    /// The stick's deflection (-1..1, y up).
    stick: (f32, f32),
    stick_dir: (i8, i8),
    /// The last point a world touch aimed at (logical pixels).
    pointer: Option<(f32, f32)>,
    layout: Option<TouchLayout>,
}

impl TouchControls {
    /// The point the player last touched in the world (logical pixels), to aim at.
    pub fn pointer(&self) -> Option<(f32, f32)> {
        self.pointer
    }

    pub fn layout(&self) -> Option<&TouchLayout> {
        self.layout.as_ref()
    }

    /// Adds this frame's touches to `frame` as actions.
    pub fn apply(
        &mut self,
        touches: &[TouchPoint],
        width: f32,
        height: f32,
        frame: &mut ActionFrame,
    ) {
        if !touches.is_empty() {
            self.active = true;
        }
        if !self.active {
            return;
        }
        let layout = TouchLayout::for_screen(width, height);
        for touch in touches {
            let known = self.owners.iter().position(|(id, _)| *id == touch.id);
            let control = match known {
                Some(i) => self.owners[i].1,
                None => {
                    // New (a tap that began and ended within one frame arrives as Ended).
                    let control = layout.control_at(touch.x, touch.y);
                    self.start(control, touch, frame);
                    if touch.phase != TouchPhase::Ended {
                        self.owners.push((touch.id, control));
                    }
                    control
                }
            };
            match (control, touch.phase) {
                (Control::Stick, TouchPhase::Ended) => self.stick = (0.0, 0.0),
                (Control::Stick, _) => {
                    let s = layout.stick;
                    let (dx, dy) = ((touch.x - s.x) / s.r, (s.y - touch.y) / s.r);
                    let len = (dx * dx + dy * dy).sqrt().max(1.0);
                    self.stick = (dx / len, dy / len);
                }
                (Control::Button(button), phase) if phase != TouchPhase::Ended => {
                    frame.hold(button.actions().0);
                }
                (Control::World, phase) if phase != TouchPhase::Ended => {
                    self.pointer = Some((touch.x, touch.y));
                }
                _ => {}
            }
            if touch.phase == TouchPhase::Ended {
                self.owners.retain(|(id, _)| *id != touch.id);
            }
        }
        // Touches the platform stopped reporting are over.
        self.owners
            .retain(|(id, _)| touches.iter().any(|t| t.id == *id));
        if !self.owners.iter().any(|(_, c)| *c == Control::Stick) {
            self.stick = (0.0, 0.0);
        }
        self.apply_stick(frame);
        self.layout = Some(layout);
    }

    /// A touch begins on `control`: buttons press, the world aims and fires.
    fn start(&mut self, control: Control, touch: &TouchPoint, frame: &mut ActionFrame) {
        match control {
            Control::Button(button) => {
                let (play, menu) = button.actions();
                frame.press(play, DeviceKind::Touch);
                if let Some(menu) = menu {
                    frame.press(menu, DeviceKind::Touch);
                }
            }
            Control::World => {
                self.pointer = Some((touch.x, touch.y));
                frame.press(Action::Fire, DeviceKind::Touch);
            }
            Control::Stick => {}
        }
    }

    fn apply_stick(&mut self, frame: &mut ActionFrame) {
        let (x, y) = self.stick;
        let dir_x = if x > STICK_HOLD_FRACTION {
            1
        } else if x < -STICK_HOLD_FRACTION {
            -1
        } else {
            0
        };
        let dir_y = if y > STICK_REEL_FRACTION {
            1
        } else if y < -STICK_REEL_FRACTION {
            -1
        } else {
            0
        };
        let hold = |frame: &mut ActionFrame, dir: i8, neg: Action, pos: Action| match dir {
            1 => frame.hold(pos),
            -1 => frame.hold(neg),
            _ => {}
        };
        hold(frame, dir_x, Action::MoveLeft, Action::MoveRight);
        hold(frame, dir_y, Action::Down, Action::Up);
        // Menus move one step per push.
        if dir_x != self.stick_dir.0 && dir_x != 0 {
            let action = if dir_x > 0 {
                Action::MenuRight
            } else {
                Action::MenuLeft
            };
            frame.press(action, DeviceKind::Touch);
        }
        if dir_y != self.stick_dir.1 && dir_y != 0 {
            let action = if dir_y > 0 {
                Action::MenuUp
            } else {
                Action::MenuDown
            };
            frame.press(action, DeviceKind::Touch);
        }
        self.stick_dir = (dir_x, dir_y);
    }

    /// Draws the controls over the game (screen space).
    pub fn draw(&self) {
        use crate::app::render::text::{draw_text, measure_text};
        use macroquad::prelude::*;
        let Some(layout) = &self.layout else { return };
        if !self.active {
            return;
        }
        set_default_camera();
        let ring = Color::new(1.0, 1.0, 1.0, 0.35);
        let fill = Color::new(1.0, 1.0, 1.0, 0.12);
        let s = layout.stick;
        draw_circle(s.x, s.y, s.r, fill);
        draw_circle_lines(s.x, s.y, s.r, 2.0, ring);
        let (kx, ky) = (
            s.x + self.stick.0 * s.r * 0.6,
            s.y - self.stick.1 * s.r * 0.6,
        );
        draw_circle(kx, ky, s.r * 0.4, Color::new(1.0, 1.0, 1.0, 0.3));
        for (button, c) in &layout.buttons {
            let held = self
                .owners
                .iter()
                .any(|(_, control)| *control == Control::Button(*button));
            draw_circle(c.x, c.y, c.r, if held { ring } else { fill });
            draw_circle_lines(c.x, c.y, c.r, 2.0, ring);
            let size = (c.r * 0.45).max(12.0);
            let dims = measure_text(button.label(), None, size as u16, 1.0);
            draw_text(
                button.label(),
                c.x - dims.width * 0.5,
                c.y + dims.offset_y * 0.5,
                size,
                Color::new(1.0, 1.0, 1.0, 0.8),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(id: u64, phase: TouchPhase, x: f32, y: f32) -> TouchPoint {
        TouchPoint { id, phase, x, y }
    }

    #[test]
    fn layouts_fit_landscape_and_portrait_without_overlaps() {
        for (w, h) in [
            (1280.0, 720.0),
            (720.0, 1280.0),
            (640.0, 360.0),
            (390.0, 844.0),
        ] {
            let layout = TouchLayout::for_screen(w, h);
            let mut all = vec![layout.stick];
            all.extend(layout.buttons.iter().map(|(_, c)| *c));
            for (i, a) in all.iter().enumerate() {
                assert!(a.r >= MIN_CONTROL_RADIUS_PX, "{w}x{h}: {a:?}");
                assert!(a.x - a.r >= 0.0 && a.x + a.r <= w, "{w}x{h}: {a:?}");
                assert!(a.y - a.r >= 0.0 && a.y + a.r <= h, "{w}x{h}: {a:?}");
                for b in &all[i + 1..] {
                    let d = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
                    assert!(d >= a.r + b.r, "{w}x{h}: {a:?} overlaps {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_recorded_touch_sequence_runs_jumps_and_fires() {
        let (w, h) = (1280.0, 720.0);
        let layout = TouchLayout::for_screen(w, h);
        let stick = layout.stick;
        let jump = layout.buttons[0].1;
        let mut controls = TouchControls::default();
        let step = |controls: &mut TouchControls, touches: &[TouchPoint]| {
            let mut f = ActionFrame::default();
            controls.apply(touches, w, h, &mut f);
            f
        };
        macro_rules! frame {
            ($touches:expr) => {
                step(&mut controls, $touches)
            };
        }
        // Thumb down on the stick, slides right: runs right.
        let f = frame!(&[touch(1, TouchPhase::Started, stick.x, stick.y)]);
        assert!(!f.down(Action::MoveRight) && !f.pressed(Action::Fire));
        let f = frame!(&[touch(1, TouchPhase::Moved, stick.x + stick.r, stick.y)]);
        assert!(f.down(Action::MoveRight));
        // The thumb slides far off the stick: still the stick's touch, still running.
        let f = frame!(&[touch(
            1,
            TouchPhase::Moved,
            stick.x + 3.0 * stick.r,
            stick.y - 10.0,
        )]);
        assert!(f.down(Action::MoveRight) && !f.pressed(Action::Fire));
        // Other thumb taps jump (start and end in one frame).
        let f = frame!(&[
            touch(1, TouchPhase::Stationary, stick.x + stick.r, stick.y),
            touch(2, TouchPhase::Ended, jump.x, jump.y),
        ]);
        assert!(f.pressed(Action::Jump));
        assert_eq!(f.pressed_by(Action::Jump), Some(DeviceKind::Touch));
        // A tap on the world fires at that point.
        let f = frame!(&[
            touch(1, TouchPhase::Stationary, stick.x + stick.r, stick.y),
            touch(3, TouchPhase::Started, 900.0, 200.0),
        ]);
        assert!(f.pressed(Action::Fire));
        assert_eq!(f.pressed_by(Action::Fire), Some(DeviceKind::Touch));
        assert_eq!(controls.pointer(), Some((900.0, 200.0)));
        // Everything lifted: nothing held.
        let f = frame!(&[
            touch(1, TouchPhase::Ended, stick.x + stick.r, stick.y),
            touch(3, TouchPhase::Ended, 900.0, 200.0),
        ]);
        assert!(!f.down(Action::MoveRight));
        let f = frame!(&[]);
        assert!(!f.down(Action::MoveRight) && !f.pressed(Action::Fire));
    }

    #[test]
    fn the_stick_pushed_up_reels_and_steps_menus_once() {
        let (w, h) = (720.0, 1280.0);
        let stick = TouchLayout::for_screen(w, h).stick;
        let mut controls = TouchControls::default();
        let mut f = ActionFrame::default();
        controls.apply(
            &[touch(1, TouchPhase::Started, stick.x, stick.y - stick.r)],
            w,
            h,
            &mut f,
        );
        assert!(f.down(Action::Up) && f.pressed(Action::MenuUp));
        let mut f = ActionFrame::default();
        controls.apply(
            &[touch(1, TouchPhase::Moved, stick.x, stick.y - stick.r)],
            w,
            h,
            &mut f,
        );
        assert!(f.down(Action::Up) && !f.pressed(Action::MenuUp));
    }
}
