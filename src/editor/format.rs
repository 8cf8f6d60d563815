//! The text the editor saves: a level formatted as authors write them by hand (see levels/*.ron)
//! — `Level(`, the fields in the struct's order, every list with one object per line, optional
//! fields written bare and fields at their default left out — so a saved file reads like one
//! written by hand and diffs well. `LevelDef::from_ron(&to_ron(level))` gives `level` back.

use super::fields::header;
use super::kinds::{all_objects, Kind};
use super::object::Object;
use super::text;
use crate::sim::level::{LevelDef, RectDef, ShapeDef, SolidDef, P};

/// The first line of every file the editor writes.
pub const HEADER_COMMENT: &str = "// Written by the Tether editor.";
const INDENT: &str = "    ";

/// The level as RON text.
pub fn to_ron(level: &LevelDef) -> String {
    let head = text::minimal(&header(level));
    let head_entries: Vec<(String, String)> = text::entries(&head)
        .into_iter()
        .filter(|e| e.depth == 1)
        .map(|e| {
            (
                head[e.name.clone()].to_string(),
                head[e.value.clone()].to_string(),
            )
        })
        .collect();
    let mut out = format!("{HEADER_COMMENT}\nLevel(\n");
    let field = |out: &mut String, name: &str, value: &str| {
        out.push_str(&format!("{INDENT}{name}: {value},\n"));
    };
    // The struct's order: the level's fields, its lists, then `fragile_rope`.
    for (name, value) in head_entries.iter().filter(|(n, _)| n != "fragile_rope") {
        field(&mut out, name, value);
    }
    let objects = all_objects(level);
    for kind in Kind::ALL.into_iter().filter(|k| !k.is_single()) {
        let items: Vec<String> = objects
            .iter()
            .filter(|r| r.kind == kind)
            .filter_map(|r| Object::get(level, *r))
            .map(|o| o.to_ron())
            .collect();
        if items.is_empty() {
            continue;
        }
        out.push_str(&format!("{INDENT}{}: [\n", kind.field()));
        for item in items {
            out.push_str(&format!("{INDENT}{INDENT}{item},\n"));
        }
        out.push_str(&format!("{INDENT}],\n"));
    }
    for (name, value) in head_entries.iter().filter(|(n, _)| n == "fragile_rope") {
        field(&mut out, name, value);
    }
    out.push_str(")\n");
    out
}

/// The text of a new level (`tether edit FILE` for a file that does not exist yet, a new level of "My levels"): a floor,
/// a spawn above it and a goal at its far end, ready to build on.
pub fn new_level_text() -> String {
    let level = LevelDef {
        spawn: P(-8.0, 1.0),
        goal: RectDef {
            min: P(8.0, 0.0),
            max: P(10.0, 3.0),
        },
        solids: vec![SolidDef {
            id: None,
            shape: ShapeDef::Box {
                center: P(0.0, -1.0),
                half_extents: P(12.0, 1.0),
                rotation_deg: 0.0,
            },
            hookable: true,
        }],
        ..LevelDef::empty("New level")
    };
    crate::editor::to_ron(&level)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "Level(name: \"Small\", spawn: (-6.0, 1.0), goal: (min: (20.0, 0.0), max: (23.0, 3.0)),
        kill_y_m: -12.0,
        solids: [(shape: Box(center: (-8.0, -2.0), half_extents: (8.0, 2.0))),
                 (id: \"wall\", shape: Box(center: (25.5, 6.0), half_extents: (0.5, 10.0), rotation_deg: 0.0), hookable: false)],
        hazards: [Box(center: (6.5, -9.0), half_extents: (7.0, 0.5))],
        grapple_points: [(6.5, 6.5)],
        winches: [(at: (16.0, 17.0), min_length_m: 4.0, max_length_m: 12.0, speed_m_per_s: 3.0,
                   load: Weight(radius_m: 0.6, mass_kg: 80.0), drive: Timer(wait_s: 1.0))],
        signs: [(at: (-11.5, 0.0), text: \"Hold {move_right} to run\")],
        fragile_rope: (breaks_at_n: 9000.0))";

    #[test]
    fn a_small_level_is_written_as_by_hand() {
        let level = LevelDef::from_ron(SMALL, "small.ron").unwrap();
        assert_eq!(
            to_ron(&level),
            r#"// Written by the Tether editor.
Level(
    name: "Small",
    spawn: (-6.0, 1.0),
    goal: (min: (20.0, 0.0), max: (23.0, 3.0)),
    kill_y_m: -12.0,
    solids: [
        (shape: Box(center: (-8.0, -2.0), half_extents: (8.0, 2.0))),
        (id: "wall", shape: Box(center: (25.5, 6.0), half_extents: (0.5, 10.0)), hookable: false),
    ],
    hazards: [
        Box(center: (6.5, -9.0), half_extents: (7.0, 0.5)),
    ],
    grapple_points: [
        (6.5, 6.5),
    ],
    winches: [
        (at: (16.0, 17.0), min_length_m: 4.0, max_length_m: 12.0, speed_m_per_s: 3.0, load: Weight(radius_m: 0.6, mass_kg: 80.0), drive: Timer(wait_s: 1.0)),
    ],
    signs: [
        (at: (-11.5, 0.0), text: "Hold {move_right} to run"),
    ],
    fragile_rope: (breaks_at_n: 9000.0),
)
"#
        );
    }

    #[test]
    fn saved_text_reads_back_the_same_and_is_stable() {
        let level = LevelDef::from_ron(SMALL, "small.ron").unwrap();
        let text = to_ron(&level);
        let again = LevelDef::from_ron(&text, "again.ron").unwrap();
        assert_eq!(again, level);
        assert_eq!(to_ron(&again), text);
    }

    #[test]
    fn an_empty_level_keeps_what_a_level_needs() {
        let level = LevelDef::empty("Empty");
        let text = to_ron(&level);
        assert_eq!(
            text,
            "// Written by the Tether editor.\nLevel(\n    name: \"Empty\",\n    spawn: (0.0, 0.0),\n    goal: (min: (5000.0, 5000.0), max: (5001.0, 5001.0)),\n)\n"
        );
        assert_eq!(LevelDef::from_ron(&text, "e").unwrap(), level);
    }

    #[test]
    fn awkward_text_survives() {
        let mut level = LevelDef::empty("Quote \" and \\ and é");
        level.signs.push(crate::sim::level::SignDef {
            id: None,
            at: crate::sim::level::P(1.0e-7, 123456.79),
            text: "a: (b), \"c\" // not a comment".into(),
        });
        let back: LevelDef = crate::sim::level::RonError::parse(&to_ron(&level), "t").unwrap();
        assert_eq!(back, level);
    }
}
