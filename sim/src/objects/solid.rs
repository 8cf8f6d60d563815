//! Solids: the level's fixed walls and floors. Hookable ones (wood) hold the hook; the others
//! (steel) bounce it back.

use serde::{Deserialize, Serialize};

use super::{shape_spec, BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::{Body, ColliderKind};
use crate::shape::ShapeDef;

/// Most solids a level may hold.
pub const MAX_SOLIDS: usize = 2000;

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolidDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub shape: ShapeDef,
    /// Whether the hook sticks to this solid. A non-hookable solid bounces the hook back.
    #[serde(default = "yes")]
    pub hookable: bool,
}

impl ObjectDef for SolidDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.shape(object, &self.shape);
    }

    fn colliders(
        &self,
        _index: usize,
        _context: &BuildContext,
        out: &mut Vec<ColliderSpec>,
    ) -> Result<(), RejectedShape> {
        let kind = ColliderKind::Solid {
            hookable: self.hookable,
        };
        out.push(shape_spec(&self.shape, kind, Body::Fixed)?);
        Ok(())
    }
}
