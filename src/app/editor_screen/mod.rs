//! The level editor's screen: it turns the pointer and keys into the editing model's operations
//! (`crate::editor`, pure and unit-tested) and draws the level, the selection, the palette and
//! the property panel. Everything that changes the level goes through `Document::apply`, so
//! every change can be undone.
//!
//! Layout: the palette down the left edge, the property panel down the right, the level in
//! between with a status line at the top.

pub mod input;
mod screen;
pub use crate::app::my_levels_screen::{MyLevelsOutcome, MyLevelsScreen};
pub use screen::{EditorOutcome, EditorScreen};
