//! Runs every rope workload with the reference port (`ref-gs80`) and the project's rope in the
//! same process and prints one table: speed (as ref/ours ratios), stretch, penetration, resting
//! speed and tunnelling. `cargo run --release --example rope_stats` (docs/rope.md explains it).

// Each user of the shared module needs a different part of it.
#[allow(dead_code)]
#[path = "../benches/rope_support/mod.rs"]
mod rope_support;

use rope_support::{
    drape, hang, hang_heavy, run, whip, Sim, Stats, Workload, RADIUS_M, SCALE_NODES,
};

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

fn main() {
    let headline = [hang(200), hang_heavy(), drape(200), whip(200)];
    let rows: Vec<Row> = headline.iter().map(measure).collect();
    println!("## Workloads (median µs per 0.01 s step; ratio = ref-gs80 / ours)\n");
    print_header();
    rows.iter().for_each(print_row);

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

    println!("\n## Goals (ours, against ref-gs80 in this run)\n");
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
