//! Runs the step benches' worlds for a given number of ticks, for counting instructions with
//! `perf stat -e instructions:u`: a count the machine's load does not move, where the criterion
//! medians do (2 shared cores). The setup (building the world and its settling ticks) is counted
//! too, so measure with 0 ticks as well and subtract:
//!
//! ```sh
//! cargo build --release --example tick_cost
//! for n in 0 200; do perf stat -x, -e instructions:u target/release/examples/tick_cost stress bench $n; done
//! ```
//!
//! Workloads: `stress`, `weather`, `weather_without_cloth`, `banner` (the benches' worlds).
//! Modes: `bench` steps a copy of the bench's starting state once per iteration, as criterion
//! does (the copy's cost is counted: `clone` measures it alone); `run` steps the same world on
//! for that many ticks (the workload over time, not one moment of it).

// Each user of the shared module needs a different part of it.
#[allow(dead_code)]
#[path = "../benches/step_support/mod.rs"]
mod step_support;

use step_support::{banner_in_gale, step_banner, stress_world, weather_world};
use tether::sim::{InputFrame, World};

enum Mode {
    Bench,
    Run,
    Clone,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: tick_cost stress|weather|weather_without_cloth|banner bench|run|clone TICKS";
    let [workload, mode, ticks] = args.as_slice() else {
        panic!("{usage}");
    };
    let mode = match mode.as_str() {
        "bench" => Mode::Bench,
        "run" => Mode::Run,
        "clone" => Mode::Clone,
        _ => panic!("{usage}"),
    };
    let ticks: usize = ticks.parse().expect(usage);
    let world = match workload.as_str() {
        "stress" => stress_world(),
        "weather" => weather_world(true),
        "weather_without_cloth" => weather_world(false),
        "banner" => return run_banner(&mode, ticks),
        _ => panic!("{usage}"),
    };
    let input = InputFrame::default();
    // Bench and clone modes: the last copy's tick; run mode: the state hash at the end.
    let mut checksum = 0u64;
    match mode {
        Mode::Bench => {
            for _ in 0..ticks {
                let mut w = world.clone();
                w.step(&input);
                std::hint::black_box(&mut w);
                checksum = w.tick();
            }
        }
        Mode::Run => {
            let mut w: World = world;
            for _ in 0..ticks {
                w.step(&input);
            }
            checksum = w.state_hash();
        }
        Mode::Clone => {
            for _ in 0..ticks {
                let w = world.clone();
                checksum = std::hint::black_box(&w).tick();
            }
        }
    }
    println!("{workload}: {ticks} ticks, check {checksum:016x}");
}

fn run_banner(mode: &Mode, ticks: usize) {
    let (geometry, banner) = banner_in_gale();
    let mut moved = 0.0f32;
    let step = |cloth: &mut tether::sim::cloth::Cloth| step_banner(&geometry, cloth);
    match mode {
        Mode::Bench => {
            for _ in 0..ticks {
                let mut cloth = banner.clone();
                step(&mut cloth);
                moved += std::hint::black_box(&cloth).at(31, 23).x;
            }
        }
        Mode::Run => {
            let mut cloth = banner.clone();
            for _ in 0..ticks {
                step(&mut cloth);
            }
            moved = cloth.at(31, 23).x;
        }
        Mode::Clone => {
            for _ in 0..ticks {
                let cloth = banner.clone();
                moved += std::hint::black_box(&cloth).at(31, 23).x;
            }
        }
    }
    println!("banner: {ticks} ticks, corner x sum {moved}");
}
