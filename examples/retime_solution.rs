//! Re-times a solution replay that a deliberate change of the simulation broke: moves each of
//! its input changes (the boundaries between its runs) a few ticks earlier or later, one at a
//! time, plays every such variant through the real simulation, and lists those that reach the
//! goal, nearest to the old goal tick and smallest move first. A run of one tick (a press) is
//! moved whole rather than lengthened. `--write` stores the best variant over the solution,
//! stamped with this build's simulation version.
//!
//!   cargo run --release --example retime_solution -- levels/solutions/14_drawbridge.ron \
//!       [--from TICK] [--to TICK] [--shift N] [--write]
//!
//! Nothing is invented: every variant is the old run's own inputs with one change moved, so
//! the replay still shows a person's plan. Searches of this kind re-timed 23 Rotten Tower
//! (stop 49), 14 Drawbridge (stop 51) and the solutions of stop 53 (docs/rope.md).

use std::path::Path;
use std::sync::Arc;

use tether::sim::{Replay, World};

struct Found {
    goal_tick: u64,
    boundary_tick: u64,
    shift: i64,
    replay: Replay,
}

fn usage() -> ! {
    eprintln!(
        "usage: retime_solution SOLUTION.ron [--from TICK] [--to TICK] [--shift N] [--write]"
    );
    std::process::exit(2);
}

struct Args {
    path: String,
    from_tick: u64,
    to_tick: u64,
    max_shift: i64,
    write: bool,
}

fn parse_args() -> Args {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else { usage() };
    let mut parsed = Args {
        path: path.clone(),
        from_tick: 0,
        to_tick: u64::MAX,
        max_shift: 8,
        write: false,
    };
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let mut number = || -> u64 {
            rest.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage())
        };
        match flag.as_str() {
            "--from" => parsed.from_tick = number(),
            "--to" => parsed.to_tick = number(),
            "--shift" => parsed.max_shift = number() as i64,
            "--write" => parsed.write = true,
            _ => usage(),
        }
    }
    parsed
}

fn main() {
    let args = parse_args();
    let path = &args.path;
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let old = Replay::from_ron(&text, path).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let level = Path::new("levels").join(&old.level);
    let tuning = tether::cli::load_tuning(Path::new(".")).expect("assets/tuning.ron loads");
    let play = |replay: &Replay| {
        let mut world: World =
            tether::cli::load_world(&level, Arc::clone(&tuning)).expect("the level loads");
        replay.run(&mut world)
    };
    let before = play(&old);
    let old_goal_tick = old.tick_count();
    println!(
        "{path}: recorded for the goal at tick {old_goal_tick}; on this build goal={} ticks={}",
        if before.goal_reached {
            "reached"
        } else {
            "not-reached"
        },
        before.ticks
    );
    let (tried, mut found) = variants_reaching_the_goal(&old, &args, play);
    found.sort_by_key(|f| (f.goal_tick.abs_diff(old_goal_tick), f.shift.unsigned_abs()));
    println!(
        "{tried} variants played, {} reach the goal without a death",
        found.len()
    );
    for f in found.iter().take(20) {
        println!(
            "  goal at {} ({:+}): the change at tick {} moved {:+}",
            f.goal_tick,
            f.goal_tick as i64 - old_goal_tick as i64,
            f.boundary_tick,
            f.shift
        );
    }
    if let (true, Some(best)) = (args.write, found.first()) {
        let mut replay = truncated(&best.replay, best.goal_tick);
        replay.sim_version = tether::sim::SIM_VERSION;
        std::fs::write(path, replay.to_ron()).expect("the solution is writable");
        println!("wrote {path} (goal at tick {})", best.goal_tick);
    }
}

/// Plays every variant of `old` with one change in the window moved; returns how many were
/// played and those that reach the goal without a death.
fn variants_reaching_the_goal(
    old: &Replay,
    args: &Args,
    play: impl Fn(&Replay) -> tether::sim::ReplayOutcome,
) -> (usize, Vec<Found>) {
    let mut found = Vec::new();
    let mut tried = 0usize;
    let mut boundary_tick = 0u64;
    for boundary in 0..old.runs.len().saturating_sub(1) {
        boundary_tick += old.runs[boundary].0 as u64;
        if boundary_tick < args.from_tick || boundary_tick > args.to_tick {
            continue;
        }
        for shift in (-args.max_shift..=args.max_shift).filter(|&s| s != 0) {
            let Some(replay) = moved(old, boundary, shift) else {
                continue;
            };
            tried += 1;
            let outcome = play(&replay);
            if outcome.goal_reached && outcome.deaths == 0 {
                found.push(Found {
                    goal_tick: outcome.ticks,
                    boundary_tick,
                    shift,
                    replay,
                });
            }
        }
    }
    (tried, found)
}

/// `old` with the change between runs `boundary` and `boundary + 1` moved by `shift` ticks; a
/// one-tick run after the boundary (a press) moves whole. `None` when a run would vanish.
fn moved(old: &Replay, boundary: usize, shift: i64) -> Option<Replay> {
    let mut replay = old.clone();
    let runs = &mut replay.runs;
    let (grows, shrinks) = if runs[boundary + 1].0 == 1 && boundary + 2 < runs.len() {
        (boundary, boundary + 2)
    } else {
        (boundary, boundary + 1)
    };
    let grown = runs[grows].0 as i64 + shift;
    let shrunk = runs[shrinks].0 as i64 - shift;
    if grown < 1 || shrunk < 1 {
        return None;
    }
    runs[grows].0 = grown as u32;
    runs[shrinks].0 = shrunk as u32;
    Some(replay)
}

/// The replay's first `ticks` ticks (a solution ends on its goal tick).
fn truncated(replay: &Replay, ticks: u64) -> Replay {
    let mut out = Replay::new(replay.level.clone());
    out.assists = replay.assists;
    for input in replay.frames().take(ticks as usize) {
        out.push(*input);
    }
    out
}
