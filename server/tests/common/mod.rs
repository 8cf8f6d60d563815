//! The server tests' harness: the real `tether-server` binary on 127.0.0.1 with a fresh data
//! folder, driven over HTTP, killed when the handle drops (a failing test leaves no server).

#![allow(dead_code)] // each test file uses part of the harness

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};
pub use tether_online_proto::level_hash;
use tether_online_proto::Identity;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn read_repo_file(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).expect("repo file")
}

/// A data folder under the target dir, new for each call.
pub fn fresh_data_dir(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tether-server-test-{}-{name}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The database a server on `data_dir` uses. Normally none (SQLite in the data folder); with
/// `TETHER_TEST_POSTGRES=1` (`./build.sh test` runs the tests again inside `pg_virtualenv`, which
/// sets PGHOST, PGPORT, PGUSER and PGPASSWORD) a PostgreSQL database of its own, made once per
/// data folder so a restarted server finds its data.
pub fn database_env(data_dir: &Path) -> Vec<(String, String)> {
    if std::env::var_os("TETHER_TEST_POSTGRES").is_none() {
        return Vec::new();
    }
    let name: String = data_dir
        .file_name()
        .expect("a named folder")
        .to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let marker = data_dir.join("postgres-database");
    if !marker.exists() {
        let made = Command::new("createdb")
            .arg(&name)
            .status()
            .expect("createdb runs");
        assert!(made.success(), "createdb {name}");
        std::fs::write(&marker, &name).expect("marker written");
    }
    let var = |n: &str| std::env::var(n).unwrap_or_else(|_| panic!("{n} is set by pg_virtualenv"));
    let url = format!(
        "postgres://{}:{}@{}:{}/{name}",
        var("PGUSER"),
        var("PGPASSWORD"),
        var("PGHOST"),
        std::env::var("PGPORT").unwrap_or_else(|_| "5432".into())
    );
    vec![("DATABASE_URL".into(), url)]
}

/// `tether-server` with the test servers' environment for `data_dir` (its database included),
/// then `env`: the server and its other commands (worker, reverify) see the same data.
pub fn server_command(data_dir: &Path, env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tether-server"));
    command
        .env("TETHER_PORT", "0")
        .env("TETHER_DATA_DIR", data_dir)
        .env("TETHER_LEVELS_DIR", repo().join("levels"))
        .env("TETHER_DIST_DIR", data_dir.join("no-dist"))
        .env("TETHER_ADMIN_KEY", Player::new(ADMIN_SEED).key)
        .env("TETHER_RATE_PER_ADDR", "100000")
        .env("TETHER_RATE_PER_KEY", "100000");
    for (name, value) in database_env(data_dir) {
        command.env(name, value);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command
}

/// The URL of the database of the server on `data_dir`: the test's PostgreSQL, or its SQLite
/// file with `sqlite_options` (e.g. "?mode=rwc" to create it) appended.
pub fn database_url(data_dir: &Path, sqlite_options: &str) -> String {
    database_env(data_dir)
        .into_iter()
        .find(|(name, _)| name == "DATABASE_URL")
        .map_or_else(
            || {
                let file = data_dir.join("tether.db");
                format!("sqlite://{}{sqlite_options}", file.display())
            },
            |(_, url)| url,
        )
}

/// Runs one SQL statement on the database of the server on `data_dir`, behind the server's
/// back: how tests make states no honest client can (a session two minutes old, a tampered run).
pub fn database_execute(data_dir: &Path, sql: &str) -> u64 {
    with_test_pool(&database_url(data_dir, ""), |pool| async move {
        sqlx::query(sql)
            .execute(&pool)
            .await
            .unwrap_or_else(|err| panic!("{sql}: {err}"))
            .rows_affected()
    })
}

/// Runs `work` on a pool of the database at `url`, on a runtime of its own, and closes the
/// pool after it: the server's database reached from a plain (not async) test.
fn with_test_pool<T, Work, Done>(url: &str, work: Work) -> T
where
    Work: FnOnce(sqlx::AnyPool) -> Done,
    Done: std::future::Future<Output = T>,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(url).await.expect("database opens");
        let result = work(pool.clone()).await;
        pool.close().await;
        result
    })
}

/// A `tether-server` process besides the HTTP server (a `worker`), killed when dropped.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The admin key's seed in every test server.
pub const ADMIN_SEED: u8 = 200;

pub struct Server {
    child: Child,
    pub base: String,
    pub data_dir: PathBuf,
}

impl Server {
    /// Starts the server on a free loopback port with `data_dir` and extra environment.
    pub fn start(data_dir: &Path, env: &[(&str, &str)]) -> Server {
        let mut command = server_command(data_dir, env);
        command.stdout(Stdio::piped()).stderr(Stdio::inherit());
        let mut child = command.spawn().expect("tether-server starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let line = lines
            .next()
            .expect("the server prints its address")
            .expect("readable stdout");
        let base = line
            .split("listening on ")
            .nth(1)
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .trim()
            .to_string();
        assert!(base.starts_with("http://127.0.0.1:"), "{base}");
        // Keep draining stdout so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server {
            child,
            base,
            data_dir: data_dir.to_path_buf(),
        }
    }

    /// SIGKILL: no shutdown code runs, as in a power cut of the process.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, text) = self.get_text(path);
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub fn get_text(&self, path: &str) -> (u16, String) {
        answer(ureq::get(&format!("{}{path}", self.base)).call())
    }

    /// A GET sending an `Origin` header: the status and the `Access-Control-Allow-Origin`
    /// answered, if any.
    pub fn get_from_origin(&self, path: &str, origin: &str) -> (u16, Option<String>) {
        let result = ureq::get(&format!("{}{path}", self.base))
            .set("Origin", origin)
            .call();
        let response = match result {
            Ok(response) | Err(ureq::Error::Status(_, response)) => response,
            Err(err) => panic!("transport error: {err}"),
        };
        let allowed = response
            .header("access-control-allow-origin")
            .map(str::to_string);
        (response.status(), allowed)
    }

    pub fn post_raw(&self, path: &str, body: &[u8]) -> (u16, Value) {
        let result = ureq::post(&format!("{}{path}", self.base))
            .set("Content-Type", "application/json")
            .send_bytes(body);
        let (status, text) = answer(result);
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub fn nonce(&self) -> String {
        let (status, body) = self.get("/api/v1/nonce");
        assert_eq!(status, 200, "{body}");
        body["nonce"].as_str().expect("nonce").to_string()
    }

    /// A signed write: a fresh nonce, `body` serialised once and signed as those exact bytes.
    pub fn signed(&self, player: &Player, path: &str, body: &Value) -> (u16, Value) {
        let envelope = player.envelope(&self.nonce(), &body.to_string());
        self.post_raw(path, envelope.to_string().as_bytes())
    }

    pub fn register(&self, player: &Player, name: &str) {
        let (status, body) = self.signed(player, "/api/v1/players", &json!({ "name": name }));
        assert_eq!(status, 200, "register {name}: {body}");
    }

    pub fn session(&self, player: &Player, level: &str) -> String {
        let (status, body) = self.signed(player, "/api/v1/sessions", &json!({ "level": level }));
        assert_eq!(status, 200, "session: {body}");
        body["session"].as_str().expect("session").to_string()
    }

    pub fn submit(
        &self,
        player: &Player,
        session: &str,
        level: &str,
        ticks: u64,
        replay: &str,
    ) -> (u16, Value) {
        let body = json!({ "session": session, "level": level, "sim_version": tether_sim::SIM_VERSION,
                           "ticks": ticks, "replay": replay });
        self.signed(player, "/api/v1/runs", &body)
    }

    /// Polls a run until the queue has judged it (bounded: a hung queue fails the test).
    pub fn wait_for_verdict(&self, run: i64) -> Value {
        for _ in 0..1200 {
            let (status, body) = self.get(&format!("/api/v1/runs/{run}"));
            assert_eq!(status, 200, "{body}");
            if body["status"] != "pending" {
                return body;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("run {run} still pending after a minute");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

fn answer(result: Result<ureq::Response, ureq::Error>) -> (u16, String) {
    match result {
        Ok(response) => (
            response.status(),
            response.into_string().unwrap_or_default(),
        ),
        Err(ureq::Error::Status(status, response)) => {
            (status, response.into_string().unwrap_or_default())
        }
        Err(err) => panic!("transport error: {err}"),
    }
}

/// A player's key pair, made from a one-byte seed so tests are repeatable; it signs as the
/// game does (`tether_online_proto::Identity`).
pub struct Player {
    identity: Identity,
    pub key: String,
}

impl Player {
    pub fn new(seed: u8) -> Player {
        let identity = Identity::from_seed([seed; 32]);
        let key = identity.public_key_hex();
        Player { identity, key }
    }

    pub fn envelope(&self, nonce: &str, body: &str) -> Value {
        serde_json::from_str(&self.identity.envelope(nonce, body)).expect("an envelope is JSON")
    }
}

pub fn campaign_level(file: &str) -> (String, String) {
    let text = read_repo_file(&format!("levels/{file}"));
    (
        level_hash(&text),
        read_repo_file(&format!("levels/solutions/{file}")),
    )
}

/// Level 1's solution takes 177 ticks (1.475 s): a submission must not come sooner after its
/// session than that (the wall-clock check), so tests wait this long after taking sessions.
pub const LEVEL_1_TICKS: u64 = 177;
pub fn wait_out_level_1() {
    std::thread::sleep(std::time::Duration::from_millis(1_600));
}

/// Level 1's solution with `idle_ticks` of standing still first: a slower finish of the same
/// level (30 idle ticks finish at tick 205, a silver medal).
pub fn padded_level_1_solution(idle_ticks: u32) -> String {
    let idle = format!(
        "({idle_ticks}, (move_x: 0, reel: 0, jump_held: false, jump_pressed: false, \
         fire_pressed: false, release_pressed: false, wheel_notches: 0, aim_x: 0.0, aim_y: 0.0)),"
    );
    let (_, solution) = campaign_level("01_first_swing.ron");
    let padded = solution.replacen("runs: [", &format!("runs: [\n        {idle}"), 1);
    assert_ne!(padded, solution, "the solution has a runs list");
    padded
}
pub const LEVEL_1_PADDED_30_TICKS: u64 = 205;

/// Whether the tests run on PostgreSQL (`TETHER_TEST_POSTGRES`, inside `pg_virtualenv`).
pub fn on_postgres() -> bool {
    std::env::var_os("TETHER_TEST_POSTGRES").is_some()
}

/// Migration 1's text for the engine the tests run on, byte for byte as the server fills it in
/// (server/src/schema.rs): sqlx checks its checksum when the new server opens the database.
fn migration_1_sql() -> String {
    let (first_line, run_id_column) = if on_postgres() {
        (
            "-- Tether Online's schema (PostgreSQL). migrations/sqlite holds the same tables \
             for SQLite;",
            "BIGSERIAL PRIMARY KEY",
        )
    } else {
        (
            "-- Tether Online's schema (SQLite). migrations/postgres holds the same tables \
             for PostgreSQL;",
            "INTEGER PRIMARY KEY AUTOINCREMENT",
        )
    };
    read_repo_file("server/migrations/0001_schema.sql")
        .replacen("{first_line}", first_line, 1)
        .replacen("{run_id_column}", run_id_column, 1)
}

/// The migrations before `first_missing` as the server of then applied them (file name in an
/// sqlx migrations folder, text) for the engine the tests run on.
fn migrations_before(first_missing: u32) -> Vec<(String, String)> {
    let engine = if on_postgres() { "postgres" } else { "sqlite" };
    let all = [
        ("1_schema.sql".to_string(), migration_1_sql()),
        (
            "2_hidden_players_off_boards.sql".to_string(),
            read_repo_file("server/migrations/0002_hidden_players_off_boards.sql"),
        ),
        (
            "3_board_times.sql".to_string(),
            read_repo_file(&format!("server/migrations/0003_board_times.{engine}.sql")),
        ),
    ];
    all.into_iter().take(first_missing as usize - 1).collect()
}

/// Makes `data`'s database with the migrations before `first_missing` only (as a server of
/// then did), with `sqlx`'s migrator reading a folder of them: what carrying an old database
/// forward starts from.
pub fn make_database_with_migrations_before(data: &Path, first_missing: u32) {
    let folder = data.join(format!("migrations-before-{first_missing}"));
    std::fs::create_dir_all(&folder).expect("folder");
    for (file, sql) in migrations_before(first_missing) {
        std::fs::write(folder.join(file), sql).expect("migration written");
    }
    with_test_pool(&database_url(data, "?mode=rwc"), |pool| async move {
        let migrator = sqlx::migrate::Migrator::new(folder.as_path())
            .await
            .expect("old migrations read");
        migrator.run(&pool).await.expect("old migrations applied");
    });
}

/// Runs one SQL query returning one integer on the database of the server on `data_dir`.
pub fn database_i64(data_dir: &Path, sql: &str) -> i64 {
    with_test_pool(&database_url(data_dir, ""), |pool| async move {
        sqlx::query_scalar(sql)
            .fetch_one(&pool)
            .await
            .unwrap_or_else(|err| panic!("{sql}: {err}"))
    })
}

/// `tether-server integrity` on `data`'s database: passes, and says so for each check.
pub fn assert_integrity(data: &Path) -> String {
    let check = server_command(data, &[])
        .arg("integrity")
        .output()
        .expect("tether-server integrity runs");
    let stdout = String::from_utf8_lossy(&check.stdout).to_string();
    assert!(
        check.status.success(),
        "integrity: {stdout}{}",
        String::from_utf8_lossy(&check.stderr)
    );
    stdout
}
