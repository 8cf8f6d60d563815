//! Where the game keeps things, on each platform: the data and config folders (`paths`), files
//! written whole or not at all and the page's localStorage (`storage`), and the one `Store`
//! through which progress, ghosts, settings, bindings and "My levels" are kept (`store`).
//!
//! Beside `app` rather than inside it: the window-less commands (`cli`) take their data paths
//! from here too, and nothing here draws, plays or reads input, so it depends on neither.

pub mod paths;
pub mod storage;
pub mod store;
