//! Shared levels: uploaded with the author's finishing replay (verified before the level is
//! stored: its time is the author time), shown and rated (browse.rs lists and searches them).

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use serde::Serialize;
use serde_json::{json, Value};
use sqlx::any::AnyRow;
use sqlx::Row;
use tether_online_proto::level_hash;
use tether_online_proto::wire::{LevelInfo, LevelRecord, PublishAnswer, PublishBody, RatingBody};
use tether_sim::limits;

use super::AppState;
use crate::auth;
use crate::db::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::verify::{parse_replay, verify, Verdict};

/// `POST /api/v1/levels`' answer: the game's `PublishAnswer` and the author run's id.
#[derive(Serialize)]
pub struct UploadAnswer {
    run: i64,
    #[serde(flatten)]
    published: PublishAnswer,
}

/// `GET /api/v1/levels/{hash}`'s answer: the game's `LevelInfo` and the medal times.
#[derive(Serialize)]
pub struct LevelDetails {
    medal_times: Value,
    #[serde(flatten)]
    level: LevelInfo,
}

/// `POST /api/v1/levels`: stores a level once its author's run is re-simulated to the goal.
pub async fn upload(
    State(app): State<AppState>,
    raw: Bytes,
) -> ApiResult<(StatusCode, Json<UploadAnswer>)> {
    // Its own commit: the author's run is re-simulated before the level's transaction opens, so
    // no write waits on a simulation (SQLite has one writer).
    let write = app.check_signature(&raw)?;
    let signed = {
        let mut conn = app.db.acquire().await?;
        app.authenticate_player(&mut conn, write).await?
    };
    let upload: PublishBody = auth::parse_body(&signed.body)?;
    if upload.text.len() as u64 > limits::MAX_LEVEL_FILE_BYTES {
        return Err(ApiError::bad_request(
            "bad_level",
            "the level is larger than 1 MiB",
        ));
    }
    let hash = level_hash(&upload.text);
    let exists: Option<i64> = sqlx::query_scalar("SELECT 1 FROM levels WHERE hash = $1")
        .bind(&hash)
        .fetch_optional(&app.db)
        .await?;
    if exists.is_some() {
        return Err(ApiError::conflict(
            "exists",
            format!("level {hash} is already here"),
        ));
    }
    let book = std::sync::Arc::clone(&app.verifier.book);
    let (text, replay_text, ticks) = (upload.text.clone(), upload.replay, upload.ticks);
    let checked = app
        .verifier
        .run_blocking(move || check_author_clear(&book, &text, &replay_text, ticks))
        .await?;
    let (name, ghost) = match checked {
        AuthorClear::Finished { name, ghost } => (name, ghost),
        AuthorClear::Refused(reason) => {
            return Err(ApiError::bad_request(
                "no_author_clear",
                format!("the author's run does not finish the level: {reason}"),
            ))
        }
    };
    let run =
        store_level_and_author_run(&app, &signed.key, &hash, &name, &upload.text, ticks, &ghost)
            .await?;
    Ok((
        StatusCode::CREATED,
        Json(UploadAnswer {
            run,
            published: PublishAnswer {
                hash,
                name,
                author_ticks: ticks as i64,
            },
        }),
    ))
}

/// What re-simulating an upload's author run found.
enum AuthorClear {
    /// The level's name and the run's replay as stored (the ghost).
    Finished {
        name: String,
        ghost: String,
    },
    Refused(String),
}

/// Builds the uploaded level and re-simulates its author's run (blocking: run it in the pool).
fn check_author_clear(
    book: &crate::verify::LevelBook,
    text: &str,
    replay_text: &str,
    ticks: u64,
) -> Result<AuthorClear, ApiError> {
    let world = book
        .build(text, "level")
        .map_err(|m| ApiError::bad_request("bad_level", m))?;
    let replay = parse_replay(replay_text).map_err(|m| ApiError::bad_request("bad_replay", m))?;
    if replay.assists.any() {
        return Err(ApiError::bad_request(
            "assisted_author_run",
            "the author's clear must be played without assists",
        ));
    }
    let name = tether_sim::LevelDef::from_ron(text, "level")
        .map_err(|e| ApiError::bad_request("bad_level", e.to_string()))?
        .name;
    Ok(
        match verify(&world, &replay, ticks, limits::MAX_REPLAY_TICKS) {
            Verdict::Finished { .. } => AuthorClear::Finished {
                name,
                ghost: replay.without_unread_aims().to_ron(),
            },
            Verdict::Refused(reason) => AuthorClear::Refused(reason),
        },
    )
}

/// Stores a verified upload and its author's run, in one transaction: the run is a verified
/// finish like any other, so it goes on the board (and counts as the level's first play and
/// finish). Returns the run's id.
async fn store_level_and_author_run(
    app: &super::App,
    author: &str,
    hash: &str,
    name: &str,
    text: &str,
    ticks: u64,
    ghost: &str,
) -> ApiResult<i64> {
    let mut tx = app.db.begin().await?;
    let inserted = sqlx::query(
        "INSERT INTO levels (hash, name, name_folded, author_key, text, author_ticks, campaign, \
         created_ms, plays, finishes) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, 1, 1) \
         ON CONFLICT DO NOTHING",
    )
    .bind(hash)
    .bind(name)
    .bind(name.to_lowercase())
    .bind(author)
    .bind(text)
    .bind(ticks as i64)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if inserted == 0 {
        // Two uploads of one level raced; the other stored it first.
        return Err(ApiError::conflict(
            "exists",
            format!("level {hash} is already here"),
        ));
    }
    let run: i64 = sqlx::query_scalar(
        "INSERT INTO runs (player_key, level_hash, sim_version, assisted, ticks, replay, \
         submitted_ms, wall_clock_ms, status, flagged) \
         VALUES ($1, $2, $3, 0, $4, $5, $6, 0, 'verified', 0) RETURNING id",
    )
    .bind(author)
    .bind(hash)
    .bind(tether_sim::SIM_VERSION as i64)
    .bind(ticks as i64)
    .bind(ghost)
    .bind(now_ms())
    .fetch_one(&mut *tx)
    .await?;
    crate::db::offer_best(&mut tx, run).await?;
    tx.commit().await?;
    Ok(run)
}

/// The columns `level_info` reads, on `levels l` joined to its author `players p`.
pub(super) const LEVEL_COLUMNS: &str = "l.hash, l.name, p.name, l.campaign, l.plays, l.finishes, \
     l.author_ticks, l.rating_sum, l.rating_count, l.difficulty_sum, l.difficulty_count, \
     l.created_ms";

/// A `LEVEL_COLUMNS` row as browse lists it (no finishers or record: those cost a query each).
pub(super) fn level_info(row: &AnyRow) -> Result<LevelInfo, sqlx::Error> {
    let ratio = |sum: i64, count: i64| (count > 0).then(|| sum as f64 / count as f64);
    let (plays, finishes): (i64, i64) = (row.try_get(4)?, row.try_get(5)?);
    Ok(LevelInfo {
        hash: row.try_get(0)?,
        name: row.try_get(1)?,
        author: row.try_get(2)?,
        campaign: row.try_get::<i64, _>(3)? != 0,
        plays,
        finishes,
        clear_rate: ratio(finishes, plays),
        author_ticks: row.try_get(6)?,
        rating: ratio(row.try_get(7)?, row.try_get(8)?),
        difficulty: ratio(row.try_get(9)?, row.try_get(10)?),
        created_ms: row.try_get(11)?,
        finishers: None,
        record: None,
    })
}

/// `GET /api/v1/levels/{hash}`: a level's figures, distinct finishers and record.
pub async fn details(
    State(app): State<AppState>,
    Path(hash): Path<String>,
) -> ApiResult<Json<LevelDetails>> {
    super::check_path_id(&hash, "level")?;
    let row = sqlx::query(&format!(
        "SELECT {LEVEL_COLUMNS} FROM levels l LEFT JOIN players p ON p.key = l.author_key \
         WHERE l.hash = $1 AND l.hidden = 0"
    ))
    .bind(&hash)
    .fetch_optional(&app.reads)
    .await?
    .ok_or_else(|| ApiError::not_found("level"))?;
    let mut level = level_info(&row)?;
    let finishers: i64 = sqlx::query_scalar(
        "SELECT COUNT(DISTINCT b.player_key) FROM best_runs b JOIN players p ON p.key = b.player_key \
         WHERE b.level_hash = $1 AND p.hidden = 0",
    )
    .bind(&hash)
    .fetch_one(&app.reads)
    .await?;
    let record = sqlx::query(
        "SELECT b.run_id, b.ticks, p.name FROM best_runs b JOIN players p ON p.key = b.player_key \
         WHERE b.level_hash = $1 AND b.sim_version = $2 AND b.assisted = 0 AND p.hidden = 0 \
         ORDER BY b.ticks, b.run_id LIMIT 1",
    )
    .bind(&hash)
    .bind(tether_sim::SIM_VERSION as i64)
    .fetch_optional(&app.reads)
    .await?;
    level.finishers = Some(finishers);
    level.record = match record {
        Some(r) => Some(LevelRecord {
            run: r.try_get(0)?,
            ticks: r.try_get(1)?,
            name: r.try_get(2)?,
        }),
        None => None,
    };
    Ok(Json(LevelDetails {
        medal_times: super::medals::medal_times_json(level.author_ticks),
        level,
    }))
}

/// `GET /api/v1/levels/{hash}/text`: the level file, to play.
pub async fn text(
    State(app): State<AppState>,
    Path(hash): Path<String>,
) -> ApiResult<impl IntoResponse> {
    super::check_path_id(&hash, "level")?;
    let text: String = sqlx::query_scalar("SELECT text FROM levels WHERE hash = $1 AND hidden = 0")
        .bind(&hash)
        .fetch_optional(&app.reads)
        .await?
        .ok_or_else(|| ApiError::not_found("level"))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text))
}

/// `POST /api/v1/levels/{hash}/rating`: once per player, after a verified finish.
pub async fn rate(
    State(app): State<AppState>,
    Path(hash): Path<String>,
    raw: Bytes,
) -> ApiResult<Json<Value>> {
    super::check_path_id(&hash, "level")?;
    let write = app.check_signature(&raw)?;
    app.write(move |app, conn| Box::pin(async move { rate_in(app, conn, &hash, write).await }))
        .await
}

async fn rate_in(
    app: &super::App,
    conn: &mut sqlx::AnyConnection,
    hash: &str,
    write: super::SignedWrite,
) -> ApiResult<Json<Value>> {
    let signed = app.authenticate_player(conn, write).await?;
    let RatingBody { rating, difficulty } = auth::parse_body(&signed.body)?;
    let (rating, difficulty) = (i64::from(rating), i64::from(difficulty));
    if !(1..=5).contains(&rating) || !(1..=5).contains(&difficulty) {
        return Err(ApiError::bad_request(
            "bad_body",
            "rating and difficulty are 1 to 5",
        ));
    }
    let finished: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM runs WHERE level_hash = $1 AND player_key = $2 AND status = 'verified' LIMIT 1",
    )
    .bind(hash)
    .bind(&signed.key)
    .fetch_optional(&mut *conn)
    .await?;
    if finished.is_none() {
        return Err(ApiError::forbidden(
            "not_finished",
            "finish the level before rating it",
        ));
    }
    let inserted = sqlx::query(
        "INSERT INTO ratings (level_hash, player_key, rating, difficulty) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
    )
    .bind(hash)
    .bind(&signed.key)
    .bind(rating)
    .bind(difficulty)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Err(ApiError::conflict(
            "already_rated",
            "you rated this level already",
        ));
    }
    sqlx::query(
        "UPDATE levels SET rating_sum = rating_sum + $1, rating_count = rating_count + 1, \
         difficulty_sum = difficulty_sum + $2, difficulty_count = difficulty_count + 1 WHERE hash = $3",
    )
    .bind(rating)
    .bind(difficulty)
    .bind(hash)
    .execute(&mut *conn)
    .await?;
    Ok(Json(
        json!({ "level": hash, "rating": rating, "difficulty": difficulty }),
    ))
}
