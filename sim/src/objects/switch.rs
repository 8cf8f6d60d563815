//! Switches: a plate that is pressed while the player touches its rectangle. Other objects
//! (winches) refer to a switch by its id.

use serde::{Deserialize, Serialize};

use super::{rect_spec, BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::ColliderKind;
use crate::shape::{RectDef, P};

/// Most switches a level may hold.
pub const MAX_SWITCHES: usize = 100;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchDef {
    /// Required: a switch is only useful to the objects that name it.
    pub id: String,
    pub min: P,
    pub max: P,
}

impl SwitchDef {
    pub fn rect(&self) -> RectDef {
        RectDef {
            min: self.min,
            max: self.max,
        }
    }
}

impl ObjectDef for SwitchDef {
    fn id(&self) -> Option<&str> {
        Some(&self.id)
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
        out.push(rect_spec(&self.rect(), ColliderKind::Switch));
        Ok(())
    }
}
