//! Every event kind maps to a sound file that exists in assets/sounds and really decodes (a
//! file that fails to decode would leave a sound silent, and on the web could stall loading).

use std::collections::BTreeSet;
use std::path::Path;

use rodio::Source;
use tether::app::audio::mapping::{self, sound_for, LoopId, SoundId};
use tether::app::audio::rodio_backend::decode;
use tether::sim::event::BreakKind;
use tether::sim::math::Vec2;
use tether::sim::{AttachKind, Event, World};

fn level_one() -> World {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tuning = tether::cli::load_tuning(root).expect("tuning");
    tether::cli::load_world(&root.join("levels/01_first_swing.ron"), tuning).expect("level 1")
}

/// One event of every kind (and both attach kinds).
fn every_event() -> Vec<Event> {
    let at = Vec2::new(1.0, 2.0);
    vec![
        Event::Jumped,
        Event::Landed {
            impact_speed_m_per_s: 9.0,
        },
        Event::HookFired,
        Event::HookAttached {
            kind: AttachKind::GrapplePoint,
            at,
        },
        Event::HookAttached {
            kind: AttachKind::Surface,
            at,
        },
        Event::HookMissed,
        Event::HookBounced { at },
        Event::Released,
        Event::Died { at },
        Event::Respawned,
        Event::CheckpointReached { index: 0 },
        Event::GoalReached { ticks: 100 },
        Event::Broke {
            kind: BreakKind::Beam(0),
            at,
        },
        Event::Broke {
            kind: BreakKind::Ring(0),
            at,
        },
        Event::Broke {
            kind: BreakKind::Rope,
            at,
        },
    ]
}

fn decoded_seconds(file: &str) -> f32 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(mapping::SOUNDS_DIR)
        .join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let buffer =
        decode(bytes).unwrap_or_else(|err| panic!("{}: does not decode: {err}", path.display()));
    assert_eq!(buffer.channels(), 1, "{file}: mono expected");
    let rate = buffer.sample_rate();
    assert!(
        rate == 44100 || rate == 11025,
        "{file}: unexpected rate {rate}"
    );
    let samples: Vec<f32> = buffer.collect();
    let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 0.5, "{file}: nearly silent (peak {peak})");
    assert!(
        samples.iter().all(|s| s.is_finite()),
        "{file}: non-finite samples"
    );
    samples.len() as f32 / rate as f32
}

#[test]
fn every_event_kind_maps_to_a_sound_file_that_decodes() {
    let world = level_one();
    let events = every_event();
    let kinds: BTreeSet<&str> = events.iter().map(Event::kind_name).collect();
    assert_eq!(
        kinds.len(),
        15,
        "the test lists every event kind once: {kinds:?}"
    );
    for event in &events {
        let (sound, volume) = sound_for(event, &world).expect("every event kind makes a sound");
        assert!(
            volume > 0.0 && volume <= 1.0,
            "{}: volume {volume}",
            event.kind_name()
        );
        let seconds = decoded_seconds(sound.file_name());
        assert!(
            (0.05..=1.5).contains(&seconds),
            "{}: {} lasts {seconds} s",
            event.kind_name(),
            sound.file_name()
        );
    }
    // Grapple point and surface sound different.
    let point = sound_for(&events[3], &world).unwrap().0;
    let surface = sound_for(&events[4], &world).unwrap().0;
    assert_ne!(point, surface);
}

#[test]
fn every_sound_id_is_used_by_some_event() {
    let world = level_one();
    let used: BTreeSet<&str> = every_event()
        .iter()
        .filter_map(|e| sound_for(e, &world))
        .map(|(sound, _)| sound.file_name())
        .collect();
    for sound in SoundId::ALL {
        assert!(
            used.contains(sound.file_name()),
            "{sound:?} is never played"
        );
    }
}

#[test]
fn loops_decode_and_are_long_enough_to_loop() {
    for id in LoopId::ALL {
        let seconds = decoded_seconds(id.file_name());
        assert!(seconds >= 0.9, "{id:?} loop is only {seconds} s");
    }
    let music = decoded_seconds(LoopId::Music.file_name());
    assert!((7.9..=16.1).contains(&music), "music loop lasts {music} s");
}

#[test]
fn file_indices_cover_all_files_in_order() {
    let files = mapping::all_files();
    assert_eq!(files.len(), SoundId::ALL.len() + LoopId::ALL.len());
    for sound in SoundId::ALL {
        assert_eq!(files[sound.file_index()], sound.file_name());
    }
    for id in LoopId::ALL {
        assert_eq!(files[id.file_index()], id.file_name());
    }
}

#[test]
fn landing_gets_louder_with_impact_speed() {
    let hard = 14.0;
    let speeds = [0.0, 2.0, 5.0, 9.0, 14.0, 30.0];
    let volumes: Vec<f32> = speeds
        .iter()
        .map(|&s| mapping::landing_volume(s, hard))
        .collect();
    for pair in volumes.windows(2) {
        assert!(pair[0] <= pair[1], "not increasing: {volumes:?}");
    }
    assert!(
        volumes[1] < volumes[3],
        "a harder landing must be audibly louder: {volumes:?}"
    );
    assert!(volumes[0] > 0.0, "even a soft landing makes a sound");
    assert_eq!(volumes[4], 1.0);
    assert_eq!(volumes[5], 1.0, "clamped at full volume");
    assert!(mapping::landing_volume(f32::NAN, hard).is_finite());
}

#[test]
fn a_landing_too_soft_to_hear_makes_no_sound() {
    let world = level_one();
    let soft = Event::Landed {
        impact_speed_m_per_s: 0.6,
    };
    assert_eq!(
        sound_for(&soft, &world),
        None,
        "one tick of gravity is not a thud"
    );
    let nan = Event::Landed {
        impact_speed_m_per_s: f32::NAN,
    };
    assert_eq!(sound_for(&nan, &world), None);
    let step = Event::Landed {
        impact_speed_m_per_s: mapping::SILENT_LANDING_BELOW_M_PER_S,
    };
    assert_eq!(
        sound_for(&step, &world).map(|(s, _)| s),
        Some(SoundId::Land)
    );
}
