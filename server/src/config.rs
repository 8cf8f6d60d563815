//! The server's settings, all from the environment (a host sets them in a service file), with
//! defaults that make `tether-server` alone a complete local server.

use std::path::PathBuf;
use std::time::Duration;

use crate::board_cache::BoardCache;

/// Everything the server reads from the environment. `from_env` documents each variable.
#[derive(Clone, Debug)]
pub struct Config {
    /// `TETHER_PORT` (default 8787; 0 picks a free port, printed at start). The server binds
    /// 127.0.0.1 only: put a reverse proxy in front to serve other machines.
    pub port: u16,
    /// `TETHER_DATA_DIR` (default `tether-data`): the SQLite database lives here.
    pub data_dir: PathBuf,
    /// `DATABASE_URL` (default `sqlite://<data dir>/tether.db`); `postgres://…` for PostgreSQL.
    pub database_url: String,
    /// `TETHER_LEVELS_DIR` (default `levels`): the campaign, listed by its `index.ron`.
    pub levels_dir: PathBuf,
    /// `TETHER_DIST_DIR` (default `dist`): the browser game, served from `/` when present.
    pub dist_dir: PathBuf,
    /// `TETHER_ADMIN_KEY`: the hex ed25519 public key whose signed requests may hide things.
    pub admin_key: Option<String>,
    /// `TETHER_CORS_ORIGINS`: comma-separated origins allowed besides the server's own.
    pub cors_origins: Vec<String>,
    /// `TETHER_VERIFIERS` (default: the number of cores): re-simulations run at once by this
    /// process; 0 leaves the queue to `tether-server worker` processes.
    pub verifiers: usize,
    /// `TETHER_CLAIM_LEASE_S` (default 30): how long a verifier owns a claimed run; a run whose
    /// verifier died is taken up again after this.
    pub claim_lease_ms: i64,
    /// `TETHER_RATE_PER_ADDR` / `TETHER_RATE_PER_KEY`: requests per second allowed per client
    /// address and per player key (burst: twice that). Defaults 20 and 5.
    pub rate_per_addr_per_s: f64,
    pub rate_per_key_per_s: f64,
    /// `TETHER_BOARD_CACHE_MS` (default 1000; 0 turns the cache off): how long a cached board
    /// answer is served, so the most a reader may lag a change another process made
    /// (board_cache.rs; this process's own changes clear it at once).
    pub board_cache_ttl_ms: u64,
    /// `TETHER_BOARD_CACHE_MB` (default 16): the most the board cache holds.
    pub board_cache_mb: u64,
    /// `TETHER_SQLITE_WRITERS`: connections for writes on SQLite (default in db.rs).
    pub sqlite_writers: Option<u32>,
}

impl Config {
    pub fn from_env() -> Result<Config, String> {
        let data_dir =
            PathBuf::from(var("TETHER_DATA_DIR").unwrap_or_else(|| "tether-data".into()));
        let database_url = var("DATABASE_URL").unwrap_or_else(|| {
            format!("sqlite://{}?mode=rwc", data_dir.join("tether.db").display())
        });
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Ok(Config {
            port: parsed("TETHER_PORT", 8787)?,
            data_dir,
            database_url,
            levels_dir: PathBuf::from(var("TETHER_LEVELS_DIR").unwrap_or_else(|| "levels".into())),
            dist_dir: PathBuf::from(var("TETHER_DIST_DIR").unwrap_or_else(|| "dist".into())),
            admin_key: var("TETHER_ADMIN_KEY").map(|key| key.to_ascii_lowercase()),
            cors_origins: var("TETHER_CORS_ORIGINS")
                .map(|list| list.split(',').map(|o| o.trim().to_string()).collect())
                .unwrap_or_default(),
            verifiers: parsed("TETHER_VERIFIERS", cores)?,
            claim_lease_ms: parsed::<i64>("TETHER_CLAIM_LEASE_S", 30)? * 1000,
            rate_per_addr_per_s: parsed("TETHER_RATE_PER_ADDR", 20.0)?,
            rate_per_key_per_s: parsed("TETHER_RATE_PER_KEY", 5.0)?,
            board_cache_ttl_ms: parsed("TETHER_BOARD_CACHE_MS", 1000)?,
            board_cache_mb: parsed("TETHER_BOARD_CACHE_MB", 16)?,
            sqlite_writers: var("TETHER_SQLITE_WRITERS")
                .map(|_| parsed("TETHER_SQLITE_WRITERS", 0))
                .transpose()?,
        })
    }

    /// The board cache these settings ask for.
    pub fn board_cache(&self) -> BoardCache {
        BoardCache::new(
            Duration::from_millis(self.board_cache_ttl_ms),
            self.board_cache_mb.saturating_mul(1 << 20),
        )
    }

    pub fn is_sqlite(&self) -> bool {
        self.database_url.starts_with("sqlite:")
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn parsed<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
    match var(name) {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| format!("{name}={text:?} is not a valid value")),
    }
}
