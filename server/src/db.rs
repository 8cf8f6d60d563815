//! The database: one `sqlx::Any` pool over SQLite or PostgreSQL. Every query uses `$1`-style
//! bound parameters, which both engines accept, and only types the `Any` driver decodes the same
//! from both (BIGINT, TEXT, DOUBLE): one set of queries, no repository trait to keep in step.

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyConnection, AnyPool};

use crate::config::Config;
use crate::schema::{migrator, Engine};

pub type Db = AnyPool;

/// Connections in the pool for writes (and everything but the HTTP server's GETs), PostgreSQL.
const WRITE_CONNECTIONS: u32 = 16;
/// The same on SQLite, unless `TETHER_SQLITE_WRITERS` says otherwise: one. SQLite has one
/// writer at a time: with several connections the others wait for its lock in SQLite's busy
/// handler, which polls with growing sleeps (unfair: an unlucky write waited past the 5 s busy
/// timeout and failed under the mixed load); with one, the pool's queue is the writers' queue,
/// first come first served (docs/online.md, "Load", measures both).
const SQLITE_WRITE_CONNECTIONS: u32 = 1;
/// Connections in the HTTP server's pool for GETs: reads use the CPU only, so a few per core.
const READ_CONNECTIONS: u32 = 8;

/// Opens the pool (creating the SQLite file and its folder) and brings the schema up to date.
pub async fn connect(config: &Config) -> Result<Db, String> {
    sqlx::any::install_default_drivers();
    if config.is_sqlite() {
        std::fs::create_dir_all(&config.data_dir)
            .map_err(|err| format!("{}: {err}", config.data_dir.display()))?;
    }
    let connections = if config.is_sqlite() {
        config
            .sqlite_writers
            .unwrap_or(SQLITE_WRITE_CONNECTIONS)
            .max(1)
    } else {
        WRITE_CONNECTIONS
    };
    let pool = AnyPoolOptions::new()
        .max_connections(connections)
        .connect(&config.database_url)
        .await
        .map_err(|err| format!("cannot open the database: {err}"))?;
    if config.is_sqlite() {
        // WAL (kept in the file) lets board reads go on while a verifier writes. `synchronous`
        // stays SQLite's default, FULL: an acknowledged submission survives a power cut too.
        sqlx::query("PRAGMA journal_mode = WAL")
            .execute(&pool)
            .await
            .map_err(|err| format!("PRAGMA journal_mode = WAL: {err}"))?;
    }
    let engine = if config.is_sqlite() {
        Engine::Sqlite
    } else {
        Engine::Postgres
    };
    migrator(engine)
        .await?
        .run(&pool)
        .await
        .map_err(|err| format!("database migration failed: {err}"))?;
    Ok(pool)
}

/// Opens the HTTP server's second pool, for its GETs, on the database `connect` set up.
pub async fn connect_reads(config: &Config) -> Result<Db, String> {
    AnyPoolOptions::new()
        .max_connections(READ_CONNECTIONS)
        .connect(&config.database_url)
        .await
        .map_err(|err| format!("cannot open the database for reads: {err}"))
}

/// Whether `db` is a SQLite database (one writer: its writes share commits, writes.rs).
pub fn is_sqlite(db: &Db) -> bool {
    db.connect_options().database_url.scheme() == "sqlite"
}

/// Milliseconds since the Unix epoch: the server's clock for nonces, sessions and leases.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// `n` random bytes as lowercase hex (nonces, session tokens).
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).expect("the OS random source works");
    tether_online_proto::hex::encode(&bytes)
}

/// Makes a just-verified run its player's best on its board if it beats the one there; true
/// if it did (the board changed). A hidden player's run stays off the boards: `best_runs` holds
/// visible players only, so a rank needs no join (migration 2). So does a run hidden while it
/// waited for its verdict.
pub async fn offer_best(conn: &mut AnyConnection, run_id: i64) -> Result<bool, sqlx::Error> {
    hold_players_row(
        conn,
        "SELECT key FROM players WHERE key = (SELECT player_key FROM runs WHERE id = $1)",
        run_id,
    )
    .await?;
    let changed = sqlx::query(
        "INSERT INTO best_runs (level_hash, sim_version, assisted, player_key, ticks, run_id) \
         SELECT r.level_hash, r.sim_version, r.assisted, r.player_key, r.ticks, r.id \
         FROM runs r JOIN players p ON p.key = r.player_key \
         WHERE r.id = $1 AND r.hidden = 0 AND p.hidden = 0 \
         ON CONFLICT (level_hash, sim_version, assisted, player_key) DO UPDATE \
         SET ticks = excluded.ticks, run_id = excluded.run_id \
         WHERE excluded.ticks < best_runs.ticks",
    )
    .bind(run_id)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    Ok(changed == 1)
}

/// Holds a player's row (the one `select_sql` selects, given `id` as $1) until the write
/// commits: the writes that change a player's board rows (a verdict, an upload, a run's or the
/// player's hide) then run one at a time per player. On PostgreSQL (READ COMMITTED) they
/// otherwise miss each other's uncommitted rows: a hide looking for the next best run did not
/// see a run being verified, which did not replace the better run being hidden, and the
/// player was left off the board; a run of a player being hidden could reach the board after
/// the hide cleared it. Taken before any board row, which keeps every write's lock order: run,
/// player, best_runs, board_times (in order), level (docs/online.md, "Hides and verdicts").
/// SQLite has one writer: no need.
pub async fn hold_players_row(
    conn: &mut AnyConnection,
    select_sql: &str,
    id: i64,
) -> Result<(), sqlx::Error> {
    if conn.backend_name() != "PostgreSQL" {
        return Ok(());
    }
    sqlx::query(&format!("{select_sql} FOR UPDATE"))
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(())
}
