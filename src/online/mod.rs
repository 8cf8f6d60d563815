//! Tether Online in the game (docs/online.md, "The game's side").
//!
//! - `http`: requests that never block a frame (`Http::start` → an id, `Http::poll` each
//!   frame), ureq on a worker thread on the desktop, web/net_plugin.js in the browser.
//! - `client`: the service's API as `Call`s polled each frame (`OnlineClient`), signed writes
//!   included, every answer parsed defensively into `OnlineError`s fit to show.
//! - `medals`: the medals answer, read leniently without a JSON value (it is only shown).
//! - `profile`: online on/off, the server, the name and the key, kept in the platform store.
//! - `old_ron`: the profile and queue as earlier versions kept them (RON), read once; the
//!   proof runs of "My levels", still kept as that RON.
//! - `queue`: finished runs waiting to be sent, kept in the store, sent with backoff.
//! - `service`: all of it as the game runs it (sessions as attempts start, runs as they end).
//! - `world_ghost`: a board's record or the run just ahead of the player's, downloaded to race.
//!
//! The wire types, signing and recovery codes live in the `tether-online-proto` crate
//! (`proto/`), where the server can share them later.

/// Whether Tether Online is in this build: the cargo feature `online`, on by default. Off (a
/// measurement build, `scripts/online_bytes.sh`), its entries are not offered and the service
/// never starts or loads anything, so no online code is reachable and the linker drops all of
/// it: the two browser modules differ by exactly what online costs the download.
pub const BUILT: bool = cfg!(feature = "online");

pub mod client;
pub mod http;
mod medals;
pub(crate) mod old_ron;
pub mod profile;
pub mod queue;
pub mod service;
pub mod world_ghost;

pub use client::{Call, LevelQuery, MedalsAnswer, OnlineClient, OnlineError};
pub use tether_online_proto::{wire, Identity};
