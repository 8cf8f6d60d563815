//! The level editor's screen: it turns the pointer and keys into the editing model's operations
//! (`crate::editor`, pure and unit-tested) and draws the level, the selection, the palette and
//! the property panel. Everything that changes the level goes through `Document::apply`, so
//! every change can be undone.
//!
//! Layout: the palette down the left edge, the property panel down the right, the level in
//! between with a status line at the top.
//!
//! The browser build does not carry the editor yet: with it the .wasm grew from 1.49 to 1.92 MB,
//! over its 1.5 MB budget (the editor serializes every object kind, and its UI is compiled at
//! the simulation's opt-level). There `EditorScreen` is a type with no values, so every path
//! into the editor is dead code the compiler drops.

pub mod input;
#[cfg(not(target_arch = "wasm32"))]
mod screen;
#[cfg(not(target_arch = "wasm32"))]
pub use screen::{new_level_text, EditorOutcome, EditorScreen};

#[cfg(target_arch = "wasm32")]
mod absent;
#[cfg(target_arch = "wasm32")]
pub use absent::{EditorOutcome, EditorScreen};
