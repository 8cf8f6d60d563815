//! The HTTP API, `/api/v1/...` (docs/online.md lists every endpoint). Handlers take the raw
//! body bytes, already size-limited by the router, and parse them themselves so every refusal
//! is the same JSON error.

mod boards;
pub mod browse;
mod levels;
mod medals;
mod runs;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::{Any, AnyConnection, Row, Transaction};
use tether_online_proto::hex::is_hex_id;
use tether_online_proto::wire::{Health, NonceAnswer, PlayerAnswer, RegisterBody};
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::services::ServeDir;

use crate::auth::{self, Signed};
use crate::board_cache::BoardCache;
use crate::config::Config;
use crate::db::{now_ms, Db};
use crate::error::{ApiError, ApiResult};
use crate::queue::Verifier;
use crate::ratelimit::RateLimiter;
use crate::writes::{WriteFuture, Writes};

/// Largest body of a small write (register, session, rating, hide).
pub const MAX_SMALL_BODY_BYTES: usize = 16 * 1024;
/// Largest body of a run or level upload: the envelope around a replay (and a level's text),
/// JSON-escaped. Stated API limit; recorded runs are tens of kilobytes.
pub const MAX_LARGE_BODY_BYTES: usize = 4 * 1024 * 1024;

pub struct App {
    /// Every write, and the reads a write depends on.
    pub db: Db,
    /// Reads that answer GETs (boards, browse, runs): a pool of their own, so a burst of
    /// writes waiting on the database (SQLite's one writer, every commit's fsync) never holds
    /// the connections a board read needs.
    pub reads: Db,
    pub config: Config,
    pub verifier: Arc<Verifier>,
    /// Where every write runs (writes.rs: group commit on SQLite).
    pub writes: Arc<Writes>,
    /// Recent board answers (board_cache.rs); the verifier shares it to clear what it changes.
    pub boards: Arc<BoardCache>,
    addr_limiter: RateLimiter,
    key_limiter: RateLimiter,
}

pub type AppState = Arc<App>;

impl App {
    pub fn new(db: Db, reads: Db, config: Config, verifier: Arc<Verifier>) -> App {
        App {
            reads,
            writes: Arc::clone(&verifier.writes),
            boards: Arc::clone(&verifier.boards),
            addr_limiter: RateLimiter::new(config.rate_per_addr_per_s),
            key_limiter: RateLimiter::new(config.rate_per_key_per_s),
            db,
            config,
            verifier,
        }
    }

    /// Runs `work` as one write (writes.rs): answered once its changes are committed, or rolled
    /// back alone on a database error.
    pub async fn write<T, F>(self: &Arc<Self>, work: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c App, &'c mut AnyConnection) -> WriteFuture<'c, ApiResult<T>>
            + Send
            + 'static,
    {
        let app = Arc::clone(self);
        self.writes
            .write(move |conn| Box::pin(async move { work(&app, conn).await }))
            .await
    }

    /// A signed write's first checks, which need no database: the signature and the signer's
    /// rate limit. Done before the write's transaction opens, so a forged request never waits
    /// for (or holds) a write connection.
    pub fn check_signature(&self, raw: &[u8]) -> ApiResult<SignedWrite> {
        let (signed, nonce) = auth::check_signature(raw)?;
        if !self.key_limiter.allow(&signed.key) {
            return Err(ApiError::rate_limited());
        }
        Ok(SignedWrite { signed, nonce })
    }

    /// Uses up a checked write's nonce on `conn` (the write's own transaction: see `end_write`).
    pub async fn authenticate(
        &self,
        conn: &mut AnyConnection,
        write: SignedWrite,
    ) -> ApiResult<Signed> {
        auth::consume_nonce(conn, &write.nonce).await?;
        Ok(write.signed)
    }

    /// As `authenticate`, and the signer must be a registered, visible player.
    pub async fn authenticate_player(
        &self,
        conn: &mut AnyConnection,
        write: SignedWrite,
    ) -> ApiResult<Signed> {
        let signed = self.authenticate(conn, write).await?;
        let hidden: Option<i64> = sqlx::query_scalar("SELECT hidden FROM players WHERE key = $1")
            .bind(&signed.key)
            .fetch_optional(&mut *conn)
            .await?;
        match hidden {
            None => Err(ApiError::forbidden(
                "not_registered",
                "register this key first",
            )),
            Some(0) => Ok(signed),
            Some(_) => Err(ApiError::forbidden(
                "hidden",
                "this player was hidden by a moderator",
            )),
        }
    }
}

/// A write whose signature checked out, its nonce not yet used up.
pub struct SignedWrite {
    signed: Signed,
    nonce: String,
}

/// Ends a write's transaction. Each write is one transaction, so one commit (on SQLite one
/// fsync): its nonce, its checks and its change become durable together, and an acknowledged
/// write is in the database. A refusal commits too, so what the request used up (its nonce, a
/// run session) stays used up; only a database failure rolls back (the client may retry).
pub async fn end_write<T>(tx: Transaction<'static, Any>, outcome: ApiResult<T>) -> ApiResult<T> {
    if outcome.as_ref().is_err_and(ApiError::is_database) {
        return outcome; // dropping `tx` rolls it back
    }
    tx.commit().await?;
    outcome
}

/// A level hash or player key from a URL: anything but 64 hex digits names nothing stored.
pub fn check_path_id(id: &str, what: &str) -> ApiResult<()> {
    if is_hex_id(id, 64) {
        Ok(())
    } else {
        Err(ApiError::not_found(what))
    }
}

pub fn router(app: AppState) -> Router {
    let small_writes = Router::new()
        .route("/api/v1/players", post(register))
        .route("/api/v1/sessions", post(runs::start_session))
        .route("/api/v1/levels/{hash}/rating", post(levels::rate))
        .route("/api/v1/admin/hide", post(hide))
        .layer(RequestBodyLimitLayer::new(MAX_SMALL_BODY_BYTES));
    let large_writes = Router::new()
        .route("/api/v1/runs", post(runs::submit))
        .route("/api/v1/levels", post(levels::upload).get(browse::browse))
        .layer(RequestBodyLimitLayer::new(MAX_LARGE_BODY_BYTES));
    let reads = Router::new()
        .route("/api/v1/health", get(health))
        .route("/api/v1/nonce", get(nonce))
        .route("/api/v1/players/{key}", get(player))
        .route("/api/v1/players/{key}/medals", get(medals::of_player))
        .route("/api/v1/runs/{id}", get(runs::status))
        .route("/api/v1/runs/{id}/replay", get(runs::replay))
        .route("/api/v1/levels/{hash}", get(levels::details))
        .route("/api/v1/levels/{hash}/text", get(levels::text))
        .route("/api/v1/levels/{hash}/board", get(boards::top))
        .route(
            "/api/v1/levels/{hash}/board/{key}",
            get(boards::around_player),
        );
    let mut api = small_writes
        .merge(large_writes)
        .merge(reads)
        .layer(axum::extract::DefaultBodyLimit::disable());
    if !app.config.cors_origins.is_empty() {
        let origins = app
            .config
            .cors_origins
            .iter()
            .filter_map(|o| o.parse().ok())
            .collect::<Vec<_>>();
        api = api.layer(CorsLayer::new().allow_origin(AllowOrigin::list(origins)));
    }
    if app.config.dist_dir.is_dir() {
        api = api.fallback_service(ServeDir::new(&app.config.dist_dir));
    }
    api.layer(axum::middleware::from_fn_with_state(
        Arc::clone(&app),
        limit_per_address,
    ))
    .with_state(app)
}

/// Refuses a client address over its rate (the address comes from `ConnectInfo`, which the
/// server provides with `into_make_service_with_connect_info`).
async fn limit_per_address(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let addr = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip().to_string())
        .unwrap_or_default();
    if !app.addr_limiter.allow(&addr) {
        return ApiError::rate_limited().into_response();
    }
    next.run(request).await
}

async fn health() -> Json<Health> {
    Json(Health {
        ok: true,
        sim_version: tether_sim::SIM_VERSION,
    })
}

async fn nonce(State(app): State<AppState>) -> ApiResult<Json<NonceAnswer>> {
    let nonce = app
        .write(|_, conn| Box::pin(auth::issue_nonce(conn)))
        .await?;
    Ok(Json(NonceAnswer {
        nonce,
        expires_in_ms: auth::NONCE_LIFETIME_MS as u64,
    }))
}

async fn register(State(app): State<AppState>, raw: Bytes) -> ApiResult<Json<PlayerAnswer>> {
    let write = app.check_signature(&raw)?;
    app.write(move |app, conn| Box::pin(register_in(app, conn, write)))
        .await
}

async fn register_in(
    app: &App,
    conn: &mut AnyConnection,
    write: SignedWrite,
) -> ApiResult<Json<PlayerAnswer>> {
    let signed = app.authenticate(conn, write).await?;
    let RegisterBody { name } = auth::parse_body(&signed.body)?;
    auth::check_name(&name)?;
    let inserted = sqlx::query(
        "INSERT INTO players (key, name, name_folded, created_ms) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
    )
    .bind(&signed.key)
    .bind(&name)
    .bind(auth::fold_name(&name))
    .bind(now_ms())
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Err(ApiError::conflict(
            "taken",
            "this key is already registered, or the name is taken",
        ));
    }
    Ok(Json(PlayerAnswer {
        key: signed.key,
        name,
    }))
}

async fn player(
    State(app): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Json<PlayerAnswer>> {
    check_path_id(&key, "player")?;
    let name: Option<String> =
        sqlx::query_scalar("SELECT name FROM players WHERE key = $1 AND hidden = 0")
            .bind(key.to_ascii_lowercase())
            .fetch_optional(&app.reads)
            .await?;
    let name = name.ok_or_else(|| ApiError::not_found("player"))?;
    Ok(Json(PlayerAnswer {
        key: key.to_ascii_lowercase(),
        name,
    }))
}

/// The admin's body (the game never sends it, so it is not in the shared wire types).
#[derive(Serialize, Deserialize)]
struct Hide {
    /// "level" (by hash), "run" (by id) or "player" (by key).
    kind: String,
    id: String,
}

/// Moderation: the admin key hides a level, a run or a player from every list and board.
async fn hide(State(app): State<AppState>, raw: Bytes) -> ApiResult<Json<Value>> {
    let write = app.check_signature(&raw)?;
    let (answer, changed_levels) = app
        .write(move |app, conn| Box::pin(hide_in(app, conn, write)))
        .await?;
    app.boards
        .invalidate(changed_levels.iter().map(String::as_str));
    Ok(answer)
}

/// Hides what the admin asked; the answer and the levels whose boards changed.
async fn hide_in(
    app: &App,
    conn: &mut AnyConnection,
    write: SignedWrite,
) -> ApiResult<(Json<Value>, Vec<String>)> {
    let signed = app.authenticate(conn, write).await?;
    if app.config.admin_key.as_deref() != Some(signed.key.as_str()) {
        return Err(ApiError::forbidden(
            "not_admin",
            "only the admin key may hide things",
        ));
    }
    let Hide { kind, id } = auth::parse_body(&signed.body)?;
    let changed_levels: Option<Vec<String>> = match kind.as_str() {
        "level" => {
            let hidden = sqlx::query("UPDATE levels SET hidden = 1 WHERE hash = $1")
                .bind(&id)
                .execute(&mut *conn)
                .await?
                .rows_affected();
            (hidden == 1).then(|| vec![id.clone()])
        }
        "player" => hide_player(conn, &id).await?,
        "run" => {
            let run_id: i64 = id
                .parse()
                .map_err(|_| ApiError::bad_request("bad_body", "a run id is a number"))?;
            boards::hide_run(conn, run_id)
                .await?
                .map(|level| vec![level])
        }
        _ => {
            return Err(ApiError::bad_request(
                "bad_body",
                "kind is level, run or player",
            ))
        }
    };
    let changed_levels = changed_levels.ok_or_else(|| ApiError::not_found(&kind))?;
    Ok((Json(json!({ "hidden": kind, "id": id })), changed_levels))
}

/// Hides a player and takes their rows off every board (`best_runs` holds visible players
/// only); the levels whose boards they were on (their answers change), or None if there is no
/// such player. Their stored runs stay: the boards could be rebuilt from them. The rows go one
/// board at a time in board order, each delete taking its `board_times` rows in order, so two
/// hides sharing boards take them in one order and cannot deadlock (PostgreSQL).
async fn hide_player(conn: &mut AnyConnection, key: &str) -> ApiResult<Option<Vec<String>>> {
    let hidden = sqlx::query("UPDATE players SET hidden = 1 WHERE key = $1")
        .bind(key)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    if hidden == 0 {
        return Ok(None);
    }
    let boards = sqlx::query(
        "SELECT level_hash, sim_version, assisted FROM best_runs WHERE player_key = $1 \
         ORDER BY level_hash, sim_version, assisted",
    )
    .bind(key)
    .fetch_all(&mut *conn)
    .await?;
    let mut levels: Vec<String> = Vec::with_capacity(boards.len());
    for board in &boards {
        let level: String = board.try_get(0)?;
        sqlx::query(
            "DELETE FROM best_runs WHERE level_hash = $1 AND sim_version = $2 \
             AND assisted = $3 AND player_key = $4",
        )
        .bind(&level)
        .bind(board.try_get::<i64, _>(1)?)
        .bind(board.try_get::<i64, _>(2)?)
        .bind(key)
        .execute(&mut *conn)
        .await?;
        if levels.last() != Some(&level) {
            levels.push(level);
        }
    }
    Ok(Some(levels))
}
