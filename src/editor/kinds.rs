//! The kinds of level objects the editor knows, and how it names one object of a level.
//!
//! An [`ObjectRef`] is a kind and an index into that kind's list, the same naming `check` uses
//! (`solids[3]`). Indices shift when objects are deleted, so a ref is only good for the level
//! it was made from; every operation checks it and reports a stale one as an error.

use crate::sim::level::LevelDef;

/// One kind of level object: the goal, or one list field of `LevelDef`. The simulation's
/// table of kinds (`object_kinds!`) defines it, with its label, RON field and count.
pub use crate::sim::objects::ObjectKind as Kind;

/// One object of a level: its kind and its index in that kind's list (0 for the goal).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ObjectRef {
    pub kind: Kind,
    pub index: usize,
}

impl ObjectRef {
    pub const GOAL: ObjectRef = ObjectRef {
        kind: Kind::Goal,
        index: 0,
    };

    pub fn new(kind: Kind, index: usize) -> ObjectRef {
        ObjectRef { kind, index }
    }

    /// Whether `level` has this object.
    pub fn exists(self, level: &LevelDef) -> bool {
        if self.kind.is_single() {
            self.index == 0
        } else {
            self.index < self.kind.count(level)
        }
    }

    /// The name `check` gives the object: `solids[3]`, or `goal`.
    pub fn name(self) -> String {
        if self.kind.is_single() {
            self.kind.field().to_string()
        } else {
            format!("{}[{}]", self.kind.field(), self.index)
        }
    }
}

/// Every object of `level`, kind by kind in file order.
pub fn all_objects(level: &LevelDef) -> Vec<ObjectRef> {
    Kind::ALL
        .into_iter()
        .flat_map(|kind| (0..kind.count(level)).map(move |i| ObjectRef::new(kind, i)))
        .collect()
}

/// The object a `LevelIssue` is about, from its name: `solids[3]`, `solids[3].shape`, `goal`,
/// `platforms[1].motion.points[2]` (the part after the object is ignored). `None` for names
/// that are not one object (`spawn`, `name`, `solids` for a too-long list).
pub fn object_ref_from_issue(object: &str) -> Option<ObjectRef> {
    let head = object.split('.').next().unwrap_or("");
    if let Some(open) = head.find('[') {
        let kind = Kind::from_field(&head[..open])?;
        let close = head[open..].find(']')? + open;
        if close + 1 != head.len() || kind.is_single() {
            return None;
        }
        let index = head[open + 1..close].parse::<usize>().ok()?;
        Some(ObjectRef::new(kind, index))
    } else {
        let kind = Kind::from_field(head)?;
        kind.is_single().then_some(ObjectRef::GOAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_name_every_list_of_the_level_once() {
        let level = LevelDef::empty("t");
        let fields: Vec<&str> = level.object_lists().iter().map(|l| l.field).collect();
        let ours: Vec<&str> = Kind::ALL.iter().map(|k| k.field()).collect();
        assert_eq!(fields, ours, "Kind::ALL follows LevelDef::object_lists");
        for kind in Kind::ALL {
            assert_eq!(Kind::from_field(kind.field()), Some(kind));
            assert!(!kind.label().is_empty());
        }
    }

    #[test]
    fn issue_names_map_to_their_object() {
        let r = |k, i| Some(ObjectRef::new(k, i));
        assert_eq!(object_ref_from_issue("solids[3]"), r(Kind::Solid, 3));
        assert_eq!(object_ref_from_issue("solids[3].shape"), r(Kind::Solid, 3));
        assert_eq!(object_ref_from_issue("goal"), Some(ObjectRef::GOAL));
        assert_eq!(
            object_ref_from_issue("platforms[1].motion.points[2]"),
            r(Kind::Platform, 1)
        );
        assert_eq!(object_ref_from_issue("grapple_points[0]"), r(Kind::Ring, 0));
        assert_eq!(
            object_ref_from_issue("cloths[2].pins[0]"),
            r(Kind::Cloth, 2)
        );
        for bad in [
            "spawn",
            "name",
            "solids",
            "solids[x]",
            "solids[1",
            "goal[0]",
            "",
            "nope[1]",
        ] {
            assert_eq!(object_ref_from_issue(bad), None, "{bad}");
        }
    }

    #[test]
    fn issues_of_a_real_level_name_objects_that_exist() {
        let mut level = LevelDef::empty("t");
        level.solids.push(crate::sim::level::SolidDef {
            id: None,
            shape: crate::sim::level::ShapeDef::Circle {
                center: crate::sim::level::P(0.0, 0.0),
                radius: -1.0,
            },
            hookable: true,
        });
        let issues = level.issues();
        assert!(!issues.is_empty());
        for issue in issues {
            let r = object_ref_from_issue(&issue.object).expect("names an object");
            assert!(r.exists(&level));
        }
    }
}
