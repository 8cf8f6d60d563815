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

use std::f32::consts::PI;
use std::path::{Path, PathBuf};

const FX_RATE_HZ: u32 = 44100;
const LOOP_RATE_HZ: u32 = 11025;
/// Peak level after normalisation: leaves headroom for several sounds at once.
const PEAK: f32 = 0.85;

fn sin(x: f32) -> f32 {
    libm::sinf(x)
}
fn exp(x: f32) -> f32 {
    libm::expf(x)
}
/// `powi` may lower to different code on different targets; a product does not.
fn sq(x: f32) -> f32 {
    x * x
}

/// xorshift32: tiny, fast, and the same sequence everywhere.
struct Rng(u32);

impl Rng {
    fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
    /// Uniform in [-1, 1).
    fn noise(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }
}

/// One-pole low-pass filter; `cutoff_hz` may change every sample.
#[derive(Default)]
struct LowPass {
    y: f32,
}

impl LowPass {
    fn run(&mut self, x: f32, cutoff_hz: f32, rate: u32) -> f32 {
        let a = 1.0 - exp(-2.0 * PI * cutoff_hz / rate as f32);
        self.y += a * (x - self.y);
        self.y
    }
}

/// Two-pole resonator (a band-pass ringing at `freq_hz`).
struct Resonator {
    y1: f32,
    y2: f32,
    b1: f32,
    b2: f32,
}

impl Resonator {
    fn new(freq_hz: f32, bandwidth_hz: f32, rate: u32) -> Resonator {
        let r = exp(-PI * bandwidth_hz / rate as f32);
        let w = 2.0 * PI * freq_hz / rate as f32;
        Resonator {
            y1: 0.0,
            y2: 0.0,
            b1: 2.0 * r * libm::cosf(w),
            b2: -r * r,
        }
    }
    fn run(&mut self, x: f32) -> f32 {
        let y = x + self.b1 * self.y1 + self.b2 * self.y2;
        self.y2 = self.y1;
        self.y1 = y;
        y
    }
}

fn midi_hz(note: i32) -> f32 {
    440.0 * libm::powf(2.0, (note - 69) as f32 / 12.0)
}

fn samples_for(seconds: f32, rate: u32) -> usize {
    (seconds * rate as f32) as usize
}

/// Renders `seconds` of sound, calling `f(t_s, rng)` per sample.
fn render(seconds: f32, rate: u32, seed: u32, mut f: impl FnMut(f32, &mut Rng) -> f32) -> Vec<f32> {
    let mut rng = Rng(seed);
    (0..samples_for(seconds, rate))
        .map(|i| f(i as f32 / rate as f32, &mut rng))
        .collect()
}

/// A phase accumulator, for tones whose pitch glides (sin of a changing frequency times t
/// would chirp wrongly).
#[derive(Default)]
struct Osc {
    phase: f32,
}

impl Osc {
    fn step(&mut self, freq_hz: f32, rate: u32) -> f32 {
        let out = sin(2.0 * PI * self.phase);
        self.phase += freq_hz / rate as f32;
        self.phase -= self.phase.floor();
        out
    }
}

/// Short fade in/out so no effect starts or ends with a click.
fn declick(samples: &mut [f32], rate: u32) {
    let n = samples_for(0.003, rate).min(samples.len() / 2);
    for i in 0..n {
        let g = i as f32 / n as f32;
        samples[i] *= g;
        let last = samples.len() - 1 - i;
        samples[last] *= g;
    }
}

fn normalise(samples: &mut [f32], peak: f32) {
    let max = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if max > 0.0 {
        let gain = peak / max;
        samples.iter_mut().for_each(|s| *s *= gain);
    }
}

/// Makes `samples` (rendered `fade` samples longer than the loop) loop seamlessly: the extra tail
/// is cross-faded (equal power) into the start, then dropped.
fn crossfade_loop(mut samples: Vec<f32>, loop_len: usize) -> Vec<f32> {
    let fade = samples.len() - loop_len;
    for i in 0..fade {
        let t = i as f32 / fade as f32;
        let fade_in = libm::sqrtf(t);
        let fade_out = libm::sqrtf(1.0 - t);
        samples[i] = samples[i] * fade_in + samples[loop_len + i] * fade_out;
    }
    samples.truncate(loop_len);
    samples
}

// ---- effects -------------------------------------------------------------------------------

fn hook_fire() -> Vec<f32> {
    // A whoosh: noise through a low-pass that opens and closes, plus a faint rising zip.
    let dur = 0.22;
    let mut lp = LowPass::default();
    let mut lp2 = LowPass::default();
    let mut zip = Osc::default();
    render(dur, FX_RATE_HZ, 0x1234_5678, |t, rng| {
        let x = t / dur;
        let env = sq(sin(PI * x.sqrt()));
        let cutoff = 400.0 + 3500.0 * sin(PI * x);
        let whoosh = lp2.run(lp.run(rng.noise(), cutoff, FX_RATE_HZ), cutoff, FX_RATE_HZ);
        let z = zip.step(900.0 + 1600.0 * x, FX_RATE_HZ) * 0.08 * (1.0 - x);
        (whoosh * 2.5 + z) * env
    })
}

fn attach_point() -> Vec<f32> {
    // Metal on metal: inharmonic partials that die fast, over a small thunk.
    let partials = [
        (1320.0, 0.08, 0.5),
        (2090.0, 0.06, 0.35),
        (3170.0, 0.04, 0.25),
        (4410.0, 0.025, 0.15),
    ];
    let mut thunk = Osc::default();
    render(0.25, FX_RATE_HZ, 0x2345_6789, |t, _| {
        let ring: f32 = partials
            .iter()
            .map(|&(f, d, a)| a * sin(2.0 * PI * f * t) * exp(-t / d))
            .sum();
        let low = thunk.step(170.0 - 60.0 * t, FX_RATE_HZ) * exp(-t / 0.05);
        ring + 0.8 * low
    })
}

fn attach_surface() -> Vec<f32> {
    // A dull thunk into wood or rock: a falling low tone and a muffled noise burst.
    let mut osc = Osc::default();
    let mut lp = LowPass::default();
    render(0.2, FX_RATE_HZ, 0x3456_789a, |t, rng| {
        let tone = osc.step(70.0 + 110.0 * exp(-t / 0.03), FX_RATE_HZ) * exp(-t / 0.06);
        let burst = lp.run(rng.noise(), 1200.0, FX_RATE_HZ) * exp(-t / 0.02);
        tone + 1.5 * burst
    })
}

fn hook_missed() -> Vec<f32> {
    // Nothing caught: a soft falling tone and the rattle of the line coming back.
    let dur = 0.25;
    let mut osc = Osc::default();
    let mut lp = LowPass::default();
    render(dur, FX_RATE_HZ, 0x4567_89ab, |t, rng| {
        let x = t / dur;
        let tone = osc.step(520.0 - 260.0 * x, FX_RATE_HZ) * (1.0 - x) * 0.6;
        let rattle_gate = if sin(2.0 * PI * 38.0 * t) > 0.6 {
            1.0
        } else {
            0.0
        };
        let rattle = lp.run(rng.noise(), 2500.0, FX_RATE_HZ) * rattle_gate * 0.5 * (1.0 - x);
        tone + rattle
    })
}

fn hook_bounced() -> Vec<f32> {
    // A ricochet tink off something the hook cannot grip.
    let mut osc = Osc::default();
    render(0.15, FX_RATE_HZ, 0x5678_9abc, |t, rng| {
        let tink = osc.step(1800.0 + 700.0 * exp(-t / 0.02), FX_RATE_HZ) * exp(-t / 0.035);
        let click = rng.noise() * exp(-t / 0.003);
        tink + 0.6 * click
    })
}

fn released() -> Vec<f32> {
    // The line lets go: a snap (high-passed noise) and a short falling blip.
    let mut osc = Osc::default();
    let mut lp = LowPass::default();
    render(0.1, FX_RATE_HZ, 0x6789_abcd, |t, rng| {
        let n = rng.noise();
        let snap = (n - lp.run(n, 2000.0, FX_RATE_HZ)) * exp(-t / 0.012);
        let blip = osc.step(600.0 - 2500.0 * t, FX_RATE_HZ) * exp(-t / 0.03);
        snap + 0.7 * blip
    })
}

fn snapped() -> Vec<f32> {
    // A rope or a cracked ring gives way: a sharp crack (high-passed noise) and the twang of the
    // line springing back, falling in pitch.
    let mut osc = Osc::default();
    let mut lp = LowPass::default();
    render(0.22, FX_RATE_HZ, 0x1357_9bdf, |t, rng| {
        let n = rng.noise();
        let crack = (n - lp.run(n, 3000.0, FX_RATE_HZ)) * exp(-t / 0.006);
        let twang = osc.step(320.0 * exp(-t / 0.12) + 90.0, FX_RATE_HZ) * exp(-t / 0.07);
        let buzz = (twang * 3.0).clamp(-1.0, 1.0);
        1.2 * crack + 0.5 * buzz
    })
}

fn crumbled() -> Vec<f32> {
    // A rotten beam crumbles: a dull crunch and bits of wood pattering off it, low-passed.
    let mut lp = LowPass::default();
    let mut body = Resonator::new(140.0, 60.0, FX_RATE_HZ);
    render(0.3, FX_RATE_HZ, 0x2468_ace0, |t, rng| {
        let n = rng.noise();
        // Bursts of crackle every ~35 ms, each dying away, fewer as the beam falls apart.
        let burst = exp(-(t % 0.035) / 0.008) * exp(-t / 0.12);
        let crackle = lp.run(n, 1800.0, FX_RATE_HZ) * burst;
        let crunch = body.run(n * 0.05) * exp(-t / 0.05);
        crackle + 0.8 * crunch
    })
}

fn jumped() -> Vec<f32> {
    // A light rising hop, slightly square for body.
    let dur = 0.14;
    let mut osc = Osc::default();
    render(dur, FX_RATE_HZ, 0x789a_bcde, |t, _| {
        let x = t / dur;
        let s = osc.step(220.0 + 260.0 * x, FX_RATE_HZ);
        let squareish = (s * 2.5).clamp(-1.0, 1.0);
        squareish * sq(1.0 - x) * (1.0 - exp(-t / 0.004))
    })
}

fn landed() -> Vec<f32> {
    // Feet on ground: a muffled thud. Its loudness follows impact speed at play time.
    let mut osc = Osc::default();
    let mut lp = LowPass::default();
    let mut lp2 = LowPass::default();
    render(0.16, FX_RATE_HZ, 0x89ab_cdef, |t, rng| {
        let thud =
            lp2.run(lp.run(rng.noise(), 700.0, FX_RATE_HZ), 700.0, FX_RATE_HZ) * exp(-t / 0.035);
        let body = osc.step(95.0 - 150.0 * t, FX_RATE_HZ) * exp(-t / 0.05);
        3.0 * thud + body
    })
}

fn died() -> Vec<f32> {
    // A long buzzy fall with a crunch at the start.
    let dur = 0.55;
    let mut osc = Osc::default();
    let mut lp = LowPass::default();
    render(dur, FX_RATE_HZ, 0x9abc_def0, |t, rng| {
        let x = t / dur;
        let f = 440.0 * exp(-2.0 * x);
        let s = osc.step(f, FX_RATE_HZ);
        // A few odd harmonics from soft clipping: buzzy, not harsh.
        let buzz = (s * 3.0).clamp(-1.0, 1.0) * (1.0 - x);
        let crunch = lp.run(rng.noise(), 3000.0, FX_RATE_HZ) * exp(-t / 0.04);
        0.6 * buzz + crunch
    })
}

fn respawned() -> Vec<f32> {
    // Coming back: a soft rising shimmer.
    let dur = 0.35;
    let mut osc = Osc::default();
    let mut osc2 = Osc::default();
    render(dur, FX_RATE_HZ, 0xabcd_ef01, |t, _| {
        let x = t / dur;
        let f = 300.0 + 600.0 * x;
        let tremolo = 0.75 + 0.25 * sin(2.0 * PI * 24.0 * t);
        let env = sin(PI * x);
        (osc.step(f, FX_RATE_HZ) + 0.4 * osc2.step(f * 2.0, FX_RATE_HZ)) * env * tremolo
    })
}

/// A bell-like note starting at `start_s`.
fn chime(t: f32, start_s: f32, freq_hz: f32, decay_s: f32) -> f32 {
    if t < start_s {
        return 0.0;
    }
    let u = t - start_s;
    let attack = (u / 0.004).min(1.0);
    attack
        * exp(-u / decay_s)
        * (sin(2.0 * PI * freq_hz * u)
            + 0.3 * sin(2.0 * PI * 2.0 * freq_hz * u)
            + 0.1 * sin(2.0 * PI * 3.01 * freq_hz * u))
}

fn checkpoint() -> Vec<f32> {
    // Two rising bell notes: E5, B5.
    render(0.6, FX_RATE_HZ, 0xbcde_f012, |t, _| {
        chime(t, 0.0, midi_hz(76), 0.2) + chime(t, 0.11, midi_hz(83), 0.25)
    })
}

fn goal() -> Vec<f32> {
    // A major arpeggio up to the octave: C5 E5 G5 C6.
    let notes = [(0.0, 72), (0.1, 76), (0.2, 79), (0.3, 84)];
    render(0.9, FX_RATE_HZ, 0xcdef_0123, |t, _| {
        notes
            .iter()
            .map(|&(start, note)| chime(t, start, midi_hz(note), 0.3))
            .sum()
    })
}

// ---- loops -----------------------------------------------------------------------------------

fn rope_creak() -> Vec<f32> {
    // Stick-slip friction: a train of impulses whose rate wanders, ringing two wooden
    // resonances, swelling twice per loop.
    let loop_s = 1.0;
    let fade_s = 0.1;
    let rate = LOOP_RATE_HZ;
    let mut r1 = Resonator::new(620.0, 90.0, rate);
    let mut r2 = Resonator::new(1150.0, 140.0, rate);
    let mut phase = 0.0f32;
    let samples = render(loop_s + fade_s, rate, 0xdef0_1234, |t, rng| {
        let swell = 0.3 + 0.7 * sin(PI * 2.0 * t / loop_s).abs();
        let pulse_hz = 45.0 + 25.0 * sin(2.0 * PI * 3.0 * t / loop_s);
        phase += pulse_hz / rate as f32;
        let impulse = if phase >= 1.0 {
            phase -= 1.0;
            1.0 + 0.3 * rng.noise()
        } else {
            0.02 * rng.noise()
        };
        (r1.run(impulse) + 0.6 * r2.run(impulse)) * swell
    });
    crossfade_loop(samples, samples_for(loop_s, rate))
}

fn wind() -> Vec<f32> {
    // Air rushing past: low-passed noise with gusts and a faint whistle.
    let loop_s = 2.0;
    let fade_s = 0.25;
    let rate = LOOP_RATE_HZ;
    let mut lp = LowPass::default();
    let mut lp2 = LowPass::default();
    let mut whistle = Resonator::new(900.0, 60.0, rate);
    let samples = render(loop_s + fade_s, rate, 0xef01_2345, |t, rng| {
        let gust = 0.65 + 0.35 * sin(2.0 * PI * t / loop_s) * sin(2.0 * PI * 3.0 * t / loop_s);
        let n = rng.noise();
        let body = lp2.run(lp.run(n, 500.0 + 600.0 * gust, rate), 900.0, rate);
        let w = whistle.run(n) * 0.004 * gust;
        (body * 3.0 + w) * gust
    });
    crossfade_loop(samples, samples_for(loop_s, rate))
}

/// Adds a note into a looping buffer: anything past the end wraps to the start, so the loop
/// is seamless.
fn add_wrapped(
    buf: &mut [f32],
    start_s: f32,
    len_s: f32,
    rate: u32,
    mut f: impl FnMut(f32) -> f32,
) {
    let start = samples_for(start_s, rate);
    for i in 0..samples_for(len_s, rate) {
        let idx = (start + i) % buf.len();
        buf[idx] += f(i as f32 / rate as f32);
    }
}

// ---- music ---------------------------------------------------------------------------------
//
// The music is layered at run time from short loops whose lengths in bars are 4 (each world's
// backing), 7 (the melody) and 3 (percussion). All share one tempo and start together, so they
// stay in time, and the whole only repeats after 84 bars (3 minutes); backing and melody meet
// again only after 28 bars, exactly one minute at 112 bpm. Each world has its own backing
// (chords, bass and pad voice); the melody, in A minor pentatonic, fits all three progressions.

const MUSIC_BPM: u32 = 112;
/// A bar of four beats in samples at the loop rate: 11025 * 240 / 112 = 23625 exactly, so every
/// layer is a whole number of samples and they never drift apart.
const SAMPLES_PER_BAR: usize = (LOOP_RATE_HZ * 240 / MUSIC_BPM) as usize;
const BEAT_S: f32 = 60.0 / MUSIC_BPM as f32;
const BAR_S: f32 = 4.0 * BEAT_S;

fn soft_tone(f: f32, u: f32) -> f32 {
    sin(2.0 * PI * f * u) + 0.12 * sin(2.0 * PI * 3.0 * f * u)
}

/// A world's backing: its chord progression (MIDI notes, one chord per bar) and voicing.
struct Backing {
    chords: [[i32; 3]; 4],
    /// Pad tremolo rate (0 = steady).
    tremolo_hz: f32,
    /// Bass plays eighth notes (driving) instead of beats one and three.
    driving_bass: bool,
    /// Octave shift of the pad.
    pad_shift: i32,
}

const BACKINGS: [Backing; 3] = [
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

fn backing(world: usize) -> Vec<f32> {
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

fn backing_dusk() -> Vec<f32> {
    backing(0)
}
fn backing_forest() -> Vec<f32> {
    backing(1)
}
fn backing_ember() -> Vec<f32> {
    backing(2)
}

/// Seven bars of melody in A minor pentatonic: a seeded walk over the scale with rhythms picked
/// from a few one-bar cells, resting now and then, ending on the tonic.
fn melody() -> Vec<f32> {
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
fn percussion() -> Vec<f32> {
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

// ---- output ----------------------------------------------------------------------------------

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
