//! The synthesis toolkit: deterministic sin/exp, a seeded noise source, filters,
//! oscillators, and the fades and loops every sound goes through.

use std::f32::consts::PI;

pub const FX_RATE_HZ: u32 = 44100;
pub const LOOP_RATE_HZ: u32 = 11025;
/// Peak level after normalisation: leaves headroom for several sounds at once.
pub const PEAK: f32 = 0.85;

pub fn sin(x: f32) -> f32 {
    libm::sinf(x)
}
pub fn exp(x: f32) -> f32 {
    libm::expf(x)
}
/// `powi` may lower to different code on different targets; a product does not.
pub fn sq(x: f32) -> f32 {
    x * x
}

/// xorshift32: tiny, fast, and the same sequence everywhere.
pub struct Rng(pub u32);

impl Rng {
    pub fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
    /// Uniform in [-1, 1).
    pub fn noise(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }
}

/// One-pole low-pass filter; `cutoff_hz` may change every sample.
#[derive(Default)]
pub struct LowPass {
    pub y: f32,
}

impl LowPass {
    pub fn run(&mut self, x: f32, cutoff_hz: f32, rate: u32) -> f32 {
        let a = 1.0 - exp(-2.0 * PI * cutoff_hz / rate as f32);
        self.y += a * (x - self.y);
        self.y
    }
}

/// Two-pole resonator (a band-pass ringing at `freq_hz`).
pub struct Resonator {
    y1: f32,
    y2: f32,
    b1: f32,
    b2: f32,
}

impl Resonator {
    pub fn new(freq_hz: f32, bandwidth_hz: f32, rate: u32) -> Resonator {
        let r = exp(-PI * bandwidth_hz / rate as f32);
        let w = 2.0 * PI * freq_hz / rate as f32;
        Resonator {
            y1: 0.0,
            y2: 0.0,
            b1: 2.0 * r * libm::cosf(w),
            b2: -r * r,
        }
    }
    pub fn run(&mut self, x: f32) -> f32 {
        let y = x + self.b1 * self.y1 + self.b2 * self.y2;
        self.y2 = self.y1;
        self.y1 = y;
        y
    }
}

pub fn midi_hz(note: i32) -> f32 {
    440.0 * libm::powf(2.0, (note - 69) as f32 / 12.0)
}

pub fn samples_for(seconds: f32, rate: u32) -> usize {
    (seconds * rate as f32) as usize
}

/// Renders `seconds` of sound, calling `f(t_s, rng)` per sample.
pub fn render(
    seconds: f32,
    rate: u32,
    seed: u32,
    mut f: impl FnMut(f32, &mut Rng) -> f32,
) -> Vec<f32> {
    let mut rng = Rng(seed);
    (0..samples_for(seconds, rate))
        .map(|i| f(i as f32 / rate as f32, &mut rng))
        .collect()
}

/// A phase accumulator, for tones whose pitch glides (sin of a changing frequency times t
/// would chirp wrongly).
#[derive(Default)]
pub struct Osc {
    pub phase: f32,
}

impl Osc {
    pub fn step(&mut self, freq_hz: f32, rate: u32) -> f32 {
        let out = sin(2.0 * PI * self.phase);
        self.phase += freq_hz / rate as f32;
        self.phase -= self.phase.floor();
        out
    }
}

/// Short fade in/out so no effect starts or ends with a click.
pub fn declick(samples: &mut [f32], rate: u32) {
    let n = samples_for(0.003, rate).min(samples.len() / 2);
    for i in 0..n {
        let g = i as f32 / n as f32;
        samples[i] *= g;
        let last = samples.len() - 1 - i;
        samples[last] *= g;
    }
}

pub fn normalise(samples: &mut [f32], peak: f32) {
    let max = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if max > 0.0 {
        let gain = peak / max;
        samples.iter_mut().for_each(|s| *s *= gain);
    }
}

/// Makes `samples` (rendered `fade` samples longer than the loop) loop seamlessly: the extra tail
/// is cross-faded (equal power) into the start, then dropped.
pub fn crossfade_loop(mut samples: Vec<f32>, loop_len: usize) -> Vec<f32> {
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

/// Adds a note into a looping buffer: anything past the end wraps to the start, so the loop
/// is seamless.
pub fn add_wrapped(
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
