//! Tether: a 2D grappling-rope platformer.
//!
//! `sim` is the pure, deterministic simulation; `app` is the macroquad front end; `cli` holds the
//! window-less commands (`check`, `replay`) that also serve the tests.

pub mod app;
pub mod cli;
pub mod sim;
