//! Property tests of the file formats:
//! - random edits of every shipped level (objects of any kind deleted; numbers moved, scaled,
//!   turned negative, huge, NaN or infinite — which moves, resizes and rotates objects) either
//!   pass `check` or fail it with a message, never a panic; the ones that pass build a World
//!   that steps 1000 ticks of random input with everything that moves (player, ropes, vines,
//!   winch ropes, loose pieces, cloths) staying finite;
//! - replays, input settings and audio settings with random contents survive a round trip
//!   through their text unchanged.
//!
//! Fixed seed and few cases in CI; `./build.sh fuzz [CASES]` runs more (TETHER_FUZZ_CASES).

mod common;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use tether::app::audio::settings::AudioSettings;
use tether::app::settings::InputSettings;
use tether::sim::{Assists, InputFrame, LevelDef, LevelIndex, Replay, World};

fn runner(ci_cases: u32) -> TestRunner {
    common::prop::runner(ci_cases, 0xf11e5)
}

fn shipped_levels() -> Vec<(String, String)> {
    let root = common::root();
    let index = LevelIndex::from_ron(
        &common::read(&root.join("levels/index.ron")),
        "levels/index.ron",
    )
    .unwrap();
    index
        .files()
        .iter()
        .map(|name| (name.clone(), common::read(&root.join("levels").join(name))))
        .collect()
}

/// A number written in place of one in the file.
#[derive(Clone, Debug)]
enum NumberEdit {
    Scale(f32),
    Shift(f32),
    Special(&'static str),
}

fn number_edit() -> impl Strategy<Value = NumberEdit> {
    prop_oneof![
        4 => (-3.0f32..5.0).prop_map(NumberEdit::Scale),
        4 => (-60.0f32..60.0).prop_map(NumberEdit::Shift),
        1 => prop::sample::select(vec!["NaN", "inf", "-inf", "1e30", "-1e30", "0.0", "-0.0", "1e-30"])
            .prop_map(NumberEdit::Special),
    ]
}

/// Byte ranges of the number literals in `text` (outside strings and comments).
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            in_string = c != b'"';
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
            i += 1;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_digit()
            || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_digit()
                    || matches!(bytes[i], b'.' | b'e' | b'E' | b'-' | b'+'))
            {
                i += 1;
            }
            let is_word_part =
                start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
            if !is_word_part {
                out.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

fn apply(text: &str, edits: &[(usize, NumberEdit)]) -> String {
    let spots = numbers(text);
    if spots.is_empty() {
        return text.to_string();
    }
    let mut replaced: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|(pick, edit)| {
            let (start, end) = spots[pick % spots.len()];
            let old: f32 = text[start..end].parse().unwrap_or(0.0);
            let new = match edit {
                NumberEdit::Scale(k) => format!("{:?}", old * k),
                NumberEdit::Shift(d) => format!("{:?}", old + d),
                NumberEdit::Special(s) => s.to_string(),
            };
            (start, end, new)
        })
        .collect();
    replaced.sort_by_key(|r| std::cmp::Reverse(r.0));
    replaced.dedup_by_key(|r| r.0);
    let mut out = text.to_string();
    for (start, end, new) in replaced {
        // An integer field (a count) given a float is a clean parse error: fine either way.
        out.replace_range(start..end, &new);
    }
    out
}

/// The lists `delete_object` deletes from, in its order, as named in a level file.
const DELETABLE_LISTS: [&str; 12] = [
    "solids",
    "hazards",
    "checkpoints",
    "grapple_points",
    "platforms",
    "switches",
    "winches",
    "vines",
    "fragile",
    "cloths",
    "wind",
    "signs",
];

/// How many objects each of `DELETABLE_LISTS` holds.
fn list_lens(level: &LevelDef) -> [usize; DELETABLE_LISTS.len()] {
    [
        level.solids.len(),
        level.hazards.len(),
        level.checkpoints.len(),
        level.grapple_points.len(),
        level.platforms.len(),
        level.switches.len(),
        level.winches.len(),
        level.vines.len(),
        level.fragile.len(),
        level.cloths.len(),
        level.wind.len(),
        level.signs.len(),
    ]
}

/// Removes object `pick` (counted over every list) from the level; returns the index in
/// `DELETABLE_LISTS` of the list it was taken from, if the level had any object.
fn delete_object(level: &mut LevelDef, pick: usize) -> Option<usize> {
    let lens = list_lens(level);
    let total: usize = lens.iter().sum();
    if total == 0 {
        return None;
    }
    let mut k = pick % total;
    for (list, len) in lens.iter().enumerate() {
        if k < *len {
            match list {
                0 => drop(level.solids.remove(k)),
                1 => drop(level.hazards.remove(k)),
                2 => drop(level.checkpoints.remove(k)),
                3 => drop(level.grapple_points.remove(k)),
                4 => drop(level.platforms.remove(k)),
                5 => drop(level.switches.remove(k)),
                6 => drop(level.winches.remove(k)),
                7 => drop(level.vines.remove(k)),
                8 => drop(level.fragile.remove(k)),
                9 => drop(level.cloths.remove(k)),
                10 => drop(level.wind.remove(k)),
                _ => drop(level.signs.remove(k)),
            }
            return Some(list);
        }
        k -= len;
    }
    None
}

fn random_inputs() -> impl Strategy<Value = Vec<(u16, InputFrame)>> {
    prop::collection::vec(
        (
            1u16..120,
            -1i8..=1,
            -1i8..=1,
            any::<bool>(),
            prop::bool::weighted(0.2),
            (-20.0f32..20.0, -20.0f32..20.0),
        ),
        1..20,
    )
    .prop_map(|runs| {
        runs.into_iter()
            .map(|(count, move_x, reel, jump, fire, aim)| {
                let (aim_x, aim_y) =
                    InputFrame::quantize_aim(tether::sim::math::Vec2::new(aim.0, aim.1));
                (
                    count,
                    InputFrame {
                        move_x,
                        reel,
                        jump_held: jump,
                        jump_pressed: jump,
                        fire_pressed: fire,
                        aim_x,
                        aim_y,
                        ..Default::default()
                    },
                )
            })
            .collect()
    })
}

#[test]
fn edited_levels_pass_or_fail_check_with_a_message_and_never_panic() {
    let tuning = common::tuning();
    let levels = shipped_levels();
    let mut cases = 0;
    let (passed, refused) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    // How many objects of each list the edits deleted, and which lists the shipped levels use:
    // every kind an author can write must also be seen deleted, or its absence is never tried.
    let deleted = std::cell::RefCell::new([0u32; DELETABLE_LISTS.len()]);
    let mut shipped_lists = [false; DELETABLE_LISTS.len()];
    for (name, text) in &levels {
        let original = LevelDef::from_ron(text, name).expect("a shipped level passes");
        for (list, len) in list_lens(&original).into_iter().enumerate() {
            shipped_lists[list] |= len > 0;
        }
        let mut runner = runner(16);
        let strategy = (
            prop::collection::vec(any::<usize>(), 0..3),
            prop::collection::vec((any::<usize>(), number_edit()), 0..6),
            random_inputs(),
        );
        let result = runner.run(&strategy, |(deletions, edits, inputs)| {
            let mut level = original.clone();
            for pick in deletions {
                if let Some(list) = delete_object(&mut level, pick) {
                    deleted.borrow_mut()[list] += 1;
                }
            }
            let edited = apply(&ron::to_string(&level).expect("serialises"), &edits);
            let built = LevelDef::from_ron(&edited, name)
                .map_err(|err| err.to_string())
                .and_then(|level| {
                    World::from_level(level, tuning.clone(), name).map_err(|err| err.to_string())
                });
            match built {
                Err(message) => {
                    prop_assert!(
                        message.starts_with(name.as_str()),
                        "unnamed message: {message}"
                    );
                    refused.set(refused.get() + 1);
                }
                Ok(mut world) => {
                    passed.set(passed.get() + 1);
                    let mut ticks = 0;
                    for (count, input) in &inputs {
                        for _ in 0..*count {
                            if ticks == 1000 {
                                break;
                            }
                            world.step(input);
                            ticks += 1;
                        }
                    }
                    let not_finite = common::first_non_finite(&world);
                    prop_assert!(
                        not_finite.is_none(),
                        "not finite after {ticks} ticks: {not_finite:?}"
                    );
                }
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{name}: {failure}");
        }
        cases += runner.config().cases;
    }
    let (passed, refused) = (passed.get(), refused.get());
    println!("edited levels: {cases} cases ({passed} passed check and played, {refused} refused with a message)");
    assert!(
        passed > 0 && refused > 0,
        "the edits both keep and break levels"
    );
    let deleted = deleted.into_inner();
    let never_deleted: Vec<&str> = (0..DELETABLE_LISTS.len())
        .filter(|&list| shipped_lists[list] && deleted[list] == 0)
        .map(|list| DELETABLE_LISTS[list])
        .collect();
    println!(
        "objects deleted, by list: {:?}",
        DELETABLE_LISTS.iter().zip(deleted).collect::<Vec<_>>()
    );
    assert!(
        never_deleted.is_empty(),
        "the shipped levels have {never_deleted:?} but no edit deleted one"
    );
}

#[test]
fn replays_and_settings_survive_a_round_trip() {
    let mut runner = runner(64);
    let strategy = (
        "[a-z0-9_]{1,20}\\.ron",
        random_inputs(),
        (
            50u8..=100,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
        (0.0f32..=1.0, 0.0f32..=1.0, 0.0f32..=1.0, any::<bool>()),
    );
    let result = runner.run(&strategy, |(level, runs, assists, audio)| {
        let mut replay = Replay::new(level);
        for (count, input) in &runs {
            for _ in 0..*count {
                replay.push(*input);
            }
        }
        replay.assists = Assists {
            game_speed_percent: assists.0 / 10 * 10,
            invincible: assists.1,
            strong_aim_assist: assists.2,
            trajectory_preview: assists.3,
        };
        let back = Replay::from_ron(&replay.to_ron(), "r.ron")
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &replay);

        let settings = InputSettings {
            assists: replay.assists,
            comfort: tether::app::settings::Comfort {
                screen_shake: assists.4,
                ..Default::default()
            },
            ..Default::default()
        };
        let back = InputSettings::from_ron(&settings.to_ron(), "input.ron")
            .map_err(|err| TestCaseError::fail(err.to_string()))?;
        prop_assert_eq!(back, settings);

        let sound = AudioSettings {
            master: audio.0,
            effects: audio.1,
            music: audio.2,
            muted: audio.3,
        };
        let back = AudioSettings::from_ron(&sound.to_ron())
            .map_err(|err| TestCaseError::fail(err.to_string()))?;
        prop_assert_eq!(back, sound);
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}
