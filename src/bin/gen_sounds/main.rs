//! Writes Tether's sound effects and music loop into `assets/sounds/` (or the folder given as
//! the first argument) as mono MP3 files, encoded here by `rusty_mp3` (pure Rust).
//!
//! Why MP3: it is the one compressed format that Web Audio's `decodeAudioData` decodes in every
//! major browser (Safari took Ogg Vorbis and Opus only in its recent versions), and rodio decodes
//! it on the desktop (its `mp3` feature: symphonia, pure Rust). The files carry LAME's gapless
//! tag (encoder delay and padding), so a decoder that reads it gives back exactly the samples made
//! here and the loops repeat without a gap.
//!
//! Everything is synthesised here, so the project owns its sounds and anyone can change them.
//! The output must be identical byte for byte on every machine (a test regenerates the files and
//! compares them with the committed ones), hence: plain f32 arithmetic, `libm` for sin/exp/pow
//! (the platform libm differs between systems), a fixed-seed xorshift generator for noise, no
//! threads, no clock.
//!
//! Effects are 44100 Hz; the loops (music layers, rope creak, wind) are 11025 Hz to keep the
//! download small — they are soft sounds, mostly low, that lose little at that rate.

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
    ("hook_fire.mp3", FX_RATE_HZ, hook_fire),
    ("attach_point.mp3", FX_RATE_HZ, attach_point),
    ("attach_surface.mp3", FX_RATE_HZ, attach_surface),
    ("hook_miss.mp3", FX_RATE_HZ, hook_missed),
    ("hook_bounce.mp3", FX_RATE_HZ, hook_bounced),
    ("release.mp3", FX_RATE_HZ, released),
    ("jump.mp3", FX_RATE_HZ, jumped),
    ("land.mp3", FX_RATE_HZ, landed),
    ("death.mp3", FX_RATE_HZ, died),
    ("respawn.mp3", FX_RATE_HZ, respawned),
    ("checkpoint.mp3", FX_RATE_HZ, checkpoint),
    ("goal.mp3", FX_RATE_HZ, goal),
    ("snap.mp3", FX_RATE_HZ, snapped),
    ("crumble.mp3", FX_RATE_HZ, crumbled),
    ("rope_creak.mp3", LOOP_RATE_HZ, rope_creak),
    ("wind.mp3", LOOP_RATE_HZ, wind),
    ("music_melody.mp3", LOOP_RATE_HZ, melody),
    ("music_perc.mp3", LOOP_RATE_HZ, percussion),
    ("music_dusk.mp3", LOOP_RATE_HZ, backing_dusk),
    ("music_forest.mp3", LOOP_RATE_HZ, backing_forest),
    ("music_ember.mp3", LOOP_RATE_HZ, backing_ember),
];

/// Constant bit rate of the effects (44.1 kHz, MPEG-1 Layer III): short, bright sounds that
/// the first play must not smear.
const FX_KBPS: u32 = 64;
/// Constant bit rate of the loops and music (11.025 kHz, MPEG-2.5 Layer III): soft, mostly low
/// sounds, and most of the audio's length.
const LOOP_KBPS: u32 = 32;

/// Mono MP3 (constant bit rate, with the LAME/Info gapless tag) of samples in -1..=1.
fn mp3_bytes(samples: &[f32], rate: u32) -> Result<Vec<u8>, rusty_mp3::Error> {
    let bitrate_kbps = if rate == FX_RATE_HZ {
        FX_KBPS
    } else {
        LOOP_KBPS
    };
    let mut encoder = rusty_mp3::Mp3Encoder::new(rusty_mp3::Mp3EncoderConfig {
        bitrate_kbps,
        vbr_quality: None,
    });
    let clamped: Vec<f32> = samples.iter().map(|s| s.clamp(-1.0, 1.0)).collect();
    encoder.push_pcm_f32(&clamped, 1, rate)?;
    encoder.finish();
    let mut out = Vec::new();
    while let Ok(packet) = encoder.next_packet() {
        out.extend_from_slice(&packet);
    }
    Ok(out)
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
        let bytes = match mp3_bytes(&samples, rate) {
            Ok(bytes) => bytes,
            Err(err) => {
                eprintln!("cannot encode {name}: {err}");
                std::process::exit(1);
            }
        };
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
