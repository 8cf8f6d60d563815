//! The one place that reads the devices: macroquad's keyboard and mouse, the platform's pads
//! and the window's focus, gathered into a `RawFrame` once per rendered frame.

use macroquad::input::{
    get_keys_down, get_keys_pressed, is_mouse_button_down, is_mouse_button_pressed, mouse_position,
    mouse_wheel, simulate_mouse_with_touch, touches, utils, MouseButton,
    TouchPhase as MqTouchPhase,
};

use super::mapping::{RawFrame, TouchPhase, TouchPoint};
use super::pad::PadSource;

const MOUSE_BUTTONS: [MouseButton; 3] =
    [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
/// The pointer must move this far (pixels) in a frame to take over aiming (a resting hand on a
/// mouse jitters).
const MOUSE_MOVE_PX: f32 = 2.0;

pub struct Devices {
    pads: Box<dyn PadSource>,
    last_mouse: Option<(f32, f32)>,
    /// macroquad's event subscription, for focus changes.
    subscriber: usize,
    focus: FocusWatch,
}

/// miniquad reports focus changes as "minimized"/"restored" (X11, Windows, macOS, browser).
#[derive(Default)]
struct FocusWatch {
    lost: bool,
}

impl macroquad::miniquad::EventHandler for FocusWatch {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn window_minimized_event(&mut self) {
        self.lost = true;
    }
}

impl Default for Devices {
    fn default() -> Devices {
        // Touches are read as touches (the touch controls); a tap on the jump button must not
        // also be a left click that fires the hook.
        simulate_mouse_with_touch(false);
        Devices {
            pads: pad_source(),
            last_mouse: None,
            subscriber: utils::register_input_subscriber(),
            focus: FocusWatch::default(),
        }
    }
}

impl Devices {
    /// What the devices reported since the last call.
    pub fn poll(&mut self) -> RawFrame {
        utils::repeat_all_miniquad_input(&mut self.focus, self.subscriber);
        let mouse = mouse_position();
        let mouse_moved = self
            .last_mouse
            .is_some_and(|(x, y)| (mouse.0 - x).abs() + (mouse.1 - y).abs() > MOUSE_MOVE_PX);
        self.last_mouse = Some(mouse);
        RawFrame {
            keys_down: get_keys_down().into_iter().collect(),
            keys_pressed: get_keys_pressed().into_iter().collect(),
            mouse_down: MOUSE_BUTTONS
                .into_iter()
                .filter(|b| is_mouse_button_down(*b))
                .collect(),
            mouse_pressed: MOUSE_BUTTONS
                .into_iter()
                .filter(|b| is_mouse_button_pressed(*b))
                .collect(),
            wheel_y: mouse_wheel().1,
            mouse_moved,
            pad_events: self.pads.poll(),
            touches: touch_points(),
        }
    }

    /// Whether the window lost focus since the last call.
    pub fn take_focus_lost(&mut self) -> bool {
        std::mem::take(&mut self.focus.lost)
    }
}

/// macroquad's touches in logical pixels (its positions are physical).
fn touch_points() -> Vec<TouchPoint> {
    let dpi = macroquad::miniquad::window::dpi_scale().max(0.1);
    touches()
        .into_iter()
        .map(|t| TouchPoint {
            id: t.id,
            phase: match t.phase {
                MqTouchPhase::Started => TouchPhase::Started,
                MqTouchPhase::Moved => TouchPhase::Moved,
                MqTouchPhase::Stationary => TouchPhase::Stationary,
                MqTouchPhase::Ended | MqTouchPhase::Cancelled => TouchPhase::Ended,
            },
            x: t.position.x / dpi,
            y: t.position.y / dpi,
        })
        .collect()
}

/// The platform's pad source: gilrs on the desktop, the JS plugin in the browser. Failing to
/// open one (no udev, sandbox) is logged once and play goes on without pads.
fn pad_source() -> Box<dyn PadSource> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        match super::pad_gilrs::GilrsPads::new() {
            Ok(pads) => Box::new(pads),
            Err(message) => {
                crate::app::log_line(&format!("gamepads: unavailable ({message})"));
                Box::new(super::pad::NoPads)
            }
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        Box::new(super::pad_web::WebPads::default())
    }
}
