//! Level definitions as authors write them in RON, and their validation.
//!
//! Parsing and validation are pure: the caller reads the file and passes its text and name.
//! Syntax and type errors carry `FILE:LINE:COL`; semantic errors name the object they are about.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::geometry::{BuildContext, Geometry};
use super::limits;

pub use super::objects::checkpoint::{CheckpointDef, MAX_CHECKPOINTS};
pub use super::objects::checks::{MAX_COORD_M, MAX_POLYGON_POINTS};
pub use super::objects::cloth::{ClothDef, MAX_CLOTHS};
pub use super::objects::fragile::{BreakDef, FragileDef, MAX_FRAGILE};
pub use super::objects::hazard::{HazardDef, MAX_HAZARDS};
pub use super::objects::platform::{MotionDef, PlatformDef, MAX_PLATFORMS};
pub use super::objects::ring::{RingDef, MAX_GRAPPLE_POINTS};
pub use super::objects::sign::{SignDef, MAX_SIGNS};
pub use super::objects::solid::{SolidDef, MAX_SOLIDS};
pub use super::objects::switch::{SwitchDef, MAX_SWITCHES};
pub use super::objects::vine::{VineDef, MAX_VINES};
pub use super::objects::winch::{DriveDef, LoadDef, WinchDef, MAX_WINCHES};
pub use super::objects::wind::{WindDef, MAX_WIND_ZONES};
use super::objects::{
    check_objects, find_id_in, Issues, LevelIds, ObjectKind, ObjectList, RejectedShape,
};
pub use super::shape::{RectDef, ShapeDef, P};

/// A RON syntax or type error, located in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct RonError {
    pub file: String,
    /// 1-based; 0 when the error has no position (a whole-file problem).
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl RonError {
    /// Deserializes `text` as `T`, mapping ron's spanned error to `file:line:col`.
    /// Optional fields are written bare (`id: "lift"`, not `id: Some("lift")`): authors write
    /// these files by hand.
    pub fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, RonError> {
        ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .with_recursion_limit(limits::MAX_RON_NESTING)
            .from_str::<T>(text)
            .map_err(|err| RonError {
                file: file.to_string(),
                line: err.span.start.line,
                column: err.span.start.col,
                // The parser quotes the file's text (an unknown field's name, say): never let
                // it reach a terminal raw.
                message: limits::printable(&err.code.to_string()),
            })
    }
}

impl fmt::Display for RonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

/// One semantic problem, about one object of the level.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelIssue {
    /// Which object, e.g. `solids[3]` or `spawn`.
    pub object: String,
    pub message: String,
}

/// Why a level could not be used.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelError {
    Syntax(RonError),
    Semantic {
        file: String,
        issues: Vec<LevelIssue>,
    },
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelError::Syntax(err) => write!(f, "{err}"),
            LevelError::Semantic { file, issues } => {
                for (i, issue) in issues.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(
                        f,
                        "{file}: {}: {}",
                        issue.object,
                        limits::printable(&issue.message)
                    )?;
                }
                Ok(())
            }
        }
    }
}

/// Generates `LevelDef` (its object lists from the table of kinds, between the level's own
/// fields and `fragile_rope`, as files have always listed them), `object_lists`, `empty` and
/// `ObjectKind::count`.
macro_rules! level_def {
    (
        single: $single:ident $single_field:ident $single_label:tt $single_def:ty;
        lists: $( $(#[$doc:meta])* $kind:ident $field:ident $label:tt $def:ty, $max:expr, $skip:tt; )*
    ) => {
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, rename = "Level")]
        pub struct LevelDef {
            pub name: String,
            /// Where the centre of the player starts.
            pub spawn: P,
            pub $single_field: $single_def,
            /// Overrides the tuning's rope length for this level.
            #[serde(default)]
            pub max_rope_length_m: Option<f32>,
            /// Height of the view in metres; sets the camera zoom to suit the level's scale.
            #[serde(default = "default_view_height_m")]
            pub view_height_m: f32,
            /// Falling below this y kills the player (a floor under every pit).
            #[serde(default = "default_kill_y_m")]
            pub kill_y_m: f32,
            $(
                $(#[$doc])*
                #[serde(default, skip_serializing_if = $skip)]
                pub $field: Vec<$def>,
            )*
            /// The player's rope snaps when pulled past this (none: it never does).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub fragile_rope: Option<BreakDef>,
        }

        impl LevelDef {
            /// Every object list of the level, in the table's order: validation, ids and
            /// colliders find every kind through it.
            pub fn object_lists(&self) -> Vec<ObjectList<'_>> {
                vec![
                    ObjectList::single(stringify!($single_field), &self.$single_field),
                    $(ObjectList::of(stringify!($field), $max, &self.$field),)*
                ]
            }

            /// A level with nothing in it but a spawn at the origin and a goal far away: a base
            /// for levels built in code (`..LevelDef::empty("name")`).
            pub fn empty(name: &str) -> LevelDef {
                LevelDef {
                    name: name.to_string(),
                    spawn: P(0.0, 0.0),
                    $single_field: RectDef {
                        min: P(5000.0, 5000.0),
                        max: P(5001.0, 5001.0),
                    },
                    max_rope_length_m: None,
                    view_height_m: default_view_height_m(),
                    kill_y_m: default_kill_y_m(),
                    $($field: Vec::new(),)*
                    fragile_rope: None,
                }
            }
        }

        impl ObjectKind {
            /// How many objects of this kind `level` holds.
            pub fn count(self, level: &LevelDef) -> usize {
                match self {
                    ObjectKind::$single => 1,
                    $(ObjectKind::$kind => level.$field.len(),)*
                }
            }
        }
    };
}

crate::object_kinds!(level_def);

/// serde's `skip_serializing_if` for the lists the first levels always wrote out, even empty.
fn never<T>(_: &[T]) -> bool {
    false
}

fn default_view_height_m() -> f32 {
    18.0
}
fn default_kill_y_m() -> f32 {
    -50.0
}

impl LevelDef {
    /// Parses a level and checks everything that does not need geometry queries.
    /// (`World::from_level` adds the checks that do, such as the spawn inside a solid.)
    pub fn from_ron(text: &str, file: &str) -> Result<LevelDef, LevelError> {
        let level: LevelDef = RonError::parse(text, file).map_err(LevelError::Syntax)?;
        let issues = level.issues();
        if issues.is_empty() {
            Ok(level)
        } else {
            Err(LevelError::Semantic {
                file: file.to_string(),
                issues,
            })
        }
    }

    /// Every semantic problem of the level that can be seen without building its geometry.
    pub fn issues(&self) -> Vec<LevelIssue> {
        let mut issues = Issues::default();
        if let Err(problem) = limits::check_shown_text(&self.name, limits::MAX_LEVEL_NAME_CHARS) {
            issues.add("name", problem.to_string());
        }
        issues.point("spawn", self.spawn);
        if let Some(len) = self.max_rope_length_m {
            if !len.is_finite() || len <= 0.0 {
                issues.add(
                    "max_rope_length_m",
                    format!("must be a positive number, got {len}"),
                );
            }
        }
        if !self.view_height_m.is_finite() || !(2.0..=500.0).contains(&self.view_height_m) {
            issues.add(
                "view_height_m",
                format!("must be between 2 and 500, got {}", self.view_height_m),
            );
        }
        if !self.kill_y_m.is_finite() {
            issues.add("kill_y_m", "is not a finite number");
        }
        if let Some(rating) = &self.fragile_rope {
            rating.check("fragile_rope", &mut issues);
        }
        check_objects(&self.object_lists(), self, &mut issues);
        issues.0
    }
}

/// The world's geometry from a level: a constructor of `Geometry` that lives with the level, so
/// that the geometry knows nothing of level files.
/// An object of a level whose shape parry would not make a collider of, named as the level's
/// issues name it (`solids[3]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectShapeRejected {
    pub object: String,
    pub problem: RejectedShape,
}

impl std::fmt::Display for ObjectShapeRejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.object, self.problem)
    }
}

impl std::error::Error for ObjectShapeRejected {}

impl From<ObjectShapeRejected> for LevelIssue {
    fn from(rejected: ObjectShapeRejected) -> LevelIssue {
        LevelIssue {
            object: rejected.object,
            message: rejected.problem.to_string(),
        }
    }
}

impl Geometry {
    /// Builds the colliders of a validated level, every body at its starting pose (as written).
    /// Fails (with the object's name) only for a polygon parry cannot turn into a convex shape.
    pub fn from_level(
        level: &LevelDef,
        grapple_point_radius_m: f32,
    ) -> Result<Geometry, ObjectShapeRejected> {
        let context = BuildContext {
            grapple_point_radius_m,
        };
        let mut all = Vec::new();
        let mut specs = Vec::new();
        for list in level.object_lists() {
            for (index, object) in list.items.iter().enumerate() {
                specs.clear();
                object
                    .colliders(index, &context, &mut specs)
                    .map_err(|problem| ObjectShapeRejected {
                        object: list.object_name(index),
                        problem,
                    })?;
                all.extend(specs.drain(..).map(|spec| (index, spec)));
            }
        }
        Ok(Geometry::from_specs(all))
    }

    /// Geometry of hookable `solids` alone (spawn and goal far away): for rope tests and
    /// benches that need shapes to collide with but no level around them.
    pub fn of_solids(solids: Vec<ShapeDef>) -> Geometry {
        let level = LevelDef {
            spawn: P(-5000.0, 5000.0),
            goal: RectDef {
                min: P(5000.0, 5000.0),
                max: P(5001.0, 5001.0),
            },
            kill_y_m: -10_000.0,
            solids: solids
                .into_iter()
                .map(|shape| SolidDef {
                    id: None,
                    shape,
                    hookable: true,
                })
                .collect(),
            ..LevelDef::empty("solids")
        };
        Geometry::from_level(&level, 0.3).unwrap_or_else(|rejected| panic!("{rejected}"))
    }
}

impl LevelIds for LevelDef {
    fn find_id(&self, field: &str, id: &str) -> Option<usize> {
        find_id_in(&self.object_lists(), field, id)
    }
}

/// The campaign: worlds in play order, each an ordered list of level files (relative to the
/// levels folder). The browser cannot list a folder, so the order lives in `levels/index.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelIndex {
    pub worlds: Vec<IndexWorld>,
}

/// One world of the campaign: a name shown in the level select and its levels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexWorld {
    pub name: String,
    pub levels: Vec<IndexLevel>,
}

/// A level of the campaign: its file, and the ticks its solution replay takes to reach the goal
/// (the author time the medal times come from; `tests/campaign.rs` checks it against the
/// solution, so re-recording a solution means updating it). A level without an author time
/// has no medals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexLevel {
    pub file: String,
    #[serde(default)]
    pub author_ticks: Option<u64>,
}

impl LevelIndex {
    pub fn from_ron(text: &str, file: &str) -> Result<LevelIndex, RonError> {
        let index: LevelIndex = RonError::parse(text, file)?;
        let whole_file = |message: String| RonError {
            file: file.into(),
            line: 0,
            column: 0,
            message,
        };
        let count = index.level_count();
        if count == 0 {
            return Err(whole_file("lists no levels".into()));
        }
        if count > limits::MAX_INDEX_LEVELS {
            return Err(whole_file(format!(
                "lists {count} levels, at most {} allowed",
                limits::MAX_INDEX_LEVELS
            )));
        }
        for (w, world) in index.worlds.iter().enumerate() {
            limits::check_shown_text(&world.name, limits::MAX_LEVEL_NAME_CHARS)
                .map_err(|problem| whole_file(format!("worlds[{w}].name: {problem}")))?;
            if world.levels.is_empty() {
                return Err(whole_file(format!("worlds[{w}]: lists no levels")));
            }
            for (i, level) in world.levels.iter().enumerate() {
                let at = format!("worlds[{w}].levels[{i}]");
                limits::check_level_path(&level.file)
                    .map_err(|problem| whole_file(format!("{at}: {problem}")))?;
                if level
                    .author_ticks
                    .is_some_and(|t| t == 0 || t > limits::MAX_REPLAY_TICKS)
                {
                    return Err(whole_file(format!(
                        "{at}.author_ticks: must be from 1 to {}",
                        limits::MAX_REPLAY_TICKS
                    )));
                }
            }
        }
        Ok(index)
    }

    /// How many levels all worlds hold.
    pub fn level_count(&self) -> usize {
        self.worlds.iter().map(|w| w.levels.len()).sum()
    }

    /// Every level in play order, with the index of its world.
    pub fn levels(&self) -> impl Iterator<Item = (usize, &IndexLevel)> {
        self.worlds
            .iter()
            .enumerate()
            .flat_map(|(w, world)| world.levels.iter().map(move |level| (w, level)))
    }

    /// Every level file in play order.
    pub fn files(&self) -> Vec<String> {
        self.levels().map(|(_, level)| level.file.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's last column keeps files as they were: the four first lists are written even
    /// when empty, the later ones only when they hold something, all in the table's order.
    #[test]
    fn lists_are_written_as_files_always_had_them() {
        let mut level = LevelDef::empty("t");
        let written = ron::to_string(&level).unwrap();
        assert_eq!(
            written,
            "(name:\"t\",spawn:(0.0,0.0),goal:(min:(5000.0,5000.0),max:(5001.0,5001.0)),\
             max_rope_length_m:None,view_height_m:18.0,kill_y_m:-50.0,\
             solids:[],hazards:[],checkpoints:[],grapple_points:[])"
        );
        level.signs.push(SignDef {
            id: None,
            at: P(1.0, 2.0),
            text: "Hi".into(),
        });
        level.grapple_points.push(RingDef(P(3.0, 4.0)));
        let written = ron::to_string(&level).unwrap();
        assert!(
            written.ends_with("grapple_points:[(3.0,4.0)],signs:[(at:(1.0,2.0),text:\"Hi\")])"),
            "{written}"
        );
        assert_eq!(RonError::parse::<LevelDef>(&written, "t"), Ok(level));
    }
}
