//! Criterion benches of the rope workloads: every workload runs the reference port `ref-gs80` and
//! the project's rope side by side, one step per iteration, so their times can be read as a
//! ratio from the same run. `examples/rope_stats.rs` measures the same workloads' quality.

// Each user of the shared module needs a different part of it.
#[allow(dead_code)]
mod rope_support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rope_support::slack::{game_tuning, slack_workloads, SlackRun};
use rope_support::{drape, hang, hang_heavy, settled, whip, Sim, Workload, SCALE_NODES};

/// Steps run before timing so that hang and drape are timed at rest, as their goals are stated.
const SETTLE_STEPS: usize = 300;

fn bench_pair(c: &mut Criterion, group_name: &str, w: &Workload, settle_steps: usize) {
    let mut group = c.benchmark_group(group_name);
    for make in [Sim::reference as fn(&Workload) -> Sim, Sim::ours] {
        let mut sim = settled(w, make(w), settle_steps);
        let mut step = settle_steps;
        group.bench_function(BenchmarkId::new(sim.label(), w.nodes()), |b| {
            b.iter(|| {
                sim.step(w, step);
                step += 1;
            })
        });
    }
    group.finish();
}

fn workloads(c: &mut Criterion) {
    bench_pair(c, "hang-200", &hang(200), SETTLE_STEPS);
    // Timed from the release: the goal is about the swing.
    bench_pair(c, "hang-400-heavy", &hang_heavy(), 0);
    bench_pair(c, "drape-200", &drape(200), SETTLE_STEPS);
    bench_pair(c, "whip-200", &whip(200), 0);
}

fn scale(c: &mut Criterion) {
    for n in SCALE_NODES {
        bench_pair(c, "scale-hang", &hang(n), SETTLE_STEPS);
        bench_pair(c, "scale-drape", &drape(n), SETTLE_STEPS);
    }
}

/// The game's rope going slack (benches/rope_support/slack.rs): one tick per iteration, from the
/// workload's start; the run restarts when it reaches its end, so every phase is in the sample.
fn slack(c: &mut Criterion) {
    let tuning = game_tuning();
    let mut group = c.benchmark_group("slack");
    for w in slack_workloads() {
        let mut run = SlackRun::new(&w, &tuning);
        group.bench_function(w.name, |b| {
            b.iter(|| {
                if run.tick >= w.ticks {
                    run = SlackRun::new(&w, &tuning);
                }
                run.step();
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = workloads, scale, slack
}
criterion_main!(benches);
