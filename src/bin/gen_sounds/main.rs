//! Writes Tether's sound effects and music loop into `assets/sounds/` (or the folder given as
//! the first argument) as 16-bit mono WAV files.
//!
//! Everything is synthesised here, so the project owns its sounds and anyone can change them.
//! The output must be identical byte for byte on every machine (a test regenerates the files and
//! compares them with the committed ones), hence: plain f32 arithmetic, `libm` for sin/exp/pow
//! (the platform libm differs between systems), a fixed-seed xorshift generator for noise, no
//! threads, no clock.
//!
//! Effects are 44100 Hz; the loops (music layers, rope creak, wind) are 11025 Hz to keep the
//! download small (all audio stays under 1.5 MB) — they are soft sounds, mostly low, that lose
//! little at that rate.

use std::path::{Path, PathBuf};

mod dsp;
mod effects;
mod loops;
mod music;

use dsp::*;
use effects::*;
use loops::*;
use music::*;

/// Every file the game loads, with its rate and generator. Names match `SoundId::file_name`.
/// A sound's generator: returns samples in -1..=1 (before normalisation).
type Generator = fn() -> Vec<f32>;

const SOUNDS: &[(&str, u32, Generator)] = &[
    ("hook_fire.wav", FX_RATE_HZ, hook_fire),
    ("attach_point.wav", FX_RATE_HZ, attach_point),
    ("attach_surface.wav", FX_RATE_HZ, attach_surface),
    ("hook_miss.wav", FX_RATE_HZ, hook_missed),
    ("hook_bounce.wav", FX_RATE_HZ, hook_bounced),
    ("release.wav", FX_RATE_HZ, released),
    ("jump.wav", FX_RATE_HZ, jumped),
    ("land.wav", FX_RATE_HZ, landed),
    ("death.wav", FX_RATE_HZ, died),
    ("respawn.wav", FX_RATE_HZ, respawned),
    ("checkpoint.wav", FX_RATE_HZ, checkpoint),
    ("goal.wav", FX_RATE_HZ, goal),
    ("snap.wav", FX_RATE_HZ, snapped),
    ("crumble.wav", FX_RATE_HZ, crumbled),
    ("rope_creak.wav", LOOP_RATE_HZ, rope_creak),
    ("wind.wav", LOOP_RATE_HZ, wind),
    ("music_melody.wav", LOOP_RATE_HZ, melody),
    ("music_perc.wav", LOOP_RATE_HZ, percussion),
    ("music_dusk.wav", LOOP_RATE_HZ, backing_dusk),
    ("music_forest.wav", LOOP_RATE_HZ, backing_forest),
    ("music_ember.wav", LOOP_RATE_HZ, backing_ember),
];

/// 16-bit mono PCM WAV: the 44-byte canonical header, then little-endian samples.
fn wav_bytes(samples: &[f32], rate: u32) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes()); // bytes per second
    out.extend_from_slice(&2u16.to_le_bytes()); // bytes per frame
    out.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for &s in samples {
        let q = (s.clamp(-1.0, 1.0) * 32767.0).round() as i16;
        out.extend_from_slice(&q.to_le_bytes());
    }
    out
}

fn main() {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds"));
    if let Err(err) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {err}", dir.display());
        std::process::exit(1);
    }
    let mut total = 0;
    for &(name, rate, generate) in SOUNDS {
        let mut samples = generate();
        normalise(&mut samples, PEAK);
        // Loops must not be faded at their ends: that would click at every repeat.
        if rate == FX_RATE_HZ {
            declick(&mut samples, rate);
        }
        let bytes = wav_bytes(&samples, rate);
        let path = dir.join(name);
        if let Err(err) = std::fs::write(&path, &bytes) {
            eprintln!("cannot write {}: {err}", path.display());
            std::process::exit(1);
        }
        println!("{:>8} bytes  {}", bytes.len(), path.display());
        total += bytes.len();
    }
    println!("{total:>8} bytes  total");
}
