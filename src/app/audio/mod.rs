//! The front end's sound interface. The simulation emits events; an `AudioOut` turns them into
//! sound. `Silent` is used when no device is available (and until a backend exists).

use crate::sim::{Event, World};

pub trait AudioOut {
    /// Called once per tick with that tick's events.
    fn on_events(&mut self, events: &[Event], world: &World);
    /// Called once per rendered frame, for continuous sounds (rope creak, wind).
    fn update(&mut self, world: Option<&World>, paused: bool);
    /// Toggles mute (the M key).
    fn toggle_mute(&mut self) {}
}

/// No sound at all.
pub struct Silent;

impl AudioOut for Silent {
    fn on_events(&mut self, _events: &[Event], _world: &World) {}
    fn update(&mut self, _world: Option<&World>, _paused: bool) {}
}
