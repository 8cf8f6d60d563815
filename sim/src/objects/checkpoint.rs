//! Checkpoints: touching one makes its centre the respawn point. Each counts once: the respawn
//! moves to the checkpoint reached most recently for the first time, so walking back through
//! an earlier one never moves it back, whatever order the level lists them in.

use serde::{Deserialize, Serialize};

use super::{rect_spec, BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::ColliderKind;
use crate::math::Vec2;
use crate::shape::{RectDef, P};

/// Most checkpoints a level may hold.
pub const MAX_CHECKPOINTS: usize = 100;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub min: P,
    pub max: P,
}

impl CheckpointDef {
    pub fn rect(&self) -> RectDef {
        RectDef {
            min: self.min,
            max: self.max,
        }
    }

    /// Where the player respawns.
    pub fn center(&self) -> Vec2 {
        self.rect().center()
    }
}

/// Which checkpoints the player has reached, and the one they respawn at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckpointProgress {
    /// One flag per checkpoint of the level, in list order.
    pub reached: Vec<bool>,
    /// The respawn checkpoint: the one most recently reached for the first time.
    pub current: Option<usize>,
}

impl CheckpointProgress {
    pub fn new(count: usize) -> CheckpointProgress {
        CheckpointProgress {
            reached: vec![false; count],
            current: None,
        }
    }

    /// Touching checkpoint `index`: true when that is its first time (it becomes the respawn).
    pub fn touch(&mut self, index: usize) -> bool {
        match self.reached.get_mut(index) {
            Some(reached) if !*reached => {
                *reached = true;
                self.current = Some(index);
                true
            }
            _ => false,
        }
    }
}

impl ObjectDef for CheckpointDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.rect(object, &self.rect());
    }

    fn colliders(
        &self,
        _index: usize,
        _context: &BuildContext,
        out: &mut Vec<ColliderSpec>,
    ) -> Result<(), RejectedShape> {
        out.push(rect_spec(&self.rect(), ColliderKind::Checkpoint));
        Ok(())
    }
}
