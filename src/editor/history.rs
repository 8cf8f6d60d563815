//! The document being edited: the level, undo and redo, gestures and the saved state.
//!
//! Undo keeps whole snapshots of the level before each step: level definitions are small (tens
//! of kilobytes), and a snapshot cannot get out of step with the operations the way inverse
//! operations can. At most `MAX_UNDO_STEPS` are kept, the oldest dropped first.

use std::collections::VecDeque;

use super::ops::{self, Applied, Op, OpError};
use crate::sim::level::LevelDef;

/// Most undo steps kept.
pub const MAX_UNDO_STEPS: usize = 500;

#[derive(Clone, Debug)]
pub struct Document {
    pub level: LevelDef,
    /// The level before each step, oldest first.
    undo: VecDeque<LevelDef>,
    /// The levels undone, the most recently undone last.
    redo: Vec<LevelDef>,
    /// The level as last saved (or loaded).
    saved: LevelDef,
    /// In a gesture: whether it has recorded its undo step yet.
    gesture: Option<bool>,
}

impl Document {
    /// A document for `level`, as loaded: nothing to undo, not dirty.
    pub fn new(level: LevelDef) -> Document {
        Document {
            saved: level.clone(),
            level,
            undo: VecDeque::new(),
            redo: Vec::new(),
            gesture: None,
        }
    }

    /// Applies `op`, recording the level before it as one undo step (one for a whole gesture).
    /// A failed op changes nothing, history included; so does one that changes nothing.
    pub fn apply(&mut self, op: &Op) -> Result<Applied, OpError> {
        let before = self.level.clone();
        let applied = ops::apply(&mut self.level, op)?;
        if self.level != before {
            match self.gesture {
                Some(true) => {}
                Some(false) => {
                    self.push_undo(before);
                    self.gesture = Some(true);
                }
                None => self.push_undo(before),
            }
            self.redo.clear();
        }
        Ok(applied)
    }

    fn push_undo(&mut self, before: LevelDef) {
        if self.undo.len() == MAX_UNDO_STEPS {
            self.undo.pop_front();
        }
        self.undo.push_back(before);
    }

    /// Starts a gesture (a mouse drag): every op until `end_gesture` is one undo step.
    pub fn begin_gesture(&mut self) {
        self.gesture = Some(false);
    }

    pub fn end_gesture(&mut self) {
        self.gesture = None;
    }

    pub fn in_gesture(&self) -> bool {
        self.gesture.is_some()
    }

    /// Goes back one step (ending any gesture). False when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        self.gesture = None;
        match self.undo.pop_back() {
            Some(previous) => {
                self.redo.push(std::mem::replace(&mut self.level, previous));
                true
            }
            None => false,
        }
    }

    /// Goes forward one undone step. False when there is nothing to redo.
    pub fn redo(&mut self) -> bool {
        self.gesture = None;
        match self.redo.pop() {
            Some(next) => {
                let current = std::mem::replace(&mut self.level, next);
                self.push_undo(current);
                true
            }
            None => false,
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// How many steps can be undone.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    /// Whether the level differs from the one last saved.
    pub fn dirty(&self) -> bool {
        self.level != self.saved
    }

    /// The level is now saved as it is.
    pub fn mark_saved(&mut self) {
        self.saved = self.level.clone();
    }

    /// Replaces the level by one read again from its file (hot reload), as one undoable step,
    /// and counts it as saved (the file holds it).
    pub fn reload(&mut self, level: LevelDef) {
        if level != self.level {
            let before = std::mem::replace(&mut self.level, level);
            self.push_undo(before);
            self.redo.clear();
        }
        self.gesture = None;
        self.mark_saved();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::geometry::HandleId;
    use crate::editor::kinds::{Kind, ObjectRef};
    use crate::sim::math::Vec2;

    fn doc() -> Document {
        Document::new(LevelDef::empty("t"))
    }

    fn create(d: &mut Document, x: f32) -> ObjectRef {
        d.apply(&Op::Create {
            kind: Kind::Ring,
            at: Vec2::new(x, 0.0),
        })
        .unwrap()
        .selection[0]
    }

    #[test]
    fn undo_and_redo_walk_the_steps() {
        let mut d = doc();
        assert!(!d.can_undo() && !d.can_redo() && !d.dirty());
        let l0 = d.level.clone();
        create(&mut d, 1.0);
        let l1 = d.level.clone();
        create(&mut d, 2.0);
        let l2 = d.level.clone();
        assert!(d.dirty());
        assert!(d.undo());
        assert_eq!(d.level, l1);
        assert!(d.undo());
        assert_eq!(d.level, l0);
        assert!(!d.undo());
        assert!(!d.dirty());
        assert!(d.redo() && d.redo());
        assert_eq!(d.level, l2);
        assert!(!d.redo());
    }

    /// A level with one object of every kind.
    fn rich() -> LevelDef {
        crate::sim::level::RonError::parse(
            "Level(name: \"t\", spawn: (0.0, 1.0), goal: (min: (20.0, 0.0), max: (23.0, 3.0)),
              solids: [(id: \"a\", shape: Box(center: (0.0, -1.0), half_extents: (8.0, 1.0)))],
              hazards: [Polygon(points: [(0.0, -5.0), (2.0, -5.0), (1.0, -4.0)])],
              checkpoints: [(min: (5.0, 0.0), max: (6.0, 2.0))],
              grapple_points: [(3.0, 6.0)],
              platforms: [(shape: Circle(center: (2.0, 3.0), radius: 0.5),
                           motion: Rotate(pivot: (2.0, 4.0), deg_per_s: 30.0))],
              switches: [(id: \"plate\", min: (-3.0, 0.0), max: (-1.0, 1.0))],
              winches: [(at: (6.0, 12.0), min_length_m: 2.0, max_length_m: 8.0, start_length_m: 4.0,
                         speed_m_per_s: 1.0, load: Platform(half_extents: (1.0, 0.2), mass_kg: 50.0),
                         drive: Switch(\"plate\"))],
              vines: [(at: (9.0, 10.0), length_m: 5.0)],
              wind: [(region: Box(center: (0.0, 8.0), half_extents: (4.0, 2.0)), direction_deg: 90.0,
                      speed_m_per_s: 3.0, gust: (extra_m_per_s: 2.0, period_s: 3.0))],
              fragile: [(anchor: Ring(at: (12.0, 8.0)), breaks_at_n: 3000.0)],
              cloths: [(top_left: (14.0, 9.0), columns: 4, rows: 5, spacing_m: 0.3, pins: At([(0, 0)]))],
              signs: [(at: (-5.0, 0.0), text: \"Hi\")],
              fragile_rope: (breaks_at_n: 9000.0))",
            "rich.ron",
        )
        .unwrap()
    }

    /// Every kind of op, on every kind it applies to: undo gives the level before, redo the
    /// level after.
    #[test]
    fn every_op_undoes_and_redoes_exactly() {
        let level = rich();
        assert_eq!(level.issues(), vec![]);
        let mut ops = vec![
            Op::SetLevel {
                field: "name".into(),
                value: "\"New\"".into(),
            },
            Op::SetLevel {
                field: "fragile_rope".into(),
                value: "".into(),
            },
            Op::MoveSpawn {
                to: Vec2::new(1.0, 2.0),
            },
        ];
        for kind in Kind::ALL {
            ops.push(Op::Create {
                kind,
                at: Vec2::new(3.0, 3.0),
            });
        }
        for r in crate::editor::kinds::all_objects(&level) {
            ops.push(Op::Move {
                objects: vec![r],
                delta: Vec2::new(0.5, -0.25),
            });
            ops.push(Op::Rotate {
                objects: vec![r],
                about: Vec2::new(1.0, 1.0),
                deg: 30.0,
            });
            ops.push(Op::Duplicate {
                objects: vec![r],
                offset: Vec2::new(1.0, 0.0),
            });
            ops.push(Op::Delete(vec![r]));
            for h in crate::editor::geometry::handles(&level, r) {
                ops.push(Op::SetHandle {
                    object: r,
                    handle: h.id,
                    to: h.pos + Vec2::new(0.3, -0.2),
                });
            }
            for row in crate::editor::fields::fields(&level, r) {
                if row.set {
                    ops.push(Op::SetField {
                        object: r,
                        field: row.name,
                        value: String::new(),
                    });
                }
            }
            let text = crate::editor::object::Object::get(&level, r)
                .unwrap()
                .to_ron();
            ops.push(Op::ReplaceObject {
                object: r,
                ron: text.replace("0.0", "0.5"),
            });
        }
        let mut changed = 0;
        for op in &ops {
            let mut d = Document::new(level.clone());
            if d.apply(op).is_err() {
                assert_eq!(d.level, level, "{op:?}");
                assert!(!d.can_undo());
                continue;
            }
            let after = d.level.clone();
            if after == level {
                continue;
            }
            changed += 1;
            assert!(d.undo(), "{op:?}");
            assert_eq!(d.level, level, "{op:?}");
            assert!(d.redo(), "{op:?}");
            assert_eq!(d.level, after, "{op:?}");
        }
        // Only deleting the goal, duplicating it and creating one fail; clearing a required
        // field fails; everything else changes the level.
        assert!(changed > ops.len() * 3 / 4, "{changed} of {}", ops.len());
    }

    #[test]
    fn a_new_op_clears_redo() {
        let mut d = doc();
        create(&mut d, 1.0);
        d.undo();
        assert!(d.can_redo());
        create(&mut d, 3.0);
        assert!(!d.can_redo());
    }

    #[test]
    fn a_failed_or_empty_op_records_nothing() {
        let mut d = doc();
        assert!(d
            .apply(&Op::Delete(vec![ObjectRef::new(Kind::Solid, 0)]))
            .is_err());
        d.apply(&Op::Move {
            objects: vec![],
            delta: Vec2::ONE,
        })
        .unwrap();
        assert!(!d.can_undo());
    }

    #[test]
    fn a_gesture_is_one_step() {
        let mut d = doc();
        let r = create(&mut d, 0.0);
        let before = d.level.clone();
        d.begin_gesture();
        for _ in 0..30 {
            d.apply(&Op::Move {
                objects: vec![r],
                delta: Vec2::new(0.1, 0.0),
            })
            .unwrap();
        }
        d.apply(&Op::SetHandle {
            object: r,
            handle: HandleId::Spawn,
            to: Vec2::new(4.0, 4.0),
        })
        .unwrap();
        d.end_gesture();
        let after = d.level.clone();
        assert_eq!(d.undo_len(), 2);
        d.undo();
        assert_eq!(d.level, before);
        d.redo();
        assert_eq!(d.level, after);
        // A gesture that changes nothing records nothing.
        d.begin_gesture();
        d.end_gesture();
        assert_eq!(d.undo_len(), 2);
    }

    #[test]
    fn history_is_capped_dropping_the_oldest() {
        let mut d = doc();
        for i in 1..=(MAX_UNDO_STEPS + 100) {
            d.apply(&Op::MoveSpawn {
                to: Vec2::new(i as f32, 0.0),
            })
            .unwrap();
        }
        assert_eq!(d.undo_len(), MAX_UNDO_STEPS);
        let mut undone = 0;
        while d.undo() {
            undone += 1;
        }
        assert_eq!(undone, MAX_UNDO_STEPS);
        // The 100 oldest steps are gone: undo stops at the level after the 100th.
        assert_eq!(d.level.spawn.0, 100.0);
    }

    #[test]
    fn saving_and_reloading() {
        let mut d = doc();
        create(&mut d, 0.0);
        d.mark_saved();
        assert!(!d.dirty());
        d.undo();
        assert!(d.dirty());
        d.redo();
        assert!(!d.dirty());
        let mut other = LevelDef::empty("t");
        other.name = "reloaded".into();
        d.reload(other.clone());
        assert_eq!(d.level, other);
        assert!(!d.dirty());
        d.undo();
        assert_eq!(d.level.grapple_points.len(), 1);
    }
}
