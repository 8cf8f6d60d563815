//! The sound effects, one function each, rendered at the effects' rate.

use std::f32::consts::PI;

use crate::dsp::*;

pub fn hook_fire() -> Vec<f32> {
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

pub fn attach_point() -> Vec<f32> {
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

pub fn attach_surface() -> Vec<f32> {
    // A dull thunk into wood or rock: a falling low tone and a muffled noise burst.
    let mut osc = Osc::default();
    let mut lp = LowPass::default();
    render(0.2, FX_RATE_HZ, 0x3456_789a, |t, rng| {
        let tone = osc.step(70.0 + 110.0 * exp(-t / 0.03), FX_RATE_HZ) * exp(-t / 0.06);
        let burst = lp.run(rng.noise(), 1200.0, FX_RATE_HZ) * exp(-t / 0.02);
        tone + 1.5 * burst
    })
}

pub fn hook_missed() -> Vec<f32> {
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

pub fn hook_bounced() -> Vec<f32> {
    // A ricochet tink off something the hook cannot grip.
    let mut osc = Osc::default();
    render(0.15, FX_RATE_HZ, 0x5678_9abc, |t, rng| {
        let tink = osc.step(1800.0 + 700.0 * exp(-t / 0.02), FX_RATE_HZ) * exp(-t / 0.035);
        let click = rng.noise() * exp(-t / 0.003);
        tink + 0.6 * click
    })
}

pub fn released() -> Vec<f32> {
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

pub fn snapped() -> Vec<f32> {
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

pub fn crumbled() -> Vec<f32> {
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

pub fn jumped() -> Vec<f32> {
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

pub fn landed() -> Vec<f32> {
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

pub fn died() -> Vec<f32> {
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

pub fn respawned() -> Vec<f32> {
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
pub fn chime(t: f32, start_s: f32, freq_hz: f32, decay_s: f32) -> f32 {
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

pub fn checkpoint() -> Vec<f32> {
    // Two rising bell notes: E5, B5.
    render(0.6, FX_RATE_HZ, 0xbcde_f012, |t, _| {
        chime(t, 0.0, midi_hz(76), 0.2) + chime(t, 0.11, midi_hz(83), 0.25)
    })
}

pub fn goal() -> Vec<f32> {
    // A major arpeggio up to the octave: C5 E5 G5 C6.
    let notes = [(0.0, 72), (0.1, 76), (0.2, 79), (0.3, 84)];
    render(0.9, FX_RATE_HZ, 0xcdef_0123, |t, _| {
        notes
            .iter()
            .map(|&(start, note)| chime(t, start, midi_hz(note), 0.3))
            .sum()
    })
}
