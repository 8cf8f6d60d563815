//! The goal: touching its rectangle finishes the level.

use super::{rect_spec, BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::ColliderKind;
use crate::shape::RectDef;

impl ObjectDef for RectDef {
    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.rect(object, self);
    }

    fn colliders(
        &self,
        _index: usize,
        _context: &BuildContext,
        out: &mut Vec<ColliderSpec>,
    ) -> Result<(), RejectedShape> {
        out.push(rect_spec(self, ColliderKind::Goal));
        Ok(())
    }
}
