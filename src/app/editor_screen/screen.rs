//! The editor screen itself (desktop builds): input to operations, and drawing (`draw`).

mod draw;
mod keys;
mod layout;
mod pointer;
mod script;

use layout::Layout;
use script::ScriptPlayer;

use std::sync::Arc;

use macroquad::camera::Camera2D;
use macroquad::window::{screen_height, screen_width};

use super::input::{EditorInput, EditorKey, ScriptStep, ScriptTarget, SCRIPT_DRAG_FRAMES};
use crate::app::level_problem::LevelProblem;
use crate::editor::{
    handles, objects_in_rect, pick, pick_spawn, Document, FieldRow, Handle, HandleId, Kind,
    ObjectRef, Op,
};
use crate::sim::level::{LevelDef, P};
use crate::sim::math::Vec2;
use crate::sim::{Tuning, World};

/// Grid sizes the grid key cycles through, in metres.
const GRID_SIZES_M: [f32; 4] = [0.25, 0.5, 1.0, 2.0];
/// The grid size a new editor starts with (an index into `GRID_SIZES_M`).
const DEFAULT_GRID: usize = 1;
/// Degrees one press of the rotate keys turns the selection (with shift: a fine step).
const ROTATE_STEP_DEG: f32 = 15.0;
const ROTATE_FINE_STEP_DEG: f32 = 1.0;
/// How far a duplicate lands from its original, in grid steps right and down.
const DUPLICATE_OFFSET_STEPS: f32 = 2.0;
/// Zoom: each wheel step shows this factor less (or more) world; limits in metres of height.
const ZOOM_STEP: f32 = 1.15;
const MIN_VIEW_HEIGHT_M: f32 = 4.0;
const MAX_VIEW_HEIGHT_M: f32 = 300.0;
/// Room around the spawn and the goal in the first view, in metres.
const VIEW_MARGIN_M: f32 = 6.0;
/// How close to the spawn point a click grabs it, in metres (about the player's size).
const SPAWN_PICK_RADIUS_M: f32 = 0.5;
/// How close to a handle or thin object a click must be, in screen pixels.
const PICK_RADIUS_PX: f32 = 9.0;
/// A press that moves less than this before release is a click, not a drag (pixels).
const CLICK_SLOP_PX: f32 = 4.0;
/// Seconds a status message stays.
const STATUS_SHOWN_S: f32 = 6.0;
/// Widths of the palette and the property panel at a UI scale of 1, in pixels.
pub const PALETTE_WIDTH_PX: f32 = 150.0;
pub const PANEL_WIDTH_PX: f32 = 380.0;
/// Height of one palette button and one panel row at a UI scale of 1, in pixels.
pub const PALETTE_ROW_PX: f32 = 34.0;
pub const PANEL_ROW_PX: f32 = 26.0;
/// The top status bar's height at a UI scale of 1.
pub const STATUS_BAR_PX: f32 = 34.0;

/// What the editor asks of the game after a frame.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorOutcome {
    Stay,
    /// Play this level (the document's, with the spawn moved to the cursor when asked).
    TestPlay {
        level: Box<LevelDef>,
        from_cursor: bool,
    },
    /// Write the level's text to its file (the game owns files: desktop or browser storage).
    Save {
        text: String,
    },
    /// Escape with nothing selected: back to where the editor was opened from ("My levels").
    Leave,
}

/// What a press of the primary button started.
#[derive(Clone, Debug, PartialEq)]
enum Drag {
    /// Moving the selection; `grabbed_at` is the snapped pointer when it started, `moved` the
    /// snapped offset applied so far.
    Objects { grabbed_at: Vec2, moved: Vec2 },
    /// Dragging one handle of one object.
    Handle { object: ObjectRef, handle: HandleId },
    /// Dragging the spawn point.
    Spawn,
    /// Dragging out a selection box from this world point.
    Box { from: Vec2 },
}

/// The property panel's text field: which field is being typed into, and its text.
#[derive(Clone, Debug, PartialEq)]
struct FieldEdit {
    field: String,
    text: String,
    /// The text is as it was shown: the first key typed replaces it all (as a text field
    /// whose text is selected on focus), the first Backspace clears it.
    fresh: bool,
    /// The field holds text (a name, an id): it is typed without its quotes.
    quoted: bool,
}

/// The view of the level: what the editor's camera shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EditorView {
    /// The world point at the middle of the level's area (between the palette and the panel).
    pub center: Vec2,
    pub view_height_m: f32,
}

impl EditorView {
    /// A first view of `level`: the spawn and the goal both in sight, at the game's zoom or
    /// further out.
    fn fitting(level: &LevelDef) -> EditorView {
        let (spawn, goal) = (level.spawn.v(), level.goal.center());
        let span = (goal - spawn).abs() + Vec2::splat(VIEW_MARGIN_M);
        let layout = Layout::now();
        let aspect = layout.world_width().max(1.0) / layout.height.max(1.0);
        let needed_m = span.y.max(span.x / aspect);
        EditorView {
            center: (spawn + goal) * 0.5,
            view_height_m: needed_m
                .max(level.view_height_m)
                .clamp(MIN_VIEW_HEIGHT_M, MAX_VIEW_HEIGHT_M),
        }
    }
}

pub struct EditorScreen {
    doc: Document,
    /// The file it edits (desktop), shown in the status bar.
    file_label: String,
    pub view: EditorView,
    selection: Vec<ObjectRef>,
    /// The palette's kind waiting for a click in the level to place it.
    placing: Option<Kind>,
    grid_on: bool,
    grid_size: usize,
    show_reach: bool,
    drag: Option<Drag>,
    /// Where the primary button went down (pixels), to tell a click from a drag.
    pressed_at_px: Option<(f32, f32)>,
    panning_from_px: Option<(f32, f32)>,
    field_edit: Option<FieldEdit>,
    /// The last operation's problem, shown in the panel.
    field_error: Option<String>,
    status: Option<(String, f32)>,
    /// The level as it now stands, built (when valid) for drawing and the reach overlay, and
    /// its problem (when not). Rebuilt when the document changes.
    preview: Option<World>,
    problem: Option<LevelProblem>,
    built_revision: Option<u64>,
    revision: u64,
    tuning: Arc<Tuning>,
    pointer_px: (f32, f32),
    script: Option<ScriptPlayer>,
    /// The level is kept nowhere yet (one opened from a link): leaving asks first.
    not_kept: bool,
    /// Escape was pressed once with unsaved changes: the next one leaves.
    leave_asked: bool,
}

impl EditorScreen {
    /// The editor on `level`, read from `file_label`.
    pub fn open(level: LevelDef, file_label: String, tuning: Arc<Tuning>) -> EditorScreen {
        EditorScreen::new(level, file_label, tuning)
    }

    fn new(level: LevelDef, file_label: String, tuning: Arc<Tuning>) -> EditorScreen {
        let view = EditorView::fitting(&level);
        EditorScreen {
            doc: Document::new(level),
            file_label,
            view,
            selection: Vec::new(),
            placing: None,
            grid_on: true,
            grid_size: DEFAULT_GRID,
            show_reach: false,
            drag: None,
            pressed_at_px: None,
            panning_from_px: None,
            field_edit: None,
            field_error: None,
            status: None,
            preview: None,
            problem: None,
            built_revision: None,
            revision: 0,
            tuning,
            pointer_px: (0.0, 0.0),
            script: None,
            not_kept: false,
            leave_asked: false,
        }
    }

    /// Whether the level has changes not saved to its file.
    pub fn is_dirty(&self) -> bool {
        self.doc.dirty() || self.not_kept
    }

    /// The level as it is now is what its file holds.
    pub fn mark_saved(&mut self) {
        self.doc.mark_saved();
        self.not_kept = false;
        self.leave_asked = false;
    }

    /// The level is kept nowhere yet (opened from a link): it counts as unsaved.
    pub fn mark_not_kept(&mut self) {
        self.not_kept = true;
    }

    /// The level's own name (its `name:` field).
    pub fn level_name(&self) -> String {
        self.doc.level.name.clone()
    }

    /// The file the editor edits, as shown.
    pub fn file_label(&self) -> &str {
        &self.file_label
    }

    /// Drives the editor with `steps` instead of the devices (the Xvfb test).
    pub fn set_script(&mut self, steps: Vec<ScriptStep>) {
        self.script = Some(ScriptPlayer::new(steps));
    }

    /// Whether a script drives the editor.
    pub fn has_script(&self) -> bool {
        self.script.is_some()
    }

    /// True once a script has run all its steps.
    pub fn script_done(&self) -> bool {
        self.script.as_ref().is_some_and(ScriptPlayer::done)
    }

    pub fn selection(&self) -> &[ObjectRef] {
        &self.selection
    }

    /// Shows `message` in the status bar for a while.
    pub fn say(&mut self, message: impl Into<String>) {
        let message = message.into();
        crate::app::log_line(&format!("editor: {message}"));
        self.status = Some((message, STATUS_SHOWN_S));
    }

    /// Replaces the level with a newer version of its file (someone saved it in a text
    /// editor), as one undoable step.
    pub fn replace_level(&mut self, level: LevelDef) {
        self.doc.reload(level);
        self.selection.clear();
        self.changed();
        self.say("reloaded the file from disk (undo brings back what was here)");
    }

    /// One frame: reads input (the devices, or the script), applies what it asks.
    pub fn update(&mut self, frame_s: f32) -> EditorOutcome {
        if let Some((_, left_s)) = &mut self.status {
            *left_s -= frame_s;
        }
        // Where a script's targets are is worked out only when a script drives the editor.
        let placing = self
            .script
            .is_some()
            .then(|| (self.camera(), self.panel_rows()));
        let input = match (&mut self.script, placing) {
            (Some(script), Some((camera, panel_rows))) => {
                let layout = Layout::now();
                let locate = |target: &ScriptTarget| match target {
                    ScriptTarget::World(x, y) => {
                        let p = camera.world_to_screen(macroquad::math::vec2(*x, *y));
                        Some((p.x, p.y))
                    }
                    ScriptTarget::Palette(name) => layout.palette_button_center(name),
                    ScriptTarget::Field(name) => panel_rows
                        .iter()
                        .position(|row| row.name == *name)
                        .map(|i| layout.panel_row_center(i)),
                };
                script.next_frame(locate).unwrap_or_default()
            }
            _ => EditorInput::from_devices(),
        };
        self.pointer_px = input.pointer_px;
        let outcome = self.handle(&input);
        self.rebuild_preview();
        outcome
    }

    /// The document changed: the preview is rebuilt before the next drawing.
    fn changed(&mut self) {
        self.revision += 1;
    }

    fn rebuild_preview(&mut self) {
        if self.built_revision == Some(self.revision) {
            return;
        }
        self.built_revision = Some(self.revision);
        let level = self.doc.level.clone();
        match World::from_level(level, Arc::clone(&self.tuning), &self.file_label) {
            Ok(world) => {
                self.preview = Some(world);
                self.problem = None;
            }
            Err(err) => {
                // The saved text is made only when there is a problem to place in it: `to_ron`
                // is too dear for every frame of a drag.
                let text = crate::editor::to_ron(&self.doc.level);
                self.preview = None;
                self.problem = Some(LevelProblem::of(&err, &text));
            }
        }
    }

    fn handle(&mut self, input: &EditorInput) -> EditorOutcome {
        if self.field_edit.is_some() {
            return self.handle_field_edit(input);
        }
        let layout = Layout::now();
        let pointer = self.pointer_world(input.pointer_px);
        // Panning and zooming work anywhere over the level.
        self.pan_and_zoom(input, &layout);
        for key in &input.keys {
            if let Some(outcome) = self.handle_key(*key, pointer, input.shift) {
                return outcome;
            }
        }
        if input.primary_pressed {
            self.press(input, &layout, pointer);
        }
        if input.primary_down {
            self.drag_to(pointer);
        }
        if input.primary_released {
            self.release(input, pointer);
        }
        EditorOutcome::Stay
    }

    /// Applies `op`, selecting what it says; a refused op is shown, the level unchanged.
    fn run(&mut self, op: Op) -> bool {
        match self.doc.apply(&op) {
            Ok(applied) => {
                if !applied.selection_unchanged {
                    self.selection = applied.selection;
                }
                self.field_error = None;
                self.changed();
                true
            }
            Err(err) => {
                let message = err.to_string();
                self.field_error = Some(message.clone());
                self.say(message);
                false
            }
        }
    }

    /// The property panel's rows: the selected object's fields, or the level's.
    pub fn panel_rows(&self) -> Vec<FieldRow> {
        match self.selection.as_slice() {
            [object] => crate::editor::fields(&self.doc.level, *object),
            [] => crate::editor::level_fields(&self.doc.level),
            _ => Vec::new(),
        }
    }

    fn start_field_edit(&mut self, row: usize) {
        let rows = self.panel_rows();
        let Some(row) = rows.get(row) else { return };
        let quoted = unquote(&row.value);
        self.field_edit = Some(FieldEdit {
            field: row.name.clone(),
            text: quoted.clone().unwrap_or_else(|| row.value.clone()),
            fresh: true,
            quoted: quoted.is_some(),
        });
        self.field_error = None;
    }

    fn handle_field_edit(&mut self, input: &EditorInput) -> EditorOutcome {
        let Some(edit) = &mut self.field_edit else {
            return EditorOutcome::Stay;
        };
        if !input.chars.is_empty() {
            if edit.fresh {
                edit.text.clear();
            }
            edit.fresh = false;
            edit.text.extend(input.chars.iter());
        }
        for key in &input.keys {
            match key {
                EditorKey::Backspace => {
                    if edit.fresh {
                        edit.text.clear();
                    }
                    edit.fresh = false;
                    edit.text.pop();
                }
                EditorKey::Escape => {
                    self.field_edit = None;
                    return EditorOutcome::Stay;
                }
                EditorKey::Enter => {
                    let FieldEdit {
                        field,
                        text,
                        quoted,
                        ..
                    } = self.field_edit.take().expect("editing");
                    let text = if quoted { quote(&text) } else { text };
                    let op_for = |value: String| match self.selection.as_slice() {
                        [object] => Op::SetField {
                            object: *object,
                            field: field.clone(),
                            value,
                        },
                        _ => Op::SetLevel {
                            field: field.clone(),
                            value,
                        },
                    };
                    // Text typed bare into an unset field (an id) is meant as text.
                    let bare_word = !text.is_empty()
                        && !text.starts_with(['"', '(', '[', '{'])
                        && text.parse::<f64>().is_err()
                        && !matches!(text.as_str(), "true" | "false" | "None");
                    let op = op_for(text.clone());
                    let retry = bare_word.then(|| op_for(quote(&text)));
                    let selection = self.selection.clone();
                    let applied = match self.doc.apply(&op) {
                        Err(_) if retry.as_ref().is_some_and(|r| self.doc.apply(r).is_ok()) => {
                            self.changed();
                            true
                        }
                        _ => self.run(op),
                    };
                    if applied {
                        self.selection = selection;
                    }
                    return EditorOutcome::Stay;
                }
                _ => {}
            }
        }
        // A click outside the field ends the edit without applying it.
        if input.primary_pressed && Layout::now().panel_hit(input.pointer_px).is_none() {
            self.field_edit = None;
        }
        EditorOutcome::Stay
    }

    /// A handle of a selected object (or the spawn's) near `pointer`.
    fn handle_at(&self, pointer: Vec2, tolerance_m: f32) -> Option<(ObjectRef, Handle)> {
        self.selection.iter().find_map(|object| {
            handles(&self.doc.level, *object)
                .into_iter()
                .find(|h| h.pos.distance(pointer) <= tolerance_m)
                .map(|h| (*object, h))
        })
    }

    /// The middle of the selection's bounds.
    fn selection_center(&self) -> Option<Vec2> {
        let boxes: Vec<(Vec2, Vec2)> = self
            .selection
            .iter()
            .filter_map(|o| crate::editor::bounds(&self.doc.level, *o))
            .collect();
        let min = boxes.iter().map(|b| b.0).reduce(Vec2::min)?;
        let max = boxes.iter().map(|b| b.1).reduce(Vec2::max)?;
        Some(self.snap((min + max) * 0.5))
    }

    fn grid_step_m(&self) -> f32 {
        GRID_SIZES_M[self.grid_size]
    }

    /// `point` on the grid, when the grid is on.
    fn snap(&self, point: Vec2) -> Vec2 {
        if !self.grid_on {
            return point;
        }
        let step = self.grid_step_m();
        (point / step).round() * step
    }

    /// The editor's camera: y up, `view.center` in the middle of the level's area.
    pub fn camera(&self) -> Camera2D {
        let layout = Layout::now();
        crate::app::camera::view_camera(
            self.view.center,
            self.view.view_height_m,
            layout.width / layout.height.max(1.0),
            layout.center_offset_x_ndc(),
        )
    }

    fn pointer_world(&self, px: (f32, f32)) -> Vec2 {
        let p = self
            .camera()
            .screen_to_world(macroquad::math::vec2(px.0, px.1));
        Vec2::new(p.x, p.y)
    }

    fn pixels_to_m(&self, px: f32) -> f32 {
        px * self.view.view_height_m / screen_height().max(1.0)
    }
}

/// The text inside a RON string value (`"lift"` → `lift`), or `None` when `value` is not one
/// plain string.
fn unquote(value: &str) -> Option<String> {
    let inner = value.strip_prefix('"')?.strip_suffix('"')?;
    // Only plain text is edited bare; a string with escapes is edited as RON.
    (!inner.contains(['"', '\\'])).then(|| inner.to_owned())
}

/// `text` as a RON string.
fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_fields_are_typed_without_quotes_and_quoted_back() {
        assert_eq!(unquote("\"lift\""), Some("lift".to_owned()));
        assert_eq!(unquote("(1.0, 2.0)"), None);
        assert_eq!(unquote("\"a\\\"b\""), None, "escapes are edited as RON");
        let typed = "say \"hi\" \\ bye";
        let ron_text = quote(typed);
        let back: String = ron::from_str(&ron_text).unwrap();
        assert_eq!(back, typed);
    }
}
