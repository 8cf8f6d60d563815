//! The level editor's editing model: pure data in, data out. The UI (`app`) turns mouse and keys
//! into [`Op`]s, applies them to a [`Document`] and draws what this model says (bounds, handles,
//! fields, issues). No window, sound, clock or file I/O here, so every operation is unit-tested.
//!
//! - `kinds`: the object kinds and [`ObjectRef`], the name of one object of a level.
//! - `object`: [`Object`], one object of any kind, generated from the simulation's table of
//!   kinds, and [`object::EditKind`], what the editor does with each kind.
//! - `geometry`: bounds, picking, box selection, handles and the moves of every kind (each
//!   kind's own in `geometry/per_kind.rs`).
//! - `handle`: the handles of a selected object.
//! - `ops`: the operations and `apply`, all-or-nothing.
//! - `history`: [`Document`], undo/redo with gestures, the saved state.
//! - `fields`: the property panel's rows and setting one field's RON text.
//! - `format`: `to_ron`, the text the editor saves, formatted as authors write levels.
//! - `link`: level links (`#level=<code>`) for the browser.

pub mod fields;
pub mod format;
pub mod geometry;
pub mod handle;
pub mod history;
pub mod kinds;
pub mod link;
pub mod object;
pub mod online_link;
pub mod ops;
mod text;

pub use fields::{fields, level_fields, FieldRow};
pub use format::{new_level_text, to_ron};
pub use geometry::{
    bounds, handles, level_handles, objects_in_rect, pick, pick_spawn, Handle, HandleId, HandleRole,
};
pub use history::Document;
pub use kinds::{all_objects, object_ref_from_issue, Kind, ObjectRef};
pub use link::{decode_link, encode_link, level_link, LinkError};
pub use object::Object;
pub use ops::{apply, Applied, Op, OpError};
