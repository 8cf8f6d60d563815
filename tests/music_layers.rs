//! The music and sound budget: effects at 44.1 kHz, all audio under 1.5 MB, music layers that
//! are whole bars of one tempo (so they stay in time) and whose lengths make the mix repeat only
//! after more than a minute, and each world hearing its own backing through the real GameAudio.
//! The lengths are the decoded ones (the desktop's MP3 decoder, trimming by the files' gapless
//! tag): a layer one encoder frame too long or short would drift out of time.

mod common;

use std::path::Path;

use tether::app::audio::mapping::{self, LoopId, SoundId};
use tether::app::audio::{AudioOut, GameAudio, Recorder, SettingsStore};

/// The budget for all audio files together.
const AUDIO_BUDGET_BYTES: u64 = 1_500_000;

fn sounds_dir() -> std::path::PathBuf {
    common::root().join(mapping::SOUNDS_DIR)
}

/// (sample rate, sample count) of a mono sound file, as the desktop decodes it.
fn sound_info(path: &Path) -> (u32, u64) {
    use rodio::Source;
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let buffer = tether::app::audio::rodio_backend::decode(bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(buffer.channels(), 1, "{}: mono expected", path.display());
    (buffer.sample_rate(), buffer.count() as u64)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn all_audio_fits_the_budget_and_effects_are_44_1_khz() {
    let mut total = 0;
    for entry in std::fs::read_dir(sounds_dir()).expect("sounds dir") {
        total += entry.expect("entry").metadata().expect("metadata").len();
    }
    assert!(
        total <= AUDIO_BUDGET_BYTES,
        "audio is {total} bytes, over {AUDIO_BUDGET_BYTES}"
    );
    for id in SoundId::ALL {
        let (rate, _) = sound_info(&sounds_dir().join(id.file_name()));
        assert_eq!(rate, 44_100, "{id:?}");
    }
}

#[test]
fn music_layers_repeat_together_only_after_a_minute() {
    let layers: Vec<LoopId> = LoopId::ALL.into_iter().filter(|id| id.is_music()).collect();
    assert!(layers.len() >= 3, "{layers:?}");
    let infos: Vec<(u32, u64)> = layers
        .iter()
        .map(|id| sound_info(&sounds_dir().join(id.file_name())))
        .collect();
    let rate = infos[0].0;
    assert!(infos.iter().all(|&(r, _)| r == rate), "{infos:?}");
    // Every layer is a whole number of bars of the shortest common unit: their lengths share a
    // divisor of at least a bar (a second or more), so they stay in time with one another.
    let unit = infos.iter().fold(0, |g, &(_, n)| gcd(g, n));
    assert!(
        unit as f32 / rate as f32 >= 1.0,
        "layers share only {unit} samples"
    );
    // What a player in one world hears: melody, percussion and that world's backing.
    for world in 0..3 {
        let heard: Vec<u64> = layers
            .iter()
            .zip(&infos)
            .filter(|(id, _)| id.music_mix(world).unwrap_or(0.0) > 0.0)
            .map(|(_, &(_, n))| n)
            .collect();
        assert_eq!(heard.len(), 3, "world {world}");
        let period = heard.iter().fold(1, |l, &n| l / gcd(l, n) * n);
        let period_s = period as f32 / rate as f32;
        assert!(
            period_s >= 60.0,
            "world {world}: the mix repeats after {period_s} s"
        );
        // And no single layer is a large share of that: each one changes against the others.
        for &n in &heard {
            assert!(n < period / 2, "world {world}: a layer of {n} samples");
        }
    }
}

#[test]
fn each_world_hears_its_own_backing() {
    let mut backings_heard = Vec::new();
    for path in common::level_files() {
        let world = common::world_from(&common::read(&path));
        let mut audio = GameAudio::new(Recorder::default(), SettingsStore::memory());
        audio.update(Some(&world), false);
        let volumes = audio.backend().loop_volumes;
        let audible: Vec<LoopId> = LoopId::BACKINGS
            .into_iter()
            .filter(|&id| volumes[id as usize] > 0.0)
            .collect();
        assert_eq!(audible.len(), 1, "{}: backings {audible:?}", path.display());
        assert_eq!(audible[0], LoopId::BACKINGS[mapping::music_world(&world)]);
        assert!(volumes[LoopId::Music as usize] > 0.0, "melody plays");
        backings_heard.push(audible[0]);
    }
    backings_heard.sort_by_key(|id| *id as usize);
    backings_heard.dedup();
    assert!(
        backings_heard.len() >= 2,
        "the levels all share one backing: {backings_heard:?}"
    );
}
