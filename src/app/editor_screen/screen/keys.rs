//! The editor's keys: undo and redo, save, delete, duplicate, the grid, turning, links,
//! select all, Escape, and test play.

use super::*;

impl EditorScreen {
    pub(super) fn handle_key(
        &mut self,
        key: EditorKey,
        pointer: Vec2,
        shift: bool,
    ) -> Option<EditorOutcome> {
        match key {
            EditorKey::Undo => self.step_history(false),
            EditorKey::Redo => self.step_history(true),
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
                self.rotate_selection(key == EditorKey::RotateLeft, shift, pointer)
            }
            EditorKey::ToggleReach => self.show_reach = !self.show_reach,
            EditorKey::ShareLink => self.share_link(),
            EditorKey::SelectAll => self.select_all(),
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

    /// Undo (`forward` false) or redo one step of the history.
    pub(super) fn step_history(&mut self, forward: bool) {
        let (moved, done, nothing) = if forward {
            (self.doc.redo(), "redone", "nothing to redo")
        } else {
            (self.doc.undo(), "undone", "nothing to undo")
        };
        if moved {
            self.after_history_step(done);
        } else {
            self.say(nothing);
        }
    }

    /// Turns the selection a step (a fine step with Shift) about its centre, or the pointer.
    pub(super) fn rotate_selection(&mut self, left: bool, fine: bool, pointer: Vec2) {
        let step = if fine {
            ROTATE_FINE_STEP_DEG
        } else {
            ROTATE_STEP_DEG
        };
        let deg = if left { step } else { -step };
        let objects = self.selection.clone();
        let about = self.selection_center().unwrap_or(pointer);
        self.run(Op::Rotate {
            objects,
            about,
            deg,
        });
    }

    /// Every object but the goal.
    pub(super) fn select_all(&mut self) {
        self.selection = Kind::ALL
            .iter()
            .filter(|k| !k.is_single())
            .flat_map(|&kind| {
                (0..kind.count(&self.doc.level)).map(move |index| ObjectRef { kind, index })
            })
            .collect();
    }

    /// Makes the level's link: in the browser it goes to the address bar (to copy and send),
    /// on the desktop to the terminal.
    pub(super) fn share_link(&mut self) {
        let fragment = match crate::editor::level_link(&crate::editor::to_ron(&self.doc.level)) {
            Ok(fragment) => fragment,
            Err(problem) => {
                self.say(problem.to_string());
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
    pub(super) fn after_history_step(&mut self, what: &str) {
        let level = &self.doc.level;
        self.selection
            .retain(|object| object.index < object.kind.count(level));
        self.field_error = None;
        self.changed();
        self.say(what);
    }
}
