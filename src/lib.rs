//! Tether: a 2D grappling-rope platformer.
//!
//! `sim` is the pure, deterministic simulation; `campaign` the pure rules around it (medals,
//! unlocks, records, the save format); `app` is the macroquad front end; `cli` holds the
//! window-less commands (`check`, `replay`) that also serve the tests; `editor` is the level
//! editor's pure editing model (operations, undo, formatting); `files` reads files from
//! outside within the limits of `sim::limits`.

pub mod app;
pub mod campaign;
pub mod cli;
pub mod editor;
pub mod files;
pub mod sim;
