//! The ambient loops: the rope's creak and the wind.

use std::f32::consts::PI;

use crate::dsp::*;

pub fn rope_creak() -> Vec<f32> {
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

pub fn wind() -> Vec<f32> {
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
