//! Grapple points (rings): the hook snaps to them from anywhere within the aim assist's cone, and
//! the rope is anchored at their centre. Written as bare points in `grapple_points`.

use rapier2d::geometry::SharedShape;
use serde::{Deserialize, Serialize};

use super::{BuildContext, ColliderSpec, Issues, LevelIds, ObjectDef, RejectedShape};
use crate::geometry::{Body, ColliderKind};
use crate::math::{Pose, Vec2};
use crate::shape::P;

/// Most grapple points a level may hold.
pub const MAX_GRAPPLE_POINTS: usize = 500;

/// A ring is its centre.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RingDef(pub P);

impl RingDef {
    pub fn v(self) -> Vec2 {
        self.0.v()
    }
}

impl ObjectDef for RingDef {
    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.point(object, self.0);
    }

    fn colliders(
        &self,
        _index: usize,
        context: &BuildContext,
        out: &mut Vec<ColliderSpec>,
    ) -> Result<(), RejectedShape> {
        out.push(ColliderSpec {
            shape: SharedShape::ball(context.grapple_point_radius_m),
            pose: Pose::from_translation(self.v()),
            kind: ColliderKind::GrapplePoint,
            body: Body::Fixed,
        });
        Ok(())
    }
}
