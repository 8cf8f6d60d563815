//! Runs every rope workload with the reference port (`ref-gs80`) and the project's rope in the
//! same process and prints one table: speed (as ref/ours ratios), stretch, penetration, resting
//! speed and tunnelling. `cargo run --release --example rope_stats` (docs/rope.md explains it);
//! `-- --only whip` runs one headline workload alone (hang-200, hang-400-heavy, drape-200,
//! whip-200; a name's start is enough) and a fingerprint of our rope's final nodes; with
//! `--ours` added, only our rope is stepped, nothing measured (for a profiler).

// Each user of the shared module needs a different part of it.
#[allow(dead_code)]
#[path = "../benches/rope_support/mod.rs"]
mod rope_support;
// Each user of the shared module needs a different part of it.
#[allow(dead_code)]
#[path = "../benches/step_support/mod.rs"]
mod step_support;

use std::path::Path;
use std::time::Instant;

use rope_support::slack::{game_tuning, slack_workloads, SlackRun};
use rope_support::{
    drape, hang, hang_heavy, run, whip, Sim, Stats, Workload, RADIUS_M, SCALE_NODES,
};
use tether::sim::rope_shape::{self, measure_replay, ShapeTally, MAX_FREE_BEND_DEG};
use tether::sim::Replay;

struct Row {
    workload: String,
    reference: Stats,
    ours: Stats,
}

fn measure(w: &Workload) -> Row {
    let reference = run(w, &mut Sim::reference(w));
    let ours = run(w, &mut Sim::ours(w));
    Row {
        workload: w.name.clone(),
        reference,
        ours,
    }
}

fn print_header() {
    println!(
        "| {:<15} | {:<8} | {:>9} | {:>7} | {:>8} | {:>8} | {:>8} | {:>8} | {:>7} | {:>7} | {:>8} | {:>6} |",
        "workload",
        "rope",
        "µs/step",
        "ref/ours",
        "total%rest",
        "total%peak",
        "seg%rest",
        "seg%peak",
        "pen mm rest",
        "pen mm peak",
        "rms mm/s",
        "tunnel"
    );
    println!("|{}|", ["---"; 12].join("|"));
}

fn print_stats(workload: &str, label: &str, s: &Stats, ratio: Option<f64>) {
    let ratio = ratio.map_or("".to_string(), |r| format!("{r:.1}×"));
    println!(
        "| {:<15} | {:<8} | {:>9.1} | {:>7} | {:>8.3} | {:>8.3} | {:>8.3} | {:>8.3} | {:>7.3} | {:>7.3} | {:>8.3} | {:>6} |",
        workload,
        label,
        s.median_us_per_step,
        ratio,
        s.stretch_rest_pct,
        s.stretch_peak_pct,
        s.seg_rest_pct,
        s.seg_peak_pct,
        s.pen_rest_m * 1000.0,
        s.pen_peak_m * 1000.0,
        s.rms_rest_m_per_s * 1000.0,
        s.tunnel_events
    );
}

fn print_row(row: &Row) {
    print_stats(&row.workload, "ref-gs80", &row.reference, None);
    let ratio = row.reference.median_us_per_step / row.ours.median_us_per_step;
    print_stats(&row.workload, "ours", &row.ours, Some(ratio));
}

fn goal(name: &str, met: bool, detail: String) {
    println!(
        "- [{}] {name}: {detail}",
        if met { "met" } else { "NOT MET" }
    );
}

fn print_shape_header(first: &str) {
    println!(
        "| {first} | rope ticks | ticks with a self-crossing | most at once | ticks with a free bend > {MAX_FREE_BEND_DEG:.0}° | sharpest free bend | µs/tick |"
    );
    println!("|---|---|---|---|---|---|---|");
}

fn print_shape_row(name: &str, t: &ShapeTally, us_per_tick: Option<f64>) {
    println!(
        "| {name} | {} | {} ({:.1} %) | {} | {} ({:.1} %) | {:.0}° | {} |",
        t.rope_ticks,
        t.ticks_crossing,
        t.crossing_pct(),
        t.max_crossings,
        t.ticks_sharp_bend,
        t.sharp_bend_pct(),
        t.sharpest_bend_deg,
        us_per_tick.map_or("—".to_string(), |us| format!("{us:.1}"))
    );
}

/// The slack workloads (benches/rope_support/slack.rs) and every shipped solution replay:
/// the rope's shape per tick. Returns the tally over all of them.
fn slack_tables() -> ShapeTally {
    let tuning = game_tuning();
    let mut all = ShapeTally::default();
    println!("\n## Slack rope (the game's rope: 0.3 m segments, 50× player end, 8 substeps)\n");
    print_shape_header("workload");
    for w in slack_workloads() {
        let mut run = SlackRun::new(&w, &tuning);
        let mut tally = ShapeTally::default();
        let mut times_us = Vec::with_capacity(w.ticks);
        for _ in 0..w.ticks {
            let start = Instant::now();
            run.step();
            times_us.push(start.elapsed().as_secs_f64() * 1e6);
            let rope = &run.rope;
            tally.add(rope_shape::measure(
                &rope.nodes,
                rope.touching(),
                rope.nominal_segment_m(),
            ));
        }
        times_us.sort_by(f64::total_cmp);
        print_shape_row(w.name, &tally, Some(times_us[times_us.len() / 2]));
        all.merge(&tally);
    }

    println!("\n## Solution replays (the player's rope on every tick it exists)\n");
    print_shape_header("replay");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("levels/solutions"))
        .expect("levels/solutions exists")
        .map(|e| e.expect("dir entry").path())
        .collect();
    files.sort();
    for path in files {
        let text = tether::cli::read_text(&path).expect("readable");
        let replay = Replay::from_ron(&text, &path.display().to_string()).expect("parses");
        let mut world =
            tether::cli::load_world(&root.join("levels").join(&replay.level), tuning.clone())
                .expect("level loads");
        let mut tally = ShapeTally::default();
        measure_replay(&replay, &mut world)
            .iter()
            .for_each(|(_, shape)| tally.add(*shape));
        print_shape_row(&path.file_name().unwrap().to_string_lossy(), &tally, None);
        all.merge(&tally);
    }
    all
}

/// Quality of the level's own ropes (vines and winch ropes, which take their substeps by need:
/// `Rope::substeps_needed`) over `ticks` ticks of a step bench's world, from its bench state.
struct LevelRopeStats {
    rope_ticks: usize,
    /// Largest total stretch (Σ segment lengths / rest length − 1) and single segment's
    /// stretch, in %, over every rope and tick.
    total_stretch_peak_pct: f32,
    segment_stretch_peak_pct: f32,
    /// Mean over rope ticks of the total stretch, in %.
    total_stretch_mean_pct: f32,
    crossing_ticks: usize,
    most_crossings: usize,
    /// Rope ticks with a node (not the anchor) inside a solid at the end of the tick.
    nodes_inside_ticks: usize,
    /// Substeps per rope tick, on average.
    mean_substeps: f32,
}

fn level_rope_stats(mut world: tether::sim::World, ticks: usize) -> LevelRopeStats {
    let input = tether::sim::InputFrame::default();
    let mut stats = LevelRopeStats {
        rope_ticks: 0,
        total_stretch_peak_pct: 0.0,
        segment_stretch_peak_pct: 0.0,
        total_stretch_mean_pct: 0.0,
        crossing_ticks: 0,
        most_crossings: 0,
        nodes_inside_ticks: 0,
        mean_substeps: 0.0,
    };
    let mut substeps = 0u64;
    let mut stretch_sum = 0.0f64;
    for _ in 0..ticks {
        world.step(&input);
        let ropes = world.vines().iter().map(|v| &v.rope);
        for rope in ropes.chain(world.winches().iter().map(|w| &w.rope)) {
            stats.rope_ticks += 1;
            substeps += rope.last_substeps() as u64;
            let total = (rope.measured_length_m() / rope.length_m - 1.0) * 100.0;
            stats.total_stretch_peak_pct = stats.total_stretch_peak_pct.max(total);
            stretch_sum += total.max(0.0) as f64;
            let last = rope.segment_count();
            for i in 0..last {
                let rest = if i + 1 == last {
                    rope.last_segment_rest_m()
                } else {
                    rope.nominal_segment_m()
                };
                let stretch = (rope.nodes[i].distance(rope.nodes[i + 1]) / rest - 1.0) * 100.0;
                stats.segment_stretch_peak_pct = stats.segment_stretch_peak_pct.max(stretch);
            }
            let crossings = rope_shape::self_crossings(&rope.nodes);
            stats.crossing_ticks += (crossings > 0) as usize;
            stats.most_crossings = stats.most_crossings.max(crossings);
            let inside = rope.nodes[1..].iter().any(|&p| {
                world
                    .geometry()
                    .project_on_solids(p, 0.0)
                    .is_some_and(|projection| projection.is_inside)
            });
            stats.nodes_inside_ticks += inside as usize;
        }
    }
    stats.total_stretch_mean_pct = (stretch_sum / stats.rope_ticks.max(1) as f64) as f32;
    stats.mean_substeps = substeps as f32 / stats.rope_ticks.max(1) as f32;
    stats
}

fn level_rope_tables() {
    println!(
        "\n## Level ropes (every vine and winch rope, each tick, from the step benches' states)\n"
    );
    println!("| world | rope ticks | mean substeps | total stretch mean / peak % | worst segment peak % | ticks with a self-crossing (most) | ticks with a node inside a solid |");
    println!("|---|---|---|---|---|---|---|");
    let worlds = [
        ("stress, 600 ticks", step_support::stress_world()),
        (
            "weather without cloth, 600 ticks",
            step_support::weather_world(false),
        ),
    ];
    for (name, world) in worlds {
        let s = level_rope_stats(world, 600);
        println!(
            "| {name} | {} | {:.2} | {:.4} / {:.3} | {:.3} | {} ({}) | {} |",
            s.rope_ticks,
            s.mean_substeps,
            s.total_stretch_mean_pct,
            s.total_stretch_peak_pct,
            s.segment_stretch_peak_pct,
            s.crossing_ticks,
            s.most_crossings,
            s.nodes_inside_ticks
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--level-ropes") {
        level_rope_tables();
        return;
    }
    if std::env::args().any(|a| a == "--slack") {
        slack_tables();
        return;
    }
    let headline = [hang(200), hang_heavy(), drape(200), whip(200)];
    if let Some(prefix) = only_workload() {
        // One workload alone: `--only whip` prints its row; `--only whip --ours` steps only our
        // rope through it, measuring nothing, for a profiler.
        if std::env::args().any(|a| a == "--ours") {
            for w in headline.iter().filter(|w| w.name.starts_with(&prefix)) {
                println!("{}: ours' final nodes {:016x}", w.name, final_nodes_hash(w));
            }
            return;
        }
        print_header();
        headline
            .iter()
            .filter(|w| w.name.starts_with(&prefix))
            .for_each(|w| {
                print_row(&measure(w));
                println!("{}: ours' final nodes {:016x}", w.name, final_nodes_hash(w));
            });
        return;
    }
    let rows: Vec<Row> = headline.iter().map(measure).collect();
    println!("## Workloads (median µs per 0.01 s step; ratio = ref-gs80 / ours)\n");
    print_header();
    rows.iter().for_each(print_row);

    print_scale_table();
    let slack = slack_tables();
    level_rope_tables();
    println!("\n## Goals (ours, against ref-gs80 in this run)\n");
    print_goals(&rows, &slack);
}

/// FNV-1a of our rope's node bits after the whole workload: a speed change that keeps the
/// results keeps this.
fn final_nodes_hash(w: &Workload) -> u64 {
    let mut sim = Sim::ours(w);
    for step in 0..w.steps {
        sim.step(w, step);
    }
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for p in sim.nodes() {
        for bits in [p.x.to_bits(), p.y.to_bits()] {
            hash = (hash ^ u64::from(bits)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The name (or its start) after `--only`: run just the headline workloads it names.
fn only_workload() -> Option<String> {
    let mut args = std::env::args().skip_while(|a| a != "--only");
    args.next()?;
    Some(
        args.next()
            .expect("--only takes a workload name, e.g. --only whip"),
    )
}

/// How the cost per step grows with the rope's node count, ours against the reference.
fn print_scale_table() {
    println!("\n## Scale (µs per step per node)\n");
    println!("| workload | N | ref µs/step | ours µs/step | ref µs/step/node | ours µs/step/node | ref/ours |");
    println!("|---|---|---|---|---|---|---|");
    for make in [hang as fn(usize) -> Workload, drape] {
        for n in SCALE_NODES {
            let w = make(n);
            let row = measure(&w);
            let (r, o) = (
                row.reference.median_us_per_step,
                row.ours.median_us_per_step,
            );
            println!(
                "| {} | {n} | {r:.1} | {o:.1} | {:.4} | {:.4} | {:.1}× |",
                w.name,
                r / n as f64,
                o / n as f64,
                r / o
            );
        }
    }
}

/// Each goal of the rope work, met or not, from the headline workloads' `rows` (hang-200,
/// hang-400-heavy, drape-200, whip-200) and the slack tallies.
fn print_goals(rows: &[Row], slack: &ShapeTally) {
    goal(
        "slack: ≤ 1 % of rope ticks with a self-crossing, never more than one at once",
        slack.crossing_pct() <= 1.0 && slack.max_crossings <= 1,
        format!(
            "{:.2} %, at most {}",
            slack.crossing_pct(),
            slack.max_crossings
        ),
    );
    goal(
        "slack: ≤ 1 % of rope ticks with a free bend over 90°",
        slack.sharp_bend_pct() <= 1.0,
        format!(
            "{:.2} %, sharpest {:.0}°",
            slack.sharp_bend_pct(),
            slack.sharpest_bend_deg
        ),
    );
    let (hang200, heavy, drape200, whip200) = (&rows[0], &rows[1], &rows[2], &rows[3]);
    let speedup = hang200.reference.median_us_per_step / hang200.ours.median_us_per_step;
    goal(
        "hang-200 ≥ 15× faster, total stretch ≤ 0.1% at rest",
        speedup >= 15.0 && hang200.ours.stretch_rest_pct <= 0.1,
        format!("{speedup:.1}×, {:.4}%", hang200.ours.stretch_rest_pct),
    );
    let d = &drape200.ours;
    goal(
        "drape-200 ≤ 40 µs/step, penetration ≤ 10% of radius, resting RMS speed < 1 mm/s",
        d.median_us_per_step <= 40.0
            && d.pen_rest_m <= 0.1 * RADIUS_M
            && d.rms_rest_m_per_s < 0.001,
        format!(
            "{:.1} µs/step, {:.2} mm pen ({:.1}% of radius), {:.3} mm/s",
            d.median_us_per_step,
            d.pen_rest_m * 1000.0,
            d.pen_rest_m / RADIUS_M * 100.0,
            d.rms_rest_m_per_s * 1000.0
        ),
    );
    goal(
        "whip-200 zero tunnelling",
        whip200.ours.tunnel_events == 0,
        format!(
            "{} events (ref-gs80: {})",
            whip200.ours.tunnel_events, whip200.reference.tunnel_events
        ),
    );
    goal(
        "hang-400-heavy peak stretch ≤ 1% while it swings",
        heavy.ours.stretch_peak_pct <= 1.0,
        format!(
            "{:.4}% (ref-gs80: {:.2}%)",
            heavy.ours.stretch_peak_pct, heavy.reference.stretch_peak_pct
        ),
    );
}
