//! The operator's commands besides serving: re-verification after a physics change, the
//! verification benchmark and the database check.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::Row;
use tether_sim::SIM_VERSION;

use crate::config::Config;
use crate::db::Db;
use crate::verify::{parse_replay, verify, LevelBook, Verdict};

/// `tether-server reverify`: re-simulates every verified run under this build's simulation and
/// prints the ones that no longer finish at their time. Exit status 1 if any.
pub async fn reverify(db: &Db, book: Arc<LevelBook>) -> Result<(), String> {
    let rows = sqlx::query(
        "SELECT r.id, r.level_hash, r.ticks, r.replay, l.text, r.sim_version FROM runs r \
         JOIN levels l ON l.hash = r.level_hash WHERE r.status = 'verified' ORDER BY r.id",
    )
    .fetch_all(db)
    .await
    .map_err(|err| err.to_string())?;
    let mut jobs = Vec::with_capacity(rows.len());
    for row in &rows {
        let job: (i64, String, i64, String, String, i64) = (
            row.try_get(0).map_err(|e| e.to_string())?,
            row.try_get(1).map_err(|e| e.to_string())?,
            row.try_get(2).map_err(|e| e.to_string())?,
            row.try_get(3).map_err(|e| e.to_string())?,
            row.try_get(4).map_err(|e| e.to_string())?,
            row.try_get(5).map_err(|e| e.to_string())?,
        );
        jobs.push(job);
    }
    let broken = tokio::task::spawn_blocking(move || {
        let mut broken = 0usize;
        for (id, hash, ticks, replay, text, version) in &jobs {
            let verdict = book
                .world(hash, text)
                .and_then(|world| Ok(verify(&world, &parse_replay(replay)?, *ticks as u64, u64::MAX)))
                .unwrap_or_else(Verdict::Refused);
            if let Verdict::Refused(reason) = verdict {
                println!("run {id} (level {hash}, recorded under version {version}): {reason}");
                broken += 1;
            }
        }
        println!(
            "reverify: {} verified runs re-simulated under simulation version {SIM_VERSION}; {broken} no longer finish",
            jobs.len()
        );
        broken
    })
    .await
    .map_err(|err| err.to_string())?;
    if broken > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// `tether-server bench-verify [REPLAY] [SECONDS]`: verifies one solution replay over and over
/// on one thread (default levels/solutions/16_mill_run.ron for 10 s) and prints the rate.
pub fn bench_verify(args: &[String]) -> Result<(), String> {
    let replay_path = args
        .first()
        .cloned()
        .unwrap_or_else(|| "levels/solutions/16_mill_run.ron".into());
    let seconds: f64 = args
        .get(1)
        .map_or(Ok(10.0), |s| s.parse().map_err(|_| "SECONDS is a number"))?;
    let read = |path: &str| std::fs::read_to_string(path).map_err(|err| format!("{path}: {err}"));
    let replay = parse_replay(&read(&replay_path)?)?;
    let levels_dir = std::path::Path::new(&replay_path)
        .parent()
        .and_then(|dir| dir.parent())
        .ok_or("the replay must be in a solutions folder beside its level")?;
    let level_path = levels_dir.join(&replay.level);
    let text = read(&level_path.display().to_string())?;
    let book = LevelBook::new();
    let world = book.build(&text, &level_path.display().to_string())?;
    let mut probe = world.clone();
    let ticks = replay.run(&mut probe).ticks;
    let started = Instant::now();
    let mut runs = 0u64;
    while started.elapsed() < Duration::from_secs_f64(seconds) {
        let verdict = verify(&world, &replay, ticks, u64::MAX);
        if verdict != (Verdict::Finished { ticks }) {
            return Err(format!("{replay_path}: {verdict:?}"));
        }
        runs += 1;
    }
    let elapsed_s = started.elapsed().as_secs_f64();
    println!(
        "bench-verify: {replay_path}: {ticks} ticks; {runs} verifications in {elapsed_s:.1} s on one thread = {:.1} per second per core ({:.0} ticks/s)",
        runs as f64 / elapsed_s,
        (runs * ticks) as f64 / elapsed_s
    );
    Ok(())
}

/// `tether-server integrity`: SQLite's `PRAGMA integrity_check` (prints "ok" when sound);
/// on PostgreSQL, a count of every table (PostgreSQL keeps its own consistency). On both, the
/// boards' time counts (`board_times`) must be the counts of `best_runs`, no hidden player may
/// be on a board, and the names search reads must be the names of the levels and players.
pub async fn integrity(db: &Db, config: &Config) -> Result<(), String> {
    board_times_agree(db).await?;
    no_hidden_player_on_a_board(db).await?;
    search_names_agree(db, config.is_sqlite()).await?;
    if config.is_sqlite() {
        let result: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(db)
            .await
            .map_err(|err| err.to_string())?;
        println!("integrity_check: {result}");
        return if result == "ok" { Ok(()) } else { Err(result) };
    }
    for table in ["players", "levels", "runs", "best_runs", "ratings"] {
        let count: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(db)
            .await
            .map_err(|err| err.to_string())?;
        println!("{table}: {count} rows");
    }
    println!("integrity_check: ok");
    Ok(())
}

/// Whether every nonzero count in `board_times` is the count of `best_runs` rows it stands for,
/// and no such count is missing (its triggers kept it through every write).
async fn board_times_agree(db: &Db) -> Result<(), String> {
    let board = "level_hash, sim_version, assisted";
    for (width_ticks, start) in [(1, "ticks"), (256, "ticks / 256 * 256")] {
        let counted = format!(
            "SELECT {board}, {start} AS start_ticks, COUNT(*) AS players FROM best_runs \
             GROUP BY {board}, {start}"
        );
        let kept = format!(
            "SELECT {board}, start_ticks, players FROM board_times \
             WHERE width_ticks = {width_ticks} AND players <> 0"
        );
        let sql = format!(
            "SELECT (SELECT COUNT(*) FROM ({counted} EXCEPT {kept}) missing) \
             + (SELECT COUNT(*) FROM ({kept} EXCEPT {counted}) wrong)"
        );
        let disagreeing: i64 = sqlx::query_scalar(&sql)
            .fetch_one(db)
            .await
            .map_err(|err| format!("checking board_times: {err}"))?;
        if disagreeing != 0 {
            return Err(format!(
                "board_times: {disagreeing} counts of width {width_ticks} ticks disagree with best_runs"
            ));
        }
    }
    println!("board_times: agree with best_runs");
    Ok(())
}

/// Migration 2's rule, kept by every write since: `best_runs` holds visible players only.
async fn no_hidden_player_on_a_board(db: &Db) -> Result<(), String> {
    let rows: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM best_runs WHERE player_key IN \
         (SELECT key FROM players WHERE hidden <> 0)",
    )
    .fetch_one(db)
    .await
    .map_err(|err| format!("checking best_runs: {err}"))?;
    if rows != 0 {
        return Err(format!("best_runs: {rows} rows of hidden players"));
    }
    println!("best_runs: no hidden players");
    Ok(())
}

/// Whether the names search reads (migration 4: SQLite's `level_search`, PostgreSQL's
/// `levels.author_folded`) are each level's and its author's folded names.
async fn search_names_agree(db: &Db, sqlite: bool) -> Result<(), String> {
    let sql = if sqlite {
        let named = "SELECT l.hash, l.name_folded, p.name_folded FROM levels l \
                     LEFT JOIN players p ON p.key = l.author_key";
        let kept = "SELECT hash, name_folded, author_folded FROM level_search";
        format!(
            "SELECT (SELECT COUNT(*) FROM ({named} EXCEPT {kept}) missing) \
             + (SELECT COUNT(*) FROM ({kept} EXCEPT {named}) wrong)"
        )
    } else {
        "SELECT COUNT(*) FROM levels l LEFT JOIN players p ON p.key = l.author_key \
         WHERE l.author_folded IS DISTINCT FROM p.name_folded"
            .to_string()
    };
    let disagreeing: i64 = sqlx::query_scalar(&sql)
        .fetch_one(db)
        .await
        .map_err(|err| format!("checking the search names: {err}"))?;
    if disagreeing != 0 {
        return Err(format!(
            "search names: {disagreeing} levels' names disagree with levels and players"
        ));
    }
    println!("search names: agree with levels and players");
    Ok(())
}
