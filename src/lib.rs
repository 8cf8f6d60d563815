//! Tether: a 2D grappling-rope platformer.
//!
//! `sim` is the pure, deterministic simulation; `campaign` the pure rules around it (medals,
//! unlocks, records, the save format); `app` is the macroquad front end; `cli` holds the
//! window-less commands (`check`, `replay`) that also serve the tests; `editor` is the level
//! editor's pure editing model (operations, undo, formatting); `files` reads files from
//! outside within the limits of `sim::limits`; `platform` knows where things are kept on each
//! platform (data and config folders, atomic writes, the browser's storage, the one `Store`);
//! `online` is Tether Online's client (HTTP, the API, identity, the run queue).
//!
//! The simulation is its own crate (`sim/`, `tether_sim`), so the compiler keeps it free of
//! the window, audio and file I/O; it is re-exported here as `sim`.

pub mod app;
pub mod campaign;
pub mod cli;
pub mod editor;
pub mod files;
pub mod online;
pub mod platform;

pub use tether_sim as sim;

/// The game's version (from Cargo.toml) and the simulation's (`sim::SIM_VERSION`), as
/// `tether --version` prints it and the title screen shows it: a replay, a ghost or a bug report
/// names the physics it belongs to.
pub fn version_text() -> String {
    format!(
        "tether {} (simulation version {})",
        env!("CARGO_PKG_VERSION"),
        sim::SIM_VERSION
    )
}
