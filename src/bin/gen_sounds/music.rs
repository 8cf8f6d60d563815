//! The music: a backing loop per world, a melody and percussion, layered by the game.

use std::f32::consts::PI;

use crate::dsp::*;

//
// The music is layered at run time from short loops whose lengths in bars are 4 (each world's
// backing), 7 (the melody) and 3 (percussion). All share one tempo and start together, so they
// stay in time, and the whole only repeats after 84 bars (3 minutes); backing and melody meet
// again only after 28 bars, exactly one minute at 112 bpm. Each world has its own backing
// (chords, bass and pad voice); the melody, in A minor pentatonic, fits all three progressions.

pub const MUSIC_BPM: u32 = 112;
/// A bar of four beats in samples at the loop rate: 11025 * 240 / 112 = 23625 exactly, so every
/// layer is a whole number of samples and they never drift apart.
pub const SAMPLES_PER_BAR: usize = (LOOP_RATE_HZ * 240 / MUSIC_BPM) as usize;
pub const BEAT_S: f32 = 60.0 / MUSIC_BPM as f32;
pub const BAR_S: f32 = 4.0 * BEAT_S;

pub fn soft_tone(f: f32, u: f32) -> f32 {
    sin(2.0 * PI * f * u) + 0.12 * sin(2.0 * PI * 3.0 * f * u)
}

/// A world's backing: its chord progression (MIDI notes, one chord per bar) and voicing.
pub struct Backing {
    chords: [[i32; 3]; 4],
    /// Pad tremolo rate (0 = steady).
    tremolo_hz: f32,
    /// Bass plays eighth notes (driving) instead of beats one and three.
    driving_bass: bool,
    /// Octave shift of the pad.
    pad_shift: i32,
}

pub const BACKINGS: [Backing; 3] = [
    // Dusk: Am F C G, a calm pad.
    Backing {
        chords: [[57, 60, 64], [53, 57, 60], [48, 52, 55], [55, 59, 62]],
        tremolo_hz: 0.0,
        driving_bass: false,
        pad_shift: 0,
    },
    // Night forest: F C Dm Am, a shimmering pad.
    Backing {
        chords: [[53, 57, 60], [48, 52, 55], [50, 53, 57], [45, 48, 52]],
        tremolo_hz: 3.5,
        driving_bass: false,
        pad_shift: 12,
    },
    // Ember: Am G F Em, low pad over a driving bass.
    Backing {
        chords: [[57, 60, 64], [55, 59, 62], [53, 57, 60], [52, 55, 59]],
        tremolo_hz: 0.0,
        driving_bass: true,
        pad_shift: -12,
    },
];

pub fn backing(world: usize) -> Vec<f32> {
    let rate = LOOP_RATE_HZ;
    let style = &BACKINGS[world];
    let mut buf = vec![0.0f32; 4 * SAMPLES_PER_BAR];
    for (bar, chord) in style.chords.iter().enumerate() {
        let bar_start = bar as f32 * BAR_S;
        // Pad: the chord in slightly detuned pairs, swelling in and out.
        for &note in chord {
            let f = midi_hz(note + style.pad_shift);
            let tremolo_hz = style.tremolo_hz;
            add_wrapped(&mut buf, bar_start, BAR_S + 0.4, rate, |u| {
                let env = (u / 0.35).min(1.0) * ((BAR_S + 0.4 - u) / 0.5).min(1.0);
                let wobble = 1.0 - 0.3 * (0.5 + 0.5 * sin(2.0 * PI * tremolo_hz * u));
                0.05 * env * wobble * (soft_tone(f, u) + soft_tone(f * 1.004, u))
            });
        }
        // Bass.
        let f = midi_hz(chord[0] - 12);
        let hits: &[(f32, f32)] = if style.driving_bass {
            &[
                (0.0, 0.2),
                (0.5, 0.12),
                (1.0, 0.16),
                (1.5, 0.12),
                (2.0, 0.2),
                (2.5, 0.12),
                (3.0, 0.16),
                (3.5, 0.12),
            ]
        } else {
            &[(0.0, 0.22), (2.0, 0.22), (3.5, 0.1)]
        };
        for &(beat, level) in hits {
            let decay = if style.driving_bass { 0.12 } else { 0.35 };
            add_wrapped(&mut buf, bar_start + beat * BEAT_S, 0.9, rate, |u| {
                let attack = (u / 0.01).min(1.0);
                level * attack * exp(-u / decay) * soft_tone(f, u)
            });
        }
        // A soft kick on beats one and three.
        for beat in [0.0, 2.0] {
            let mut osc = Osc::default();
            add_wrapped(&mut buf, bar_start + beat * BEAT_S, 0.15, rate, |u| {
                0.18 * exp(-u / 0.04) * osc.step(50.0 + 90.0 * exp(-u / 0.02), rate)
            });
        }
    }
    buf
}

pub fn backing_dusk() -> Vec<f32> {
    backing(0)
}
pub fn backing_forest() -> Vec<f32> {
    backing(1)
}
pub fn backing_ember() -> Vec<f32> {
    backing(2)
}

/// Seven bars of melody in A minor pentatonic: a seeded walk over the scale with rhythms picked
/// from a few one-bar cells, resting now and then, ending on the tonic.
pub fn melody() -> Vec<f32> {
    let rate = LOOP_RATE_HZ;
    let bars = 7;
    let scale = [64, 67, 69, 72, 74, 76, 79, 81];
    // Rhythm cells: note onsets in beats within a bar, with lengths.
    let cells: [&[(f32, f32)]; 4] = [
        &[(0.0, 1.0), (1.0, 0.5), (1.5, 0.5), (2.0, 2.0)],
        &[(0.0, 1.5), (1.5, 0.5), (2.0, 1.0), (3.0, 1.0)],
        &[(0.5, 0.5), (1.0, 1.0), (2.5, 1.5)],
        &[(0.0, 3.0), (3.0, 0.5), (3.5, 0.5)],
    ];
    let mut rng = Rng(0x5eed_7e7e);
    let mut buf = vec![0.0f32; bars * SAMPLES_PER_BAR];
    let mut step = 3i32;
    for bar in 0..bars {
        let cell = cells[(rng.next_u32() % cells.len() as u32) as usize];
        let last_bar = bar == bars - 1;
        for (k, &(onset, length)) in cell.iter().enumerate() {
            // Mostly steps, sometimes a leap; a rest one time in seven.
            if !last_bar && rng.next_u32().is_multiple_of(7) {
                continue;
            }
            let r = rng.next_u32() % 10;
            step += match r {
                0..=2 => -1,
                3..=5 => 1,
                6 => -2,
                7 => 2,
                _ => 0,
            };
            step = step.clamp(0, scale.len() as i32 - 1);
            if last_bar && k == cell.len() - 1 {
                step = 2; // home: A4
            }
            let f = midi_hz(scale[step as usize]);
            let start = bar as f32 * BAR_S + onset * BEAT_S;
            let len_s = length * BEAT_S;
            add_wrapped(&mut buf, start, len_s + 0.6, rate, |u| {
                let attack = (u / 0.012).min(1.0);
                let release = if u > len_s {
                    exp(-(u - len_s) / 0.12)
                } else {
                    1.0
                };
                let vibrato = 1.0 + 0.003 * sin(2.0 * PI * 5.0 * u) * (u / 0.3).min(1.0);
                0.12 * attack
                    * release
                    * exp(-u / 1.2)
                    * (sin(2.0 * PI * f * vibrato * u) + 0.3 * sin(4.0 * PI * f * vibrato * u))
            });
        }
    }
    buf
}

/// Three bars of soft percussion: hats on the eighths with a pattern that changes per bar, a
/// shaker on the offbeats and a rim click that moves.
pub fn percussion() -> Vec<f32> {
    let rate = LOOP_RATE_HZ;
    let bars = 3;
    let mut buf = vec![0.0f32; bars * SAMPLES_PER_BAR];
    let mut rng = Rng(0x0ddb_ea75);
    let accents: [[f32; 8]; 3] = [
        [1.0, 0.3, 0.6, 0.3, 1.0, 0.3, 0.6, 0.5],
        [1.0, 0.3, 0.6, 0.6, 1.0, 0.0, 0.6, 0.3],
        [1.0, 0.5, 0.6, 0.3, 0.8, 0.3, 0.0, 0.7],
    ];
    for (bar, pattern) in accents.iter().enumerate() {
        for (eighth, &level) in pattern.iter().enumerate() {
            if level <= 0.0 {
                continue;
            }
            let start = bar as f32 * BAR_S + eighth as f32 * BEAT_S * 0.5;
            let mut lp = LowPass::default();
            let mut noise = Vec::with_capacity(samples_for(0.08, rate));
            for _ in 0..samples_for(0.08, rate) {
                noise.push(rng.noise());
            }
            let mut i = 0;
            add_wrapped(&mut buf, start, 0.08, rate, |u| {
                let x = noise[i.min(noise.len() - 1)];
                i += 1;
                // High-passed noise: what is left after a low-pass.
                let hp = x - lp.run(x, 2500.0, rate);
                0.1 * level * exp(-u / 0.018) * hp
            });
        }
        // The rim click: a short resonant knock, on a different beat each bar.
        let beat = [1.5, 3.0, 2.5][bar];
        let mut res = Resonator::new(1800.0, 300.0, rate);
        let mut first = true;
        add_wrapped(
            &mut buf,
            bar as f32 * BAR_S + beat * BEAT_S,
            0.1,
            rate,
            |_| {
                let kick = if first { 1.0 } else { 0.0 };
                first = false;
                0.1 * res.run(kick)
            },
        );
    }
    buf
}
