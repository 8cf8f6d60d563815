//! The editor screen itself (desktop builds): input to operations, and drawing (`draw`).

mod draw;

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
    /// Whether this build has the editor (the browser game's does not: see the module).
    pub const AVAILABLE: bool = true;

    /// The editor on `level`, read from `file_label`. (`None` only in a build without the
    /// editor: the browser game's.)
    pub fn open(level: LevelDef, file_label: String, tuning: Arc<Tuning>) -> Option<EditorScreen> {
        Some(EditorScreen::new(level, file_label, tuning))
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

    fn handle_key(&mut self, key: EditorKey, pointer: Vec2, shift: bool) -> Option<EditorOutcome> {
        match key {
            EditorKey::Undo => {
                if self.doc.undo() {
                    self.after_history_step("undone");
                } else {
                    self.say("nothing to undo");
                }
            }
            EditorKey::Redo => {
                if self.doc.redo() {
                    self.after_history_step("redone");
                } else {
                    self.say("nothing to redo");
                }
            }
            EditorKey::Save => {
                return Some(EditorOutcome::Save {
                    text: crate::editor::to_ron(&self.doc.level),
                })
            }
            EditorKey::Delete | EditorKey::Backspace if !self.selection.is_empty() => {
                let objects = self.selection.clone();
                self.run(Op::Delete(objects));
            }
            EditorKey::Duplicate if !self.selection.is_empty() => {
                let step = self.grid_step_m() * DUPLICATE_OFFSET_STEPS;
                let objects = self.selection.clone();
                self.run(Op::Duplicate {
                    objects,
                    offset: Vec2::new(step, -step),
                });
            }
            EditorKey::ToggleGrid => {
                self.grid_on = !self.grid_on;
                let state = if self.grid_on { "on" } else { "off" };
                self.say(format!("grid snap {state}"));
            }
            EditorKey::GridSize => {
                self.grid_size = (self.grid_size + 1) % GRID_SIZES_M.len();
                self.grid_on = true;
                self.say(format!("grid {} m", GRID_SIZES_M[self.grid_size]));
            }
            EditorKey::RotateLeft | EditorKey::RotateRight if !self.selection.is_empty() => {
                let step = if shift {
                    ROTATE_FINE_STEP_DEG
                } else {
                    ROTATE_STEP_DEG
                };
                let deg = if key == EditorKey::RotateLeft {
                    step
                } else {
                    -step
                };
                let objects = self.selection.clone();
                let about = self.selection_center().unwrap_or(pointer);
                self.run(Op::Rotate {
                    objects,
                    about,
                    deg,
                });
            }
            EditorKey::ToggleReach => self.show_reach = !self.show_reach,
            EditorKey::ShareLink => self.share_link(),
            EditorKey::SelectAll => {
                self.selection = Kind::ALL
                    .iter()
                    .filter(|k| !k.is_single())
                    .flat_map(|&kind| {
                        (0..kind.count(&self.doc.level)).map(move |index| ObjectRef { kind, index })
                    })
                    .collect();
            }
            EditorKey::Escape if self.placing.is_some() || !self.selection.is_empty() => {
                self.placing = None;
                self.selection.clear();
            }
            EditorKey::Escape => {
                // Nothing typed is lost by one key: unsaved changes need a second Escape.
                if !self.is_dirty() || self.leave_asked {
                    return Some(EditorOutcome::Leave);
                }
                self.leave_asked = true;
                self.say("unsaved changes: Ctrl+S keeps them, Escape again leaves without them");
            }
            EditorKey::TestFromSpawn | EditorKey::Tab => {
                return Some(EditorOutcome::TestPlay {
                    level: Box::new(self.doc.level.clone()),
                    from_cursor: false,
                })
            }
            EditorKey::TestFromCursor => {
                let mut level = self.doc.level.clone();
                level.spawn = P(pointer.x, pointer.y);
                return Some(EditorOutcome::TestPlay {
                    level: Box::new(level),
                    from_cursor: true,
                });
            }
            _ => {}
        }
        None
    }

    /// Makes the level's link: in the browser it goes to the address bar (to copy and send),
    /// on the desktop to the terminal.
    fn share_link(&mut self) {
        let fragment = match crate::editor::level_link(&crate::editor::to_ron(&self.doc.level)) {
            Ok(fragment) => fragment,
            Err(problem) => {
                self.say(problem);
                return;
            }
        };
        #[cfg(target_arch = "wasm32")]
        {
            crate::app::web::show_level_link(&fragment);
            self.say(format!(
                "the level's link is in the address bar ({} characters)",
                fragment.len()
            ));
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            crate::app::log_line(&format!("level link: {fragment}"));
            self.say(format!(
                "level link printed to the terminal ({} characters): add it to the game's address",
                fragment.len()
            ));
        }
    }

    /// Undo or redo happened: the selection may name objects that are gone.
    fn after_history_step(&mut self, what: &str) {
        let level = &self.doc.level;
        self.selection
            .retain(|object| object.index < object.kind.count(level));
        self.field_error = None;
        self.changed();
        self.say(what);
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

    fn press(&mut self, input: &EditorInput, layout: &Layout, pointer: Vec2) {
        self.pressed_at_px = Some(input.pointer_px);
        if let Some(kind) = layout.palette_hit(input.pointer_px) {
            self.placing = Some(kind);
            self.say(format!("click in the level to place a {}", kind.label()));
            return;
        }
        if let Some(row) = layout.panel_hit(input.pointer_px) {
            self.start_field_edit(row);
            return;
        }
        if !layout.in_world(input.pointer_px) {
            return;
        }
        let snapped = self.snap(pointer);
        if let Some(kind) = self.placing.take() {
            self.run(Op::Create { kind, at: snapped });
            return;
        }
        let tolerance_m = self.pixels_to_m(PICK_RADIUS_PX);
        // A handle of a selected object first (they sit on top), then the spawn, then objects.
        if let Some((object, handle)) = self.handle_at(pointer, tolerance_m) {
            self.doc.begin_gesture();
            self.drag = Some(Drag::Handle {
                object,
                handle: handle.id,
            });
            return;
        }
        if pick_spawn(
            &self.doc.level,
            pointer,
            tolerance_m.max(SPAWN_PICK_RADIUS_M),
        ) {
            self.doc.begin_gesture();
            self.drag = Some(Drag::Spawn);
            return;
        }
        match pick(&self.doc.level, pointer, tolerance_m) {
            Some(object) => {
                if input.shift {
                    if let Some(i) = self.selection.iter().position(|o| *o == object) {
                        self.selection.remove(i);
                        return;
                    }
                    self.selection.push(object);
                } else if !self.selection.contains(&object) {
                    self.selection = vec![object];
                }
                self.field_error = None;
                self.doc.begin_gesture();
                self.drag = Some(Drag::Objects {
                    grabbed_at: snapped,
                    moved: Vec2::ZERO,
                });
            }
            None => {
                if !input.shift {
                    self.selection.clear();
                }
                self.drag = Some(Drag::Box { from: pointer });
            }
        }
    }

    fn drag_to(&mut self, pointer: Vec2) {
        let snapped = self.snap(pointer);
        match self.drag.clone() {
            Some(Drag::Objects { grabbed_at, moved }) => {
                let wanted = snapped - grabbed_at;
                let delta = wanted - moved;
                if delta != Vec2::ZERO {
                    let objects = self.selection.clone();
                    if self.run(Op::Move { objects, delta }) {
                        self.drag = Some(Drag::Objects {
                            grabbed_at,
                            moved: wanted,
                        });
                    }
                }
            }
            Some(Drag::Handle { object, handle }) => {
                let current = handles(&self.doc.level, object)
                    .into_iter()
                    .find(|h| h.id == handle)
                    .map(|h| h.pos);
                if current != Some(snapped) {
                    let selection = self.selection.clone();
                    self.run(Op::SetHandle {
                        object,
                        handle,
                        to: snapped,
                    });
                    // Dragging a handle keeps the object it belongs to selected.
                    if self.selection.is_empty() {
                        self.selection = selection;
                    }
                }
            }
            Some(Drag::Spawn) => {
                if self.doc.level.spawn.v() != snapped {
                    let selection = self.selection.clone();
                    self.run(Op::MoveSpawn { to: snapped });
                    self.selection = selection;
                }
            }
            Some(Drag::Box { .. }) | None => {}
        }
    }

    fn release(&mut self, input: &EditorInput, pointer: Vec2) {
        let was_click = self.pressed_at_px.is_some_and(|(x, y)| {
            (x - input.pointer_px.0).hypot(y - input.pointer_px.1) < CLICK_SLOP_PX
        });
        match self.drag.take() {
            Some(Drag::Objects { .. } | Drag::Handle { .. } | Drag::Spawn) => {
                self.doc.end_gesture()
            }
            Some(Drag::Box { from }) if !was_click => {
                let (min, max) = (from.min(pointer), from.max(pointer));
                for object in objects_in_rect(&self.doc.level, min, max) {
                    if !self.selection.contains(&object) {
                        self.selection.push(object);
                    }
                }
            }
            Some(Drag::Box { .. }) | None => {}
        }
        self.pressed_at_px = None;
    }

    fn pan_and_zoom(&mut self, input: &EditorInput, layout: &Layout) {
        if input.pan_down {
            if let Some((x0, y0)) = self.panning_from_px {
                let per_px = self.pixels_to_m(1.0);
                self.view.center.x -= (input.pointer_px.0 - x0) * per_px;
                self.view.center.y += (input.pointer_px.1 - y0) * per_px;
            }
            self.panning_from_px = Some(input.pointer_px);
        } else {
            self.panning_from_px = None;
        }
        if input.wheel_steps != 0.0 && layout.in_world(input.pointer_px) {
            // Zoom about the pointer: the point under it stays under it.
            let before = self.pointer_world(input.pointer_px);
            let factor = ZOOM_STEP.powf(-input.wheel_steps);
            self.view.view_height_m =
                (self.view.view_height_m * factor).clamp(MIN_VIEW_HEIGHT_M, MAX_VIEW_HEIGHT_M);
            let after = self.pointer_world(input.pointer_px);
            self.view.center += before - after;
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

/// Where the editor's parts are on screen this frame.
struct Layout {
    scale: f32,
    width: f32,
    height: f32,
}

impl Layout {
    fn now() -> Layout {
        Layout {
            scale: crate::app::render::hud::ui_scale(),
            width: screen_width(),
            height: screen_height(),
        }
    }

    fn palette_width(&self) -> f32 {
        PALETTE_WIDTH_PX * self.scale
    }

    fn panel_left(&self) -> f32 {
        self.width - PANEL_WIDTH_PX * self.scale
    }

    fn top(&self) -> f32 {
        STATUS_BAR_PX * self.scale
    }

    /// Where the middle of the level's area is across the screen, in normalized device units.
    pub fn center_offset_x_ndc(&self) -> f32 {
        let middle_px = self.palette_width() + self.world_width() * 0.5;
        middle_px / self.width.max(1.0) * 2.0 - 1.0
    }

    /// Width of the level's area between the palette and the panel, in pixels.
    fn world_width(&self) -> f32 {
        (self.panel_left() - self.palette_width()).max(0.0)
    }

    fn in_world(&self, (x, y): (f32, f32)) -> bool {
        x > self.palette_width() && x < self.panel_left() && y > self.top() && y < self.height
    }

    /// The kinds on the palette, top to bottom (the goal is moved, never made).
    fn palette_kinds() -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(|k| !k.is_single())
    }

    fn palette_button_top(&self, i: usize) -> f32 {
        self.top() + (8.0 + PALETTE_ROW_PX * i as f32) * self.scale
    }

    fn palette_hit(&self, (x, y): (f32, f32)) -> Option<Kind> {
        if x > self.palette_width() || y < self.top() {
            return None;
        }
        Layout::palette_kinds().enumerate().find_map(|(i, kind)| {
            let top = self.palette_button_top(i);
            (y >= top && y < top + PALETTE_ROW_PX * self.scale).then_some(kind)
        })
    }

    fn palette_button_center(&self, label: &str) -> Option<(f32, f32)> {
        Layout::palette_kinds()
            .position(|k| k.label() == label)
            .map(|i| {
                (
                    self.palette_width() * 0.5,
                    self.palette_button_top(i) + PALETTE_ROW_PX * self.scale * 0.5,
                )
            })
    }

    /// The top of the panel's first field row.
    fn panel_rows_top(&self) -> f32 {
        self.top() + 52.0 * self.scale
    }

    fn panel_hit(&self, (x, y): (f32, f32)) -> Option<usize> {
        if x < self.panel_left() || y < self.panel_rows_top() {
            return None;
        }
        Some(((y - self.panel_rows_top()) / (PANEL_ROW_PX * self.scale)) as usize)
    }

    fn panel_row_center(&self, row: usize) -> (f32, f32) {
        (
            self.panel_left() + 40.0 * self.scale,
            self.panel_rows_top() + (row as f32 + 0.5) * PANEL_ROW_PX * self.scale,
        )
    }
}

/// Plays an editor script: each step becomes a few frames of input.
struct ScriptPlayer {
    steps: Vec<ScriptStep>,
    step: usize,
    frame: u32,
    pointer_px: (f32, f32),
}

impl ScriptPlayer {
    fn new(steps: Vec<ScriptStep>) -> ScriptPlayer {
        ScriptPlayer {
            steps,
            step: 0,
            frame: 0,
            pointer_px: (0.0, 0.0),
        }
    }

    fn done(&self) -> bool {
        self.step >= self.steps.len()
    }

    /// The next frame's input; `locate` places a target on screen. A target that cannot be
    /// found (a palette name that does not exist) skips its step, logged.
    fn next_frame(
        &mut self,
        locate: impl Fn(&ScriptTarget) -> Option<(f32, f32)>,
    ) -> Option<EditorInput> {
        let step = self.steps.get(self.step)?.clone();
        let frame = self.frame;
        self.frame += 1;
        let mut input = EditorInput {
            pointer_px: self.pointer_px,
            ..EditorInput::default()
        };
        let mut finished = true;
        match &step {
            ScriptStep::Click(target) => {
                let Some(at) = locate(target) else {
                    crate::app::log_line(&format!("editor script: cannot find {target:?}"));
                    self.advance();
                    return Some(input);
                };
                input.pointer_px = at;
                match frame {
                    0 => {
                        input.primary_pressed = true;
                        input.primary_down = true;
                        finished = false;
                    }
                    1 => input.primary_released = true,
                    _ => {}
                }
            }
            ScriptStep::Drag(from, to) => {
                let (Some(a), Some(b)) = (locate(from), locate(to)) else {
                    crate::app::log_line(&format!("editor script: cannot find {step:?}"));
                    self.advance();
                    return Some(input);
                };
                let t = (frame as f32 / SCRIPT_DRAG_FRAMES as f32).min(1.0);
                input.pointer_px = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                input.primary_pressed = frame == 0;
                input.primary_down = frame <= SCRIPT_DRAG_FRAMES;
                input.primary_released = frame > SCRIPT_DRAG_FRAMES;
                finished = frame > SCRIPT_DRAG_FRAMES;
            }
            ScriptStep::Type(text) => input.chars = text.chars().collect(),
            ScriptStep::Key(key) => input.keys = vec![*key],
            ScriptStep::Wait(frames) => finished = frame + 1 >= *frames,
        }
        self.pointer_px = input.pointer_px;
        if finished {
            self.advance();
        }
        Some(input)
    }

    fn advance(&mut self) {
        self.step += 1;
        self.frame = 0;
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
