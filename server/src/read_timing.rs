//! Per-stage timing of the board reads, for an operator looking for a latency tail: with
//! `TETHER_READ_TIMING=1` the server prints, once a second, how many board tops and places were
//! answered from the cache and from the database, and how long a database answer and a wait for
//! a pooled read connection took (median, 99th percentile and worst, by power-of-two buckets of
//! microseconds). Off (one relaxed load per read) unless the variable is set.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What is timed.
#[derive(Clone, Copy, Debug)]
pub enum Stage {
    TopHit,
    TopMiss,
    PlaceHit,
    PlaceMiss,
    /// Waiting for a connection from the GETs' pool.
    PoolWait,
    /// One shared commit of SQLite's writer task (writes.rs); its count is commits a second.
    Commit,
}

const STAGES: [(&str, Stage); 6] = [
    ("top hit", Stage::TopHit),
    ("top miss", Stage::TopMiss),
    ("place hit", Stage::PlaceHit),
    ("place miss", Stage::PlaceMiss),
    ("pool wait", Stage::PoolWait),
    ("commit", Stage::Commit),
];
/// Bucket `b` holds durations of 2^(b-1) to 2^b µs; the last holds everything longer.
const BUCKETS: usize = 24;

static ENABLED: AtomicBool = AtomicBool::new(false);
/// Writes committed by SQLite's writer task since the last report.
static WRITES_COMMITTED: AtomicU64 = AtomicU64::new(0);
static COUNTS: [[AtomicU64; BUCKETS]; STAGES.len()] =
    [const { [const { AtomicU64::new(0) }; BUCKETS] }; STAGES.len()];

/// Starts the once-a-second report if `TETHER_READ_TIMING` is set (call once, in the runtime).
pub fn start_if_asked() {
    if std::env::var_os("TETHER_READ_TIMING").is_none_or(|v| v.is_empty() || v == "0") {
        return;
    }
    ENABLED.store(true, Ordering::Relaxed);
    tokio::spawn(async {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            report();
        }
    });
}

/// A timer for `stage`, or none when timing is off.
pub fn start() -> Option<Instant> {
    ENABLED.load(Ordering::Relaxed).then(Instant::now)
}

/// Counts the time since `started` (from `start`) for `stage`.
pub fn record(stage: Stage, started: Option<Instant>) {
    let Some(started) = started else { return };
    let micros = started.elapsed().as_micros() as u64;
    let bucket = (u64::BITS - micros.leading_zeros()) as usize;
    COUNTS[stage as usize][bucket.min(BUCKETS - 1)].fetch_add(1, Ordering::Relaxed);
}

/// Counts one shared commit of `writes` writes (writes.rs); its duration is not timed.
pub fn record_commit(writes: usize) {
    if ENABLED.load(Ordering::Relaxed) {
        WRITES_COMMITTED.fetch_add(writes as u64, Ordering::Relaxed);
        COUNTS[Stage::Commit as usize][0].fetch_add(1, Ordering::Relaxed);
    }
}

/// Prints and clears the last second's counts, one line per stage that saw any.
fn report() {
    let mut line = String::from("read timing (last second, µs bucket tops):");
    for (name, stage) in STAGES {
        let counts: Vec<u64> = COUNTS[stage as usize]
            .iter()
            .map(|c| c.swap(0, Ordering::Relaxed))
            .collect();
        let total: u64 = counts.iter().sum();
        if total == 0 {
            continue;
        }
        let quantile = |q: f64| {
            let wanted = ((total as f64 * q).ceil() as u64).max(1);
            let mut seen = 0;
            counts
                .iter()
                .position(|&c| {
                    seen += c;
                    seen >= wanted
                })
                .map_or(0, |b| 1u64 << b)
        };
        line += &format!(
            " | {name} {total}: p50 {} p99 {} max {}",
            quantile(0.5),
            quantile(0.99),
            quantile(1.0)
        );
    }
    let writes = WRITES_COMMITTED.swap(0, Ordering::Relaxed);
    if writes > 0 {
        line += &format!(" | {writes} writes committed");
    }
    eprintln!("{line}");
}
