//! Level objects, one module per kind: its RON definition, its validation, the colliders it owns
//! and, for the kinds that move, its per-tick step. Drawing lives in the matching file under
//! `src/app/render/objects/`.
//!
//! Adding a kind: a file here implementing [`ObjectDef`] and one line in the table of
//! [`object_kinds!`](crate::object_kinds). The table is the registration: `LevelDef`'s list
//! field, `LevelDef::object_lists` (validation, id checks, colliders), [`ObjectKind`] and the
//! editor's `Object` all follow from it. What else a kind needs (its drawing, its editing, its
//! place in the state hash), and what fails until it has it, is listed in
//! docs/architecture.md ("Adding an object kind").
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

/// The table of level-object kinds: the one place a kind is registered. It hands the table to
/// the macro `$then`, which generates what follows from it (here [`ObjectKind`]; in `level`
/// the `LevelDef` lists, `object_lists` and `empty`; in the game the editor's `Object`).
///
/// The goal is the one single object; every other kind is a list. Columns: the kind's name, its
/// RON field in `LevelDef`, what the editor and messages call one, its definition, the most a
/// level may hold, and serde's `skip_serializing_if` for the list (`"never"`: written even when
/// empty, as the first levels were; `"Vec::is_empty"`: left out). Rows are in the order of
/// `LevelDef`'s fields, the order files list them in. Doc comments become the field's.
#[macro_export]
macro_rules! object_kinds {
    ($then:ident) => {
        $then! {
            single: Goal goal "goal" $crate::shape::RectDef;
            lists:
            Solid      solids         "solid"      $crate::objects::solid::SolidDef,           $crate::objects::solid::MAX_SOLIDS,           "never";
            Hazard     hazards        "hazard"     $crate::objects::hazard::HazardDef,         $crate::objects::hazard::MAX_HAZARDS,         "never";
            /// Touching a checkpoint's rectangle makes it the respawn point (its centre).
            Checkpoint checkpoints    "checkpoint" $crate::objects::checkpoint::CheckpointDef, $crate::objects::checkpoint::MAX_CHECKPOINTS, "never";
            Ring       grapple_points "ring"       $crate::objects::ring::RingDef,             $crate::objects::ring::MAX_GRAPPLE_POINTS,    "never";
            Platform   platforms      "platform"   $crate::objects::platform::PlatformDef,     $crate::objects::platform::MAX_PLATFORMS,     "Vec::is_empty";
            Switch     switches       "switch"     $crate::objects::switch::SwitchDef,         $crate::objects::switch::MAX_SWITCHES,        "Vec::is_empty";
            Winch      winches        "winch"      $crate::objects::winch::WinchDef,           $crate::objects::winch::MAX_WINCHES,          "Vec::is_empty";
            Vine       vines          "vine"       $crate::objects::vine::VineDef,             $crate::objects::vine::MAX_VINES,             "Vec::is_empty";
            Wind       wind           "wind"       $crate::objects::wind::WindDef,             $crate::objects::wind::MAX_WIND_ZONES,        "Vec::is_empty";
            /// Fragile anchors: rotten beams and cracked rings that break under the rope's pull.
            Fragile    fragile        "fragile"    $crate::objects::fragile::FragileDef,       $crate::objects::fragile::MAX_FRAGILE,        "Vec::is_empty";
            /// Banners, flags and nets.
            Cloth      cloths         "cloth"      $crate::objects::cloth::ClothDef,           $crate::objects::cloth::MAX_CLOTHS,           "Vec::is_empty";
            /// Boards with text teaching the controls (drawing only).
            Sign       signs          "sign"       $crate::objects::sign::SignDef,             $crate::objects::sign::MAX_SIGNS,             "Vec::is_empty";
        }
    };
}

/// Generates [`ObjectKind`] from the table.
macro_rules! object_kind_enum {
    (
        single: $single:ident $single_field:ident $single_label:tt $single_def:ty;
        lists: $( $(#[$doc:meta])* $kind:ident $field:ident $label:tt $def:ty, $max:expr, $skip:tt; )*
    ) => {
        /// One kind of level object: the goal, or one list field of `LevelDef`.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum ObjectKind {
            $single,
            $($kind,)*
        }

        impl ObjectKind {
            /// How many kinds there are.
            pub const COUNT: usize = [$(stringify!($kind)),*].len() + 1;

            /// Every kind, in the order of `LevelDef`'s fields (the order files list them in).
            pub const ALL: [ObjectKind; ObjectKind::COUNT] =
                [ObjectKind::$single, $(ObjectKind::$kind,)*];

            /// What the editor's palette and messages call one object of this kind.
            pub fn label(self) -> &'static str {
                match self {
                    ObjectKind::$single => $single_label,
                    $(ObjectKind::$kind => $label,)*
                }
            }

            /// The RON field of `LevelDef` that holds this kind (the name `check` messages use).
            pub fn field(self) -> &'static str {
                match self {
                    ObjectKind::$single => stringify!($single_field),
                    $(ObjectKind::$kind => stringify!($field),)*
                }
            }

            /// Most objects of this kind a level may hold.
            pub fn max_count(self) -> usize {
                match self {
                    ObjectKind::$single => 1,
                    $(ObjectKind::$kind => $max,)*
                }
            }

            /// The goal is one object, not a list: it cannot be created, deleted or duplicated.
            pub fn is_single(self) -> bool {
                self == ObjectKind::$single
            }
        }
    };
}

object_kinds!(object_kind_enum);

impl ObjectKind {
    /// The kind whose RON field is `field`.
    pub fn from_field(field: &str) -> Option<ObjectKind> {
        ObjectKind::ALL.into_iter().find(|k| k.field() == field)
    }
}

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
    ) -> Result<(), RejectedShape> {
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

/// parry would not make a collider of an object's shape. The level's checks catch every other
/// problem first, so this is a polygon that passes them but that parry still finds degenerate.
/// Which object it is, the level's build adds (`Geometry::from_level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RejectedShape;

impl std::fmt::Display for RejectedShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("is not a valid convex polygon")
    }
}

impl std::error::Error for RejectedShape {}

/// The collider of a shape as an object's, or `RejectedShape` when parry will not make one.
pub fn shape_spec(
    shape: &ShapeDef,
    kind: ColliderKind,
    body: Body,
) -> Result<ColliderSpec, RejectedShape> {
    let (shape, pose) = shape_collider(shape).ok_or(RejectedShape)?;
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
