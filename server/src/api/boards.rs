//! Boards. `best_runs` holds each player's best verified run per (level, simulation version,
//! assisted); a rank is one indexed count of the faster rows, so boards stay cheap however many
//! runs are stored. Ties go to the earlier run (the lower id).

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, Row};
use tether_online_proto::wire::{AroundAnswer, BoardAnswer, BoardEntry};
use tether_sim::SIM_VERSION;

use std::sync::Arc;

use super::{App, AppState};
use crate::board_cache::{top_json, FirstPage, Lookup, Variant};
use crate::db::Db;
use crate::error::{ApiError, ApiResult};
use crate::read_timing::{self, Stage};

/// Most entries one board request returns.
pub const MAX_BOARD_ENTRIES: i64 = 100;

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardQuery {
    /// The assisted board instead of the unassisted one.
    #[serde(default)]
    assisted: bool,
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    offset: Option<i64>,
    /// For a player's place: how many entries to show either side.
    #[serde(default)]
    around: Option<i64>,
    #[serde(default)]
    sim_version: Option<u32>,
}

/// `GET /api/v1/levels/{hash}/board/{key}`'s answer: the game's `AroundAnswer`, whose board and
/// player it is, and the medal the player's time earns (none on the assisted board).
#[derive(Serialize)]
pub struct PlaceAnswer {
    level: String,
    player: String,
    medal: Option<&'static str>,
    #[serde(flatten)]
    place: AroundAnswer,
}

impl BoardQuery {
    fn version(&self) -> i64 {
        self.sim_version.unwrap_or(SIM_VERSION) as i64
    }
}

/// Board entries from `offset`, `limit` of them, hidden players left out.
async fn entries(
    conn: &mut AnyConnection,
    level: &str,
    query: &BoardQuery,
    offset: i64,
    limit: i64,
) -> ApiResult<Vec<BoardEntry>> {
    let rows = sqlx::query(
        "SELECT b.player_key, p.name, b.ticks, b.run_id FROM best_runs b \
         JOIN players p ON p.key = b.player_key \
         WHERE b.level_hash = $1 AND b.sim_version = $2 AND b.assisted = $3 AND p.hidden = 0 \
         ORDER BY b.ticks, b.run_id LIMIT $4 OFFSET $5",
    )
    .bind(level)
    .bind(query.version())
    .bind(query.assisted as i64)
    .bind(limit.clamp(0, MAX_BOARD_ENTRIES))
    .bind(offset.max(0))
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            Ok(BoardEntry {
                rank: offset.max(0) + i as i64 + 1,
                player: row.try_get(0)?,
                name: row.try_get(1)?,
                ticks: row.try_get(2)?,
                run: row.try_get(3)?,
            })
        })
        .collect()
}

/// The level's author time, or not found if the level is not there (or hidden).
async fn check_level(conn: &mut AnyConnection, level: &str) -> ApiResult<i64> {
    super::check_path_id(level, "level")?;
    let author_ticks: Option<i64> =
        sqlx::query_scalar("SELECT author_ticks FROM levels WHERE hash = $1 AND hidden = 0")
            .bind(level)
            .fetch_optional(&mut *conn)
            .await?;
    author_ticks.ok_or_else(|| ApiError::not_found("level"))
}

/// `GET /api/v1/levels/{hash}/board`: the top runs (from the board cache when it has them).
pub async fn top(
    State(app): State<AppState>,
    Path(level): Path<String>,
    Query(query): Query<BoardQuery>,
) -> ApiResult<Response> {
    let variant = Variant::Top {
        sim_version: query.version(),
        assisted: query.assisted,
        limit: query.limit.unwrap_or(10),
        offset: query.offset.unwrap_or(0),
    };
    let started = read_timing::start();
    let refresh_query = query.clone();
    if let Some(json) = cached(&app, &level, &variant, move |app, level| async move {
        read_top(&app, level, &refresh_query).await
    }) {
        read_timing::record(Stage::TopHit, started);
        return Ok(json_response(json));
    }
    let json = read_top(&app, level, &query).await?;
    read_timing::record(Stage::TopMiss, started);
    Ok(json_response(json))
}

/// The cached answer for `variant`, if the cache holds one; when it asks for a refresh, `read`
/// (which reads the answer again and stores it) runs in the background.
fn cached<F, Fut>(app: &AppState, level: &str, variant: &Variant, read: F) -> Option<Bytes>
where
    F: FnOnce(AppState, String) -> Fut,
    Fut: std::future::Future<Output = ApiResult<Bytes>> + Send + 'static,
{
    match app.boards.lookup(level, variant) {
        Lookup::Fresh(json) => Some(json),
        Lookup::RefreshDue(json) => {
            // A failed refresh leaves the answer to expire; the next request reads it.
            let refresh = read(Arc::clone(app), level.to_string());
            tokio::spawn(async move { drop(refresh.await) });
            Some(json)
        }
        Lookup::Missing => None,
    }
}

/// Reads a top page from the database and keeps it in the board cache; its JSON.
async fn read_top(app: &App, level: String, query: &BoardQuery) -> ApiResult<Bytes> {
    let offset = query.offset.unwrap_or(0);
    let limit = query.limit.unwrap_or(10);
    let variant = Variant::Top {
        sim_version: query.version(),
        assisted: query.assisted,
        limit,
        offset,
    };
    let ticket = app.boards.ticket(&level);
    let mut conn = acquire_read(&app.reads).await?;
    check_level(&mut conn, &level).await?;
    let entries = entries(&mut conn, &level, query, offset, limit).await?;
    drop(conn);
    let board = Arc::new(BoardAnswer { entries });
    let json = top_json(&level, query.assisted, &board).map_err(internal)?;
    if offset <= 0 {
        let page_size = limit.clamp(0, MAX_BOARD_ENTRIES) as usize;
        let page = FirstPage { board, page_size };
        app.boards
            .store_first_page(&level, variant, json.clone(), page, ticket);
    } else {
        app.boards.store(&level, variant, json.clone(), ticket);
    }
    Ok(json)
}

fn internal(message: String) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
}

/// A connection from the GETs' pool (the wait is timed: `read_timing`).
async fn acquire_read(reads: &Db) -> ApiResult<PoolConnection<Any>> {
    let started = read_timing::start();
    let conn = reads.acquire().await?;
    read_timing::record(Stage::PoolWait, started);
    Ok(conn)
}

/// An answer's JSON, as `Json` would write it, to keep and to send.
fn to_json(answer: &impl Serialize) -> ApiResult<Bytes> {
    serde_json::to_vec(answer)
        .map(Bytes::from)
        .map_err(|err| internal(format!("cannot write the answer: {err}")))
}

/// A JSON answer from its bytes, with the headers `Json` gives.
fn json_response(json: Bytes) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        json,
    )
        .into_response()
}

/// `GET /api/v1/levels/{hash}/board/{key}`: a player's rank, percentile and neighbours.
pub async fn around_player(
    State(app): State<AppState>,
    Path((level, key)): Path<(String, String)>,
    Query(query): Query<BoardQuery>,
) -> ApiResult<Response> {
    let around = query.around.unwrap_or(5).clamp(0, MAX_BOARD_ENTRIES / 2);
    let variant = Variant::Place {
        sim_version: query.version(),
        assisted: query.assisted,
        player: key.to_ascii_lowercase(),
        around,
    };
    let started = read_timing::start();
    let (refresh_key, refresh_query) = (key.clone(), query.clone());
    if let Some(json) = cached(&app, &level, &variant, move |app, level| async move {
        read_place(&app, level, refresh_key, &refresh_query).await
    }) {
        read_timing::record(Stage::PlaceHit, started);
        return Ok(json_response(json));
    }
    let json = read_place(&app, level, key, &query).await?;
    read_timing::record(Stage::PlaceMiss, started);
    Ok(json_response(json))
}

/// Reads a player's place from the database and keeps it in the board cache; its JSON.
async fn read_place(app: &App, level: String, key: String, query: &BoardQuery) -> ApiResult<Bytes> {
    let around = query.around.unwrap_or(5).clamp(0, MAX_BOARD_ENTRIES / 2);
    let variant = Variant::Place {
        sim_version: query.version(),
        assisted: query.assisted,
        player: key.to_ascii_lowercase(),
        around,
    };
    let ticket = app.boards.ticket(&level);
    let mut conn = acquire_read(&app.reads).await?;
    let answer = place(&mut conn, level, key, query, around).await?;
    drop(conn);
    let json = to_json(&answer)?;
    app.boards
        .store(&answer.level, variant, json.clone(), ticket);
    Ok(json)
}

/// A player's place, read from the database.
async fn place(
    conn: &mut AnyConnection,
    level: String,
    key: String,
    query: &BoardQuery,
    around: i64,
) -> ApiResult<PlaceAnswer> {
    let author_ticks = check_level(conn, &level).await?;
    super::check_path_id(&key, "player")?;
    let key = key.to_ascii_lowercase();
    let (version, assisted) = (query.version(), query.assisted as i64);
    let best = sqlx::query(
        "SELECT b.ticks, b.run_id FROM best_runs b JOIN players p ON p.key = b.player_key \
         WHERE b.level_hash = $1 AND b.sim_version = $2 AND b.assisted = $3 \
         AND b.player_key = $4 AND p.hidden = 0",
    )
    .bind(&level)
    .bind(version)
    .bind(assisted)
    .bind(&key)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| ApiError::not_found("run of this player on this board"))?;
    let (ticks, run_id): (i64, i64) = (best.try_get(0)?, best.try_get(1)?);
    let counts = sqlx::query(
        "SELECT COUNT(*), \
         SUM(CASE WHEN b.ticks < $4 OR (b.ticks = $4 AND b.run_id < $5) THEN 1 ELSE 0 END) \
         FROM best_runs b JOIN players p ON p.key = b.player_key \
         WHERE b.level_hash = $1 AND b.sim_version = $2 AND b.assisted = $3 AND p.hidden = 0",
    )
    .bind(&level)
    .bind(version)
    .bind(assisted)
    .bind(ticks)
    .bind(run_id)
    .fetch_one(&mut *conn)
    .await?;
    let total: i64 = counts.try_get(0)?;
    let ahead: i64 = counts.try_get::<Option<i64>, _>(1)?.unwrap_or(0);
    let rank = ahead + 1;
    let neighbours = entries(conn, &level, query, rank - 1 - around, 2 * around + 1).await?;
    Ok(PlaceAnswer {
        level,
        player: key,
        // As in the game: assisted runs earn no medal.
        medal: if query.assisted {
            None
        } else {
            super::medals::medal_name(author_ticks, ticks)
        },
        place: AroundAnswer {
            rank,
            of: total,
            top_percent: 100.0 * rank as f64 / total.max(1) as f64,
            ticks,
            run: run_id,
            around: neighbours,
        },
    })
}

/// Hides a run and puts its player's next best visible run on the board in its place, on the
/// caller's transaction. The level whose boards changed, if the run was there.
pub async fn hide_run(conn: &mut AnyConnection, run_id: i64) -> ApiResult<Option<String>> {
    let Some(row) = sqlx::query(
        "UPDATE runs SET hidden = 1 WHERE id = $1 \
         RETURNING level_hash, sim_version, assisted, player_key",
    )
    .bind(run_id)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let board: (String, i64, i64, String) = (
        row.try_get(0)?,
        row.try_get(1)?,
        row.try_get(2)?,
        row.try_get(3)?,
    );
    let same_board = "level_hash = $1 AND sim_version = $2 AND assisted = $3 AND player_key = $4";
    let delete = format!("DELETE FROM best_runs WHERE {same_board}");
    bind_board(&delete, &board).execute(&mut *conn).await?;
    let next_best = format!(
        "INSERT INTO best_runs (level_hash, sim_version, assisted, player_key, ticks, run_id) \
         SELECT level_hash, sim_version, assisted, player_key, ticks, id FROM runs \
         WHERE {same_board} AND status = 'verified' AND hidden = 0 ORDER BY ticks, id LIMIT 1"
    );
    bind_board(&next_best, &board).execute(&mut *conn).await?;
    Ok(Some(board.0))
}

/// `sql` with one player's board bound as $1..$4: level, simulation version, assisted, player.
fn bind_board<'q>(
    sql: &'q str,
    board: &'q (String, i64, i64, String),
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    sqlx::query(sql)
        .bind(&board.0)
        .bind(board.1)
        .bind(board.2)
        .bind(&board.3)
}
