//! The editor's model on the shipped levels: saving is lossless and stable, a saved level plays
//! exactly as the original (same state hashes, same solution outcome), level links carry every
//! level and refuse hostile codes, and editing then undoing gives the file's level back.

mod common;

use proptest::prelude::*;
use tether::editor::{decode_link, encode_link, to_ron, Document, Kind, LinkError, ObjectRef, Op};
use tether::sim::math::Vec2;
use tether::sim::{LevelDef, Replay, World};

fn shipped() -> Vec<(String, String, LevelDef)> {
    let levels: Vec<_> = common::level_files()
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = common::read(&path);
            let level = LevelDef::from_ron(&text, &name).expect("shipped level parses");
            (name, text, level)
        })
        .collect();
    assert!(levels.len() >= 20, "found {} levels", levels.len());
    levels
}

#[test]
fn every_shipped_level_saves_losslessly_and_stably() {
    for (name, _, level) in shipped() {
        let saved = to_ron(&level);
        assert!(
            saved.starts_with("// Written by the Tether editor.\nLevel(\n"),
            "{name}"
        );
        let again = LevelDef::from_ron(&saved, &name).unwrap_or_else(|e| panic!("{e}\n{saved}"));
        assert_eq!(again, level, "{name}");
        assert_eq!(to_ron(&again), saved, "{name}: to_ron is not idempotent");
        // One object per line: every object line of a list is one object.
        let object_lines = saved.lines().filter(|l| l.starts_with("        ")).count();
        let objects = tether::editor::all_objects(&level).len() - 1; // the goal is a field
        assert_eq!(object_lines, objects, "{name}");
    }
}

#[test]
fn a_saved_level_plays_exactly_as_the_original() {
    let tuning = common::tuning();
    for (name, _, level) in shipped() {
        let saved = LevelDef::from_ron(&to_ron(&level), &name).unwrap();
        let original = World::from_level(level, tuning.clone(), &name).unwrap();
        let resaved = World::from_level(saved, tuning.clone(), &name).unwrap();
        assert_eq!(original.state_hash(), resaved.state_hash(), "{name}");

        let solution = common::root().join("levels/solutions").join(&name);
        let replay = Replay::from_ron(&common::read(&solution), &name).unwrap();
        let (mut a, mut b) = (original, resaved);
        let outcome_a = replay.run(&mut a);
        let outcome_b = replay.run(&mut b);
        assert!(outcome_a.goal_reached, "{name}");
        assert_eq!(outcome_a, outcome_b, "{name}");
    }
}

#[test]
fn every_shipped_level_travels_in_a_link() {
    for (name, text, level) in shipped() {
        for source in [text, to_ron(&level)] {
            let code = encode_link(&source);
            assert!(code.len() < 8 * 1024, "{name}: {} bytes", code.len());
            assert_eq!(decode_link(&code).unwrap(), source, "{name}");
        }
    }
}

#[test]
fn damaged_links_are_errors_never_panics() {
    let (_, text, _) = shipped().remove(0);
    let code = encode_link(&text);
    let bytes = code.as_bytes();
    // Every truncation is refused: the deflate stream lacks its end.
    for cut in 0..bytes.len() {
        assert!(decode_link(&code[..cut]).is_err(), "cut at {cut} decoded");
    }
    // Bit flips in every position: an error or some text, never a panic or a hang.
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut flipped = bytes.to_vec();
            flipped[i] ^= 1 << bit;
            if let Ok(s) = std::str::from_utf8(&flipped) {
                let _ = decode_link(s);
            }
        }
    }
    // Garbage of every length up to 1000 characters.
    let alphabet: Vec<char> =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ #é\0"
            .chars()
            .collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut failures = 0;
    for len in 0..=1000 {
        let garbage: String = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                alphabet[(seed % alphabet.len() as u64) as usize]
            })
            .collect();
        if decode_link(&garbage).is_err() {
            failures += 1;
        }
    }
    assert!(failures > 990, "garbage decoded {} times", 1001 - failures);
}

#[test]
fn a_link_bomb_is_refused_by_its_limits() {
    // (Bounded work is structural, so it is asserted by the limits that stop it, not by a
    // timer: timed assertions are noise on shared machines.)
    // 100 MB of spaces: its code is over the length limit, refused before any inflating.
    let huge = " ".repeat(100_000_000);
    let code = encode_link(&huge);
    drop(huge);
    let err = decode_link(&code).unwrap_err();
    assert!(matches!(err, LinkError::CodeTooLong { .. }), "{err}");
    // 50 MB of spaces cut to the length limit: inflating stops at the level limit.
    let cut = &code[..tether::editor::link::MAX_CODE_BYTES];
    let err = decode_link(cut).unwrap_err();
    assert_eq!(err, LinkError::InflatesTooLarge, "{err}");
}

fn op_strategy() -> impl Strategy<Value = (u8, usize, f32, f32)> {
    (0u8..9, 0usize..40, -20.0f32..20.0, -20.0f32..20.0)
}

/// An op from random numbers, against the document's level (some refer to objects that do
/// not exist: those must fail and change nothing).
fn make_op(level: &LevelDef, (what, pick, x, y): (u8, usize, f32, f32)) -> Op {
    let objects = tether::editor::all_objects(level);
    let r = objects
        .get(pick % (objects.len() + 3))
        .copied()
        .unwrap_or(ObjectRef::new(Kind::Solid, 9999));
    let at = Vec2::new(x, y);
    match what {
        0 => Op::Create {
            kind: Kind::ALL[pick % Kind::ALL.len()],
            at,
        },
        1 => Op::Delete(vec![r]),
        2 => Op::Duplicate {
            objects: vec![r],
            offset: at,
        },
        3 => Op::Move {
            objects: vec![r],
            delta: at,
        },
        4 => Op::Rotate {
            objects: vec![r],
            about: at,
            deg: x * 9.0,
        },
        5 => {
            let handles = tether::editor::handles(level, r);
            match handles.get(pick % handles.len().max(1)) {
                Some(h) => Op::SetHandle {
                    object: r,
                    handle: h.id,
                    to: h.pos + at * 0.1,
                },
                None => Op::MoveSpawn { to: at },
            }
        }
        6 => {
            let rows = tether::editor::fields(level, r);
            match rows.get(pick % rows.len().max(1)) {
                Some(row) => Op::SetField {
                    object: r,
                    field: row.name.clone(),
                    value: if x > 0.0 {
                        row.value.clone()
                    } else {
                        format!("{x}")
                    },
                },
                None => Op::SetLevel {
                    field: "kill_y_m".into(),
                    value: format!("{x}"),
                },
            }
        }
        7 => Op::SetLevel {
            field: "view_height_m".into(),
            value: format!("{}", x.abs() + 2.0),
        },
        _ => Op::MoveSpawn { to: at },
    }
}

#[test]
fn random_edits_undone_give_the_level_back() {
    let levels = shipped();
    let mut runner = common::prop::runner(64, 0xed17);
    runner
        .run(
            &(
                0..levels.len(),
                proptest::collection::vec(op_strategy(), 1..24),
            ),
            |(which, raw_ops)| {
                let original = levels[which].2.clone();
                let mut doc = Document::new(original.clone());
                let mut states = vec![original.clone()];
                for raw in raw_ops {
                    let op = make_op(&doc.level, raw);
                    let before = doc.level.clone();
                    match doc.apply(&op) {
                        Ok(_) => {
                            if doc.level != before {
                                states.push(doc.level.clone());
                            }
                        }
                        Err(_) => prop_assert_eq!(&doc.level, &before, "{:?}", op),
                    }
                    // Whatever the edit, the editor can save it and read it back.
                    let saved = to_ron(&doc.level);
                    let back: LevelDef = tether::sim::RonError::parse(&saved, "saved.ron")
                        .map_err(|e| TestCaseError::fail(format!("{e}\n{saved}")))?;
                    prop_assert_eq!(&back, &doc.level);
                }
                let end = doc.level.clone();
                for expected in states.iter().rev().skip(1) {
                    prop_assert!(doc.undo());
                    prop_assert_eq!(&doc.level, expected);
                }
                prop_assert!(!doc.undo());
                prop_assert_eq!(&doc.level, &original);
                prop_assert!(!doc.dirty());
                while doc.redo() {}
                prop_assert_eq!(&doc.level, &end);
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn the_editor_model_stays_pure() {
    // Every file of the editor model, its folders' too (editor/geometry/).
    let mut paths = Vec::new();
    let mut folders = vec![common::root().join("src/editor")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                paths.push(path);
            }
        }
    }
    let mut files = 0;
    for path in paths {
        let text = common::read(&path);
        for word in [
            "macroquad",
            "rodio",
            "std::fs",
            "std::time",
            "std::io",
            "std::env",
            "Instant",
            "SystemTime",
            "crate::app",
        ] {
            assert!(!text.contains(word), "{}: uses {word}", path.display());
        }
        files += 1;
    }
    assert!(files >= 12, "found only {files} editor files");
}

#[test]
fn a_level_at_its_limits_saves_losslessly_and_a_drag_on_it_is_one_step() {
    use tether::sim::level::{ShapeDef, SolidDef, P};
    let mut level = LevelDef::empty("Big");
    for i in 0..tether::sim::level::MAX_SOLIDS {
        level.solids.push(SolidDef {
            id: Some(format!("s{i}")),
            shape: ShapeDef::Box {
                center: P(i as f32 * 0.5, (i % 7) as f32),
                half_extents: P(0.2, 0.1),
                rotation_deg: (i % 3) as f32 * 10.0,
            },
            hookable: i % 2 == 0,
        });
    }
    let text = to_ron(&level);
    assert_eq!(LevelDef::from_ron(&text, "big.ron").unwrap(), level);
    let mut doc = Document::new(level);
    doc.begin_gesture();
    for _ in 0..100 {
        doc.apply(&Op::Move {
            objects: vec![ObjectRef::new(Kind::Solid, 1999)],
            delta: Vec2::new(0.01, 0.0),
        })
        .unwrap();
    }
    doc.end_gesture();
    assert_eq!(doc.undo_len(), 1);
}
