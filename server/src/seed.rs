//! `tether-server seed PLAYERS LEVELS RUNS`: fills the database with made-up players, shared
//! levels and verified runs through the database layer (not HTTP), to measure the API on a
//! populated database (docs/online.md, "Load"). Never for a real server: its players are made up.
//!
//! Player `i`'s key comes from the seed SHA-256("tether-seed-player-{i}"), so a load script can
//! sign as any seeded player; shared level `j` is level 1 renamed "Seeded Level {j}". Every
//! seeded run is sound: level 1's solution after some ticks of standing still, stored with the
//! tick it was re-simulated to finish at, so `reverify` passes a seeded database.

use sha2::{Digest, Sha256};
use tether_online_proto::{level_hash, Identity};
use tether_sim::{InputFrame, SIM_VERSION};

use crate::config::Config;
use crate::db::{now_ms, Db};
use crate::verify::{parse_replay, LevelBook};

/// Rows per multi-row INSERT: under SQLite's 32 766 bound parameters at 10 per row.
const ROWS_PER_INSERT: usize = 500;
/// Most distinct runs the seeded runs are drawn from (each is simulated once while seeding).
const MAX_RUN_VARIANTS: usize = 250;
/// Idle ticks between one run variant and the next: variant `v` stands still `v` times this.
const IDLE_TICKS_PER_VARIANT: u32 = 4;

/// A run a seeded player may have: its replay's RON and the tick it finishes at.
struct SeededRun {
    replay: String,
    ticks: i64,
}

/// The seeded player `index`'s identity.
pub fn seeded_player(index: usize) -> Identity {
    Identity::from_seed(Sha256::digest(format!("tether-seed-player-{index}").as_bytes()).into())
}

pub async fn seed(db: &Db, config: &Config, args: &[String]) -> Result<(), String> {
    let count = |i: usize, default: usize| -> Result<usize, String> {
        args.get(i).map_or(Ok(default), |text| {
            text.parse()
                .map_err(|_| format!("{text:?} is not a count (seed PLAYERS LEVELS RUNS)"))
        })
    };
    let (players, levels, runs) = (count(0, 10_000)?, count(1, 200)?, count(2, 100_000)?);
    if players == 0 || levels == 0 {
        return Err("seed needs at least one player and one level".into());
    }
    let level_path = config.levels_dir.join("01_first_swing.ron");
    let level_text = std::fs::read_to_string(&level_path)
        .map_err(|err| format!("{}: {err}", level_path.display()))?;
    let replay_path = config.levels_dir.join("solutions/01_first_swing.ron");
    let solution = std::fs::read_to_string(&replay_path)
        .map_err(|err| format!("{}: {err}", replay_path.display()))?;
    let variants = run_variants(&level_text, &solution, runs.clamp(1, MAX_RUN_VARIANTS))?;
    let player_keys: Vec<String> = (0..players)
        .map(|i| seeded_player(i).public_key_hex())
        .collect();
    let now = now_ms();
    let player_rows: Vec<Vec<Bound>> = (0..players)
        .map(|i| {
            let name = format!("Seeded{i}");
            vec![
                Bound::Text(player_keys[i].clone()),
                Bound::Text(name.clone()),
                Bound::Text(name.to_lowercase()),
                Bound::Int(now),
            ]
        })
        .collect();
    insert_rows(
        db,
        "players (key, name, name_folded, created_ms)",
        &player_rows,
    )
    .await?;
    let mut level_hashes = Vec::with_capacity(levels);
    let level_rows: Vec<Vec<Bound>> = (0..levels)
        .map(|j| {
            let name = format!("Seeded Level {j}");
            let text = level_text.replacen("\"First Swing\"", &format!("\"{name}\""), 1);
            level_hashes.push(level_hash(&text));
            vec![
                Bound::Text(level_hash(&text)),
                Bound::Text(name.clone()),
                Bound::Text(name.to_lowercase()),
                Bound::Text(player_keys[j % players].clone()),
                Bound::Text(text),
                Bound::Int(177),
                Bound::Int(0),
                Bound::Int(now - j as i64),
                Bound::Int(runs as i64 / levels as i64 + 1),
            ]
        })
        .collect();
    insert_rows(
        db,
        "levels (hash, name, name_folded, author_key, text, author_ticks, campaign, created_ms, plays)",
        &level_rows,
    )
    .await?;
    insert_runs(db, &player_keys, &level_hashes, &variants, runs).await?;
    rebuild_boards(db).await?;
    println!("seed: {players} players, {levels} levels, {runs} verified runs");
    Ok(())
}

/// `count` sound runs of level 1 (renaming a level changes its hash, not its physics): its
/// solution after 0, 4, 8, … idle ticks, each re-simulated here for the tick it finishes at.
fn run_variants(level_text: &str, solution: &str, count: usize) -> Result<Vec<SeededRun>, String> {
    let world = LevelBook::new().build(level_text, "01_first_swing.ron")?;
    let solution = parse_replay(solution)?;
    (0..count as u32)
        .map(|variant| {
            let mut replay = solution.clone();
            let idle_ticks = variant * IDLE_TICKS_PER_VARIANT;
            if idle_ticks > 0 {
                replay.runs.insert(0, (idle_ticks, InputFrame::default()));
            }
            let outcome = replay.run(&mut world.clone());
            if !outcome.goal_reached {
                return Err(format!(
                    "level 1's solution after {idle_ticks} idle ticks does not finish"
                ));
            }
            Ok(SeededRun {
                replay: replay.without_unread_aims().to_ron(),
                ticks: outcome.ticks as i64,
            })
        })
        .collect()
}

/// `runs` verified runs by pseudo-random players on pseudo-random levels, each one of the
/// `variants`.
async fn insert_runs(
    db: &Db,
    player_keys: &[String],
    level_hashes: &[String],
    variants: &[SeededRun],
    runs: usize,
) -> Result<(), String> {
    // A fixed xorshift: the same database every time, no dependency for randomness.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let now = now_ms();
    let mut batch = Vec::with_capacity(ROWS_PER_INSERT);
    for done in 0..runs {
        let player = &player_keys[next() as usize % player_keys.len()];
        let level = &level_hashes[next() as usize % level_hashes.len()];
        let run = &variants[next() as usize % variants.len()];
        batch.push(vec![
            Bound::Text(player.clone()),
            Bound::Text(level.clone()),
            Bound::Int(SIM_VERSION as i64),
            Bound::Int(0),
            Bound::Int(run.ticks),
            Bound::Text(run.replay.clone()),
            Bound::Int(now),
            Bound::Int(60_000),
            Bound::Text("verified".into()),
            Bound::Int(0),
        ]);
        if batch.len() == ROWS_PER_INSERT || done + 1 == runs {
            insert_rows(
                db,
                "runs (player_key, level_hash, sim_version, assisted, ticks, replay, submitted_ms, \
                 wall_clock_ms, status, flagged)",
                &batch,
            )
            .await?;
            batch.clear();
        }
    }
    Ok(())
}

/// Each visible player's best run per board, from all stored verified runs (ties to the
/// earlier run).
async fn rebuild_boards(db: &Db) -> Result<(), String> {
    sqlx::query("DELETE FROM best_runs")
        .execute(db)
        .await
        .map_err(|err| err.to_string())?;
    sqlx::query(
        "INSERT INTO best_runs (level_hash, sim_version, assisted, player_key, ticks, run_id) \
         SELECT level_hash, sim_version, assisted, player_key, ticks, id FROM ( \
           SELECT level_hash, sim_version, assisted, player_key, ticks, id, ROW_NUMBER() OVER ( \
             PARTITION BY level_hash, sim_version, assisted, player_key ORDER BY ticks, id) AS n \
           FROM runs WHERE status = 'verified' AND hidden = 0 AND player_key NOT IN \
             (SELECT key FROM players WHERE hidden <> 0)) ranked WHERE n = 1",
    )
    .execute(db)
    .await
    .map_err(|err| format!("rebuilding boards: {err}"))?;
    sqlx::query(
        "UPDATE levels SET finishes = (SELECT COUNT(*) FROM runs r \
         WHERE r.level_hash = levels.hash AND r.status = 'verified')",
    )
    .execute(db)
    .await
    .map_err(|err| format!("counting finishes: {err}"))?;
    Ok(())
}

enum Bound {
    Text(String),
    Int(i64),
}

/// One multi-row INSERT of `rows` (each the columns `table_and_columns` names) per
/// `ROWS_PER_INSERT`, in one transaction.
async fn insert_rows(db: &Db, table_and_columns: &str, rows: &[Vec<Bound>]) -> Result<(), String> {
    let mut tx = db.begin().await.map_err(|err| err.to_string())?;
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let width = chunk[0].len();
        let tuples: Vec<String> = (0..chunk.len())
            .map(|r| {
                let marks: Vec<String> =
                    (1..=width).map(|c| format!("${}", r * width + c)).collect();
                format!("({})", marks.join(", "))
            })
            .collect();
        let sql = format!(
            "INSERT INTO {table_and_columns} VALUES {}",
            tuples.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for value in chunk.iter().flatten() {
            query = match value {
                Bound::Text(text) => query.bind(text.clone()),
                Bound::Int(int) => query.bind(*int),
            };
        }
        query
            .execute(&mut *tx)
            .await
            .map_err(|err| format!("seeding {table_and_columns}: {err}"))?;
    }
    tx.commit().await.map_err(|err| err.to_string())
}
