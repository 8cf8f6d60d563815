//! Boards. `best_runs` holds each visible player's best verified run per (level, simulation
//! version, assisted): hiding a player deletes their rows, so every query here reads the board
//! alone. A rank is one count over the index of the rows ahead, a place's neighbours are seeks
//! to (ticks, run) either side of the player's row, and ties go to the earlier run (the lower
//! id).

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
use crate::board_cache::{top_json, Board, FirstPage, Lookup, PlaceOf, TopPage, Variant};
use crate::db::Db;
use crate::error::{ApiError, ApiResult};
use crate::read_timing::{self, Stage};

/// Most entries one board request returns.
pub const MAX_BOARD_ENTRIES: i64 = 100;

/// The rows of one board, with the board bound as $1 (level), $2 (version), $3 (assisted).
const ON_BOARD: &str = "level_hash = $1 AND sim_version = $2 AND assisted = $3";

/// The width of `board_times`' coarse rows (migration 3 writes the same number into its
/// triggers): a board's players are counted per span of this many ticks and per exact time.
const BOARD_SPAN_TICKS: i64 = 256;

/// How many players on the board ($1..$3) are ahead of `b`'s row, from `board_times`: the
/// spans wholly faster than `b`'s, the exact times in its span that are faster, and the equal
/// times of earlier runs (ties go to the earlier run; the only count over `best_runs`, as long
/// as the tie). At most a few hundred rows whatever the board's size.
fn ahead_sql() -> String {
    let span_start = format!("b.ticks / {BOARD_SPAN_TICKS} * {BOARD_SPAN_TICKS}");
    let sum = "SELECT CAST(COALESCE(SUM(players), 0) AS BIGINT) FROM board_times";
    format!(
        "(({sum} WHERE {ON_BOARD} AND width_ticks = {BOARD_SPAN_TICKS} \
           AND start_ticks < {span_start}) \
         + ({sum} WHERE {ON_BOARD} AND width_ticks = 1 \
           AND start_ticks >= {span_start} AND start_ticks < b.ticks) \
         + (SELECT COUNT(*) FROM best_runs a WHERE {ON_BOARD} \
           AND a.ticks = b.ticks AND a.run_id < b.run_id))"
    )
}

/// How many players the board ($1..$3) has: the sum of its spans in `board_times`.
fn board_size_sql() -> String {
    format!(
        "(SELECT CAST(COALESCE(SUM(players), 0) AS BIGINT) FROM board_times \
         WHERE {ON_BOARD} AND width_ticks = {BOARD_SPAN_TICKS})"
    )
}

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
    fn board(&self) -> Board {
        Board {
            sim_version: self.sim_version.unwrap_or(SIM_VERSION) as i64,
            assisted: self.assisted,
        }
    }
}

/// `query` with `board` bound as $1..$3 (see `ON_BOARD`).
fn bind_on_board<'q>(
    sql: &'q str,
    level: &'q str,
    board: Board,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    sqlx::query(sql)
        .bind(level)
        .bind(board.sim_version)
        .bind(board.assisted as i64)
}

/// Pages from this offset on start from the time `board_times` finds for them rather than by
/// walking that many index entries (below it the walk is the cheaper of the two).
const SEEK_FROM_OFFSET: i64 = 1_000;

/// Board entries from `offset`, `limit` of them. A deep page starts at the time its first row
/// has (`time_at`) and walks only the ties there; only the page's rows are joined to names.
async fn entries(
    conn: &mut AnyConnection,
    level: &str,
    board: Board,
    offset: i64,
    limit: i64,
) -> ApiResult<Vec<BoardEntry>> {
    let offset = offset.max(0);
    let (from_ticks, skip) = if offset >= SEEK_FROM_OFFSET {
        match time_at(conn, level, board, offset).await? {
            Some((ticks, rows_before)) => (ticks, offset - rows_before),
            None => return Ok(Vec::new()), // past the board's end
        }
    } else {
        (0, offset)
    };
    let sql = format!(
        "SELECT b.player_key, p.name, b.ticks, b.run_id FROM (SELECT player_key, ticks, run_id \
         FROM best_runs WHERE {ON_BOARD} AND ticks >= $6 ORDER BY ticks, run_id \
         LIMIT $4 OFFSET $5) b JOIN players p ON p.key = b.player_key ORDER BY b.ticks, b.run_id"
    );
    let rows = bind_on_board(&sql, level, board)
        .bind(limit.clamp(0, MAX_BOARD_ENTRIES))
        .bind(skip)
        .bind(from_ticks)
        .fetch_all(&mut *conn)
        .await?;
    numbered_entries(&rows, offset + 1)
}

/// The time of the board's row at 0-based `position`, and how many rows have a faster time;
/// None past the board's end. Read from `board_times`: its spans, then the exact times in one.
async fn time_at(
    conn: &mut AnyConnection,
    level: &str,
    board: Board,
    position: i64,
) -> ApiResult<Option<(i64, i64)>> {
    let spans_sql = format!(
        "SELECT start_ticks, players FROM board_times WHERE {ON_BOARD} \
         AND width_ticks = {BOARD_SPAN_TICKS} AND players > 0 ORDER BY start_ticks"
    );
    let spans = bind_on_board(&spans_sql, level, board)
        .fetch_all(&mut *conn)
        .await?;
    let Some((span_start, before_span)) = first_reaching(&spans, position, 0)? else {
        return Ok(None);
    };
    let times_sql = format!(
        "SELECT start_ticks, players FROM board_times WHERE {ON_BOARD} AND width_ticks = 1 \
         AND start_ticks >= $4 AND start_ticks < $5 AND players > 0 ORDER BY start_ticks"
    );
    let times = bind_on_board(&times_sql, level, board)
        .bind(span_start)
        .bind(span_start + BOARD_SPAN_TICKS)
        .fetch_all(&mut *conn)
        .await?;
    first_reaching(&times, position, before_span)
}

/// Of rows of (start, players) in order, after `counted` players: the first row whose players
/// reach past `position`, with the players before it.
fn first_reaching(
    rows: &[sqlx::any::AnyRow],
    position: i64,
    mut counted: i64,
) -> ApiResult<Option<(i64, i64)>> {
    for row in rows {
        let (start, players): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        if counted + players > position {
            return Ok(Some((start, counted)));
        }
        counted += players;
    }
    Ok(None)
}

/// Rows of (player, name, ticks, run) as entries, the first ranked `first_rank`.
fn numbered_entries(rows: &[sqlx::any::AnyRow], first_rank: i64) -> ApiResult<Vec<BoardEntry>> {
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            Ok(BoardEntry {
                rank: first_rank + i as i64,
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
    let page = TopPage {
        board: query.board(),
        limit: query.limit.unwrap_or(10),
        offset: query.offset.unwrap_or(0),
    };
    let started = read_timing::start();
    if let Some(json) = cached(
        &app,
        &level,
        &Variant::Top(page),
        move |app, level| async move { read_top(&app, level, page).await },
    ) {
        read_timing::record(Stage::TopHit, started);
        return Ok(json_response(json));
    }
    let json = read_top(&app, level, page).await?;
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
async fn read_top(app: &App, level: String, page: TopPage) -> ApiResult<Bytes> {
    let ticket = app.boards.ticket(&level);
    let mut conn = acquire_read(&app.reads).await?;
    check_level(&mut conn, &level).await?;
    let entries = entries(&mut conn, &level, page.board, page.offset, page.limit).await?;
    drop(conn);
    let board = Arc::new(BoardAnswer { entries });
    let json = top_json(&level, page.board.assisted, &board).map_err(internal)?;
    if page.offset <= 0 {
        let page_size = page.limit.clamp(0, MAX_BOARD_ENTRIES) as usize;
        let first = FirstPage { board, page_size };
        app.boards
            .store_first_page(&level, Variant::Top(page), json.clone(), first, ticket);
    } else {
        app.boards
            .store(&level, Variant::Top(page), json.clone(), ticket);
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
    super::check_path_id(&level, "level")?;
    super::check_path_id(&key, "player")?;
    let place = PlaceOf {
        board: query.board(),
        player: key.to_ascii_lowercase(),
        around: query.around.unwrap_or(5).clamp(0, MAX_BOARD_ENTRIES / 2),
    };
    let variant = Variant::Place(place.clone());
    let started = read_timing::start();
    let refresh_place = place.clone();
    if let Some(json) = cached(&app, &level, &variant, move |app, level| async move {
        read_place(&app, level, refresh_place).await
    }) {
        read_timing::record(Stage::PlaceHit, started);
        return Ok(json_response(json));
    }
    let json = read_place(&app, level, place).await?;
    read_timing::record(Stage::PlaceMiss, started);
    Ok(json_response(json))
}

/// Reads a player's place from the database and keeps it in the board cache; its JSON.
async fn read_place(app: &App, level: String, place_of: PlaceOf) -> ApiResult<Bytes> {
    let ticket = app.boards.ticket(&level);
    let mut conn = acquire_read(&app.reads).await?;
    let answer = place(&mut conn, level, &place_of).await?;
    drop(conn);
    let json = to_json(&answer)?;
    app.boards.store(
        &answer.level,
        Variant::Place(place_of),
        json.clone(),
        ticket,
    );
    Ok(json)
}

/// A player's place, read from the database in two round trips: the place (level, the
/// player's best, the count ahead and the board's size), then its neighbours.
async fn place(
    conn: &mut AnyConnection,
    level: String,
    place_of: &PlaceOf,
) -> ApiResult<PlaceAnswer> {
    let board = place_of.board;
    // The level joined to the player's row, so one row answers "no such level" (no row) and
    // "no run" (no best) apart. The subqueries' unqualified columns are their own tables'.
    let sql = format!(
        "SELECT l.author_ticks, b.ticks, b.run_id, {}, {} \
         FROM levels l LEFT JOIN best_runs b ON b.level_hash = l.hash AND b.sim_version = $2 \
         AND b.assisted = $3 AND b.player_key = $4 WHERE l.hash = $1 AND l.hidden = 0",
        ahead_sql(),
        board_size_sql()
    );
    let row = bind_on_board(&sql, &level, board)
        .bind(&place_of.player)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| ApiError::not_found("level"))?;
    let author_ticks: i64 = row.try_get(0)?;
    let (Some(ticks), Some(run_id)) = (
        row.try_get::<Option<i64>, _>(1)?,
        row.try_get::<Option<i64>, _>(2)?,
    ) else {
        return Err(ApiError::not_found("run of this player on this board"));
    };
    let (ahead, total): (i64, i64) = (row.try_get(3)?, row.try_get(4)?);
    let rank = ahead + 1;
    let around = neighbours(conn, &level, board, (ticks, run_id), place_of.around).await?;
    let first_rank = rank
        - around
            .iter()
            .filter(|e| (e.ticks, e.run) < (ticks, run_id))
            .count() as i64;
    let around = around
        .into_iter()
        .enumerate()
        .map(|(i, entry)| BoardEntry {
            rank: first_rank + i as i64,
            ..entry
        })
        .collect();
    Ok(PlaceAnswer {
        level,
        player: place_of.player.clone(),
        // As in the game: assisted runs earn no medal.
        medal: if board.assisted {
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
            around,
        },
    })
}

/// The entries around the row at `(ticks, run)`, in board order and unranked: up to `around`
/// ahead of it, and after it as many as make `2 * around + 1` in all (near the top, where
/// fewer are ahead, more follow: the page an offset of `rank - 1 - around` gave). Two seeks
/// into the board's index, not a walk from its top.
async fn neighbours(
    conn: &mut AnyConnection,
    level: &str,
    board: Board,
    (ticks, run_id): (i64, i64),
    around: i64,
) -> ApiResult<Vec<BoardEntry>> {
    let sql = format!(
        "SELECT n.player_key, p.name, n.ticks, n.run_id FROM ( \
           SELECT * FROM (SELECT player_key, ticks, run_id FROM best_runs WHERE {ON_BOARD} \
             AND ticks <= $4 AND (ticks < $4 OR run_id < $5) \
             ORDER BY ticks DESC, run_id DESC LIMIT $6) ahead \
           UNION ALL \
           SELECT * FROM (SELECT player_key, ticks, run_id FROM best_runs WHERE {ON_BOARD} \
             AND ticks >= $4 AND (ticks > $4 OR run_id >= $5) \
             ORDER BY ticks, run_id LIMIT $7) behind \
         ) n JOIN players p ON p.key = n.player_key ORDER BY n.ticks, n.run_id"
    );
    let page_size = 2 * around + 1;
    let rows = bind_on_board(&sql, level, board)
        .bind(ticks)
        .bind(run_id)
        .bind(around)
        .bind(page_size)
        .fetch_all(&mut *conn)
        .await?;
    let mut entries = numbered_entries(&rows, 0)?;
    entries.truncate(page_size as usize);
    Ok(entries)
}

/// Hides a run and puts its player's next best visible run on the board in its place (none if
/// the player is hidden: their rows stay off the boards), on the caller's transaction. The
/// level whose boards changed, if the run was there. The board row changes in one statement
/// (an upsert to the next best, or a delete), so its `board_times` rows are taken in one
/// ordered step as a verdict's are: a delete then an insert took them out of order and could
/// deadlock with a verdict on the same board (PostgreSQL).
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
    crate::db::hold_players_row(
        conn,
        "SELECT key FROM players WHERE key = (SELECT player_key FROM runs WHERE id = $1)",
        run_id,
    )
    .await?;
    let same_board = "level_hash = $1 AND sim_version = $2 AND assisted = $3 AND player_key = $4";
    let next_best = format!(
        "INSERT INTO best_runs (level_hash, sim_version, assisted, player_key, ticks, run_id) \
         SELECT level_hash, sim_version, assisted, player_key, ticks, id FROM runs \
         WHERE {same_board} AND status = 'verified' AND hidden = 0 \
         AND player_key IN (SELECT key FROM players WHERE hidden = 0) ORDER BY ticks, id LIMIT 1 \
         ON CONFLICT (level_hash, sim_version, assisted, player_key) DO UPDATE \
         SET ticks = excluded.ticks, run_id = excluded.run_id"
    );
    let moved = bind_board(&next_best, &board)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    if moved == 0 {
        let delete = format!("DELETE FROM best_runs WHERE {same_board}");
        bind_board(&delete, &board).execute(&mut *conn).await?;
    }
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
