//! The editor's pointer: pressing picks a handle, an object or a palette button; dragging
//! moves or reshapes; releasing ends a drag or a box selection; the wheel and middle button
//! pan and zoom.

use super::*;

impl EditorScreen {
    pub(super) fn press(&mut self, input: &EditorInput, layout: &Layout, pointer: Vec2) {
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

    pub(super) fn drag_to(&mut self, pointer: Vec2) {
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

    pub(super) fn release(&mut self, input: &EditorInput, pointer: Vec2) {
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

    pub(super) fn pan_and_zoom(&mut self, input: &EditorInput, layout: &Layout) {
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
}
