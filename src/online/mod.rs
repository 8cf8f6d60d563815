//! Tether Online in the game (docs/online.md, "The game's side").
//!
//! - `http`: requests that never block a frame (`Http::start` → an id, `Http::poll` each
//!   frame), ureq on a worker thread on the desktop, web/net_plugin.js in the browser.
//! - `client`: the service's API as `Call`s polled each frame (`OnlineClient`), signed writes
//!   included, every answer parsed defensively into `OnlineError`s fit to show.
//!
//! The wire types, signing and recovery codes live in the `tether-online-proto` crate
//! (`proto/`), where the server can share them later.

pub mod client;
pub mod http;

pub use client::{Call, LevelQuery, OnlineClient, OnlineError};
pub use tether_online_proto::{wire, Identity};
