//! The one input layer. Devices (keys, mouse buttons, gamepad buttons and sticks) trigger
//! actions through bindings; menus, volume and play read actions; play turns them into one
//! `InputFrame` per tick, so the simulation and replays do not know about devices.
//!
//! ```text
//! devices ─poll─> RawFrame ─ActionMapper + Bindings─> ActionFrame ─┬─> menus, volume, pause
//!                                                                  └─> PlayInput ─> InputFrame
//! ```
//! Everything after `devices` is pure and unit-tested; gamepads arrive as `PadEvent`s (gilrs on
//! the desktop, `web/gamepad_plugin.js` in the browser), so a recorded sequence replays exactly.
//! Touches go through `touch::TouchControls` (an on-screen stick and buttons; a touch on the
//! world aims and fires), which adds its actions to the frame's.

pub mod action;
pub mod aim;
pub mod binding;
pub mod devices;
pub mod latch;
pub mod mapping;
pub mod pad;
#[cfg(not(target_arch = "wasm32"))]
pub mod pad_gilrs;
#[cfg(target_arch = "wasm32")]
pub mod pad_web;
pub mod play;
pub mod touch;

pub use action::Action;
pub use binding::{Binding, BindingError, Bindings, DeviceKind};
pub use mapping::{ActionFrame, ActionMapper, RawFrame};
pub use play::PlayInput;
