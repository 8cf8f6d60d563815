//! Hazards: shapes that kill on touch (spikes). Written as bare shapes in the level's list.

use serde::{Deserialize, Serialize};

use super::{shape_spec, BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::{Body, ColliderKind};
use crate::shape::ShapeDef;

/// Most hazards a level may hold.
pub const MAX_HAZARDS: usize = 1000;

/// A hazard is its shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HazardDef(pub ShapeDef);

impl ObjectDef for HazardDef {
    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.shape(object, &self.0);
    }

    fn colliders(
        &self,
        _index: usize,
        _context: &BuildContext,
        out: &mut Vec<ColliderSpec>,
    ) -> Result<(), RejectedShape> {
        out.push(shape_spec(&self.0, ColliderKind::Hazard, Body::Fixed)?);
        Ok(())
    }
}
