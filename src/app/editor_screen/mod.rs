//! The level editor's screen: it turns the pointer and keys into the editing model's operations
//! (`crate::editor`, pure and unit-tested) and draws the level, the selection, the palette and
//! the property panel. Everything that changes the level goes through `Document::apply`, so
//! every change can be undone.
//!
//! Layout: the palette down the left edge, the property panel down the right, the level in
//! between with a status line at the top.
//!
//! The browser has the editor in a module of its own: the game's page loads `tether.wasm`
//! (built without the editor: with it the file grew from 1.49 to 1.92 MB, over the game's
//! 1.5 MB budget), the editor's page (`?edit`) loads `tether-editor.wasm`, built with the
//! `web-editor` feature, only when an author opens it. In the game's build `EditorScreen` and
//! `MyLevelsScreen` are types with no values, so every path into them is dead code the
//! compiler drops, and the game's "My levels" item opens the editor's page instead.

pub mod input;
#[cfg(any(not(target_arch = "wasm32"), feature = "web-editor"))]
mod screen;
#[cfg(any(not(target_arch = "wasm32"), feature = "web-editor"))]
pub use crate::app::my_levels_screen::{MyLevelsOutcome, MyLevelsScreen};
#[cfg(any(not(target_arch = "wasm32"), feature = "web-editor"))]
pub use screen::{EditorOutcome, EditorScreen};

#[cfg(not(any(not(target_arch = "wasm32"), feature = "web-editor")))]
mod absent;
#[cfg(not(any(not(target_arch = "wasm32"), feature = "web-editor")))]
pub use absent::{EditorOutcome, EditorScreen, MyLevelsOutcome, MyLevelsScreen};
