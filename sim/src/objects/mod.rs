//! Level objects, one module per kind: its RON definition, its validation, the colliders it owns
//! and, for the kinds that move, its per-tick step. Drawing lives in the matching file under
//! `src/app/render/objects/`.
//!
//! Adding a kind: a file here implementing [`ObjectDef`], its list field in `LevelDef`, and one
//! line in `LevelDef::object_lists` (the registration), which is how validation, id checks and
//! collider building find it.
//!
//! Objects may carry an `id: "name"`, unique per level; objects refer to each other by id (a
//! winch to the switch that drives it), never by position in a list.

pub mod checkpoint;
pub mod checks;
pub mod cloth;
pub mod fragile;
pub mod goal;
pub mod hazard;
pub mod platform;
pub mod ring;
pub mod sign;
pub mod solid;
pub mod switch;
pub mod vine;
pub mod winch;
pub mod wind;

use rapier2d::geometry::SharedShape;

use super::geometry::{Body, ColliderKind};
pub use super::geometry::{BuildContext, ColliderSpec};
use super::math::{rotation_from_deg, Pose, Vec2};
use super::shape::{RectDef, ShapeDef};
pub use checks::Issues;

/// Longest object id, in characters.
pub const MAX_ID_CHARS: usize = 40;

/// What every kind of level object does at load.
pub trait ObjectDef {
    /// The object's id, if the author gave one.
    fn id(&self) -> Option<&str> {
        None
    }
    /// Adds every problem with this definition to `issues`, naming it `object` (e.g.
    /// `solids[3]`). `level` is there for references to other objects by id.
    fn check(&self, object: &str, level: &dyn LevelIds, issues: &mut Issues);
    /// Pushes the colliders this object owns (none by default: vines, wind, cloth). Fails with a
    /// message only for a shape parry rejects (validation catches everything else first).
    fn colliders(
        &self,
        _index: usize,
        _context: &BuildContext,
        _out: &mut Vec<ColliderSpec>,
    ) -> Result<(), String> {
        Ok(())
    }
}

/// What an object's check may ask of the rest of its level: which object an id names.
pub trait LevelIds {
    /// The index of the object of list `field` (e.g. `switches`) whose id is `id`.
    fn find_id(&self, field: &str, id: &str) -> Option<usize>;
}

/// A list of one kind's objects in a level, as the registration gives it.
pub struct ObjectList<'a> {
    /// The RON field, e.g. `solids`.
    pub field: &'static str,
    /// A single object (`goal`), named without an index.
    pub single: bool,
    /// Most objects of this kind a level may hold; keeps load and step time bounded.
    pub max_count: usize,
    pub items: Vec<&'a dyn ObjectDef>,
}

impl<'a> ObjectList<'a> {
    pub fn of<T: ObjectDef>(field: &'static str, max_count: usize, items: &'a [T]) -> Self {
        ObjectList {
            field,
            single: false,
            max_count,
            items: items.iter().map(|item| item as &dyn ObjectDef).collect(),
        }
    }

    pub fn single<T: ObjectDef>(field: &'static str, item: &'a T) -> Self {
        ObjectList {
            field,
            single: true,
            max_count: 1,
            items: vec![item as &dyn ObjectDef],
        }
    }

    /// How messages name the object at `index`: `solids[3]`, or `goal`.
    pub fn object_name(&self, index: usize) -> String {
        if self.single {
            self.field.to_string()
        } else {
            format!("{}[{index}]", self.field)
        }
    }
}

/// Validates every object of the level (its `lists`), the list sizes, and the ids (well formed,
/// unique).
pub fn check_objects(lists: &[ObjectList<'_>], level: &dyn LevelIds, issues: &mut Issues) {
    let mut ids: Vec<(&str, String)> = Vec::new();
    for list in lists {
        if list.items.len() > list.max_count {
            issues.add(
                list.field,
                format!(
                    "has {} objects, more than the limit of {}",
                    list.items.len(),
                    list.max_count
                ),
            );
            continue;
        }
        for (index, object) in list.items.iter().enumerate() {
            let name = list.object_name(index);
            object.check(&name, level, issues);
            if let Some(id) = object.id() {
                if check_id(&name, id, issues) {
                    ids.push((id, name));
                }
            }
        }
    }
    // Sorted by id (then by where it was written) so that every clash is reported once, in
    // the order the objects appear.
    ids.sort_unstable();
    for pair in ids.windows(2) {
        if pair[0].0 == pair[1].0 {
            issues.add(
                &pair[1].1,
                format!(
                    "has the id \"{}\", already used by {}",
                    pair[1].0, pair[0].1
                ),
            );
        }
    }
}

fn check_id(object: &str, id: &str, issues: &mut Issues) -> bool {
    let well_formed = !id.is_empty()
        && id.chars().count() <= MAX_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !well_formed {
        issues.add(
            object,
            format!(
                "id {id:?} must be 1 to {MAX_ID_CHARS} letters, digits, '_' or '-' (no spaces)"
            ),
        );
    }
    well_formed
}

/// Which object of the list `field` among a level's `lists` has the id `id`.
pub fn find_id_in(lists: &[ObjectList<'_>], field: &str, id: &str) -> Option<usize> {
    lists
        .iter()
        .find(|list| list.field == field)?
        .items
        .iter()
        .position(|object| object.id() == Some(id))
}

/// A collider shape and its pose for a shape definition (in world coordinates as written).
/// `None` for a polygon parry cannot make convex.
pub fn shape_collider(shape: &ShapeDef) -> Option<(SharedShape, Pose)> {
    Some(match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => (
            SharedShape::cuboid(half_extents.0, half_extents.1),
            Pose::from_parts(center.v(), rotation_from_deg(*rotation_deg)),
        ),
        ShapeDef::Circle { center, radius } => (
            SharedShape::ball(*radius),
            Pose::from_translation(center.v()),
        ),
        ShapeDef::Polygon { points } => {
            let mut points: Vec<Vec2> = points.iter().map(|p| p.v()).collect();
            // parry wants counter-clockwise outlines; authors may write either winding.
            let twice_area: f32 = (0..points.len())
                .map(|i| points[i].perp_dot(points[(i + 1) % points.len()]))
                .sum();
            if twice_area < 0.0 {
                points.reverse();
            }
            (SharedShape::convex_polyline(points)?, Pose::IDENTITY)
        }
    })
}

/// The collider of a shape as an object's, or the message naming why parry rejected it.
pub fn shape_spec(
    shape: &ShapeDef,
    kind: ColliderKind,
    body: Body,
) -> Result<ColliderSpec, String> {
    let (shape, pose) =
        shape_collider(shape).ok_or_else(|| "is not a valid convex polygon".to_string())?;
    Ok(ColliderSpec {
        shape,
        pose,
        kind,
        body,
    })
}

/// The collider of an axis-aligned rectangle.
pub fn rect_spec(rect: &RectDef, kind: ColliderKind) -> ColliderSpec {
    let half = (rect.max.v() - rect.min.v()) * 0.5;
    ColliderSpec {
        shape: SharedShape::cuboid(half.x, half.y),
        pose: Pose::from_translation(rect.center()),
        kind,
        body: Body::Fixed,
    }
}
