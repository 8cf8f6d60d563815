//! Run sessions and submissions. A submission is checked for everything that needs no
//! simulation (signature, session, level, version, budget, wall clock), stored as `pending`
//! (the acknowledgement: it is in the database), and re-simulated later by the queue.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use sqlx::{AnyConnection, Row};
use tether_online_proto::wire::{
    RunStatusAnswer, SessionAnswer, SessionBody, SubmitAnswer, SubmitBody,
};
use tether_sim::{SIM_VERSION, TICKS_PER_SECOND};

use super::{App, AppState, SignedWrite};
use crate::auth;
use crate::db::{now_ms, random_hex};
use crate::error::{ApiError, ApiResult};
use crate::verify::{parse_replay, tick_budget};

/// A run may claim at most this much more game time than passed on the server's clock between
/// its session and its submission (network delay, clock granularity).
pub const WALL_CLOCK_SLACK_MS: i64 = 2_000;
/// A run is flagged for review when the wall clock between session and submission is more than
/// `FLAG_WALL_CLOCK_FACTOR` times the run's time at its game speed, plus `FLAG_WALL_CLOCK_SLACK_MS`:
/// the sign of a run played in slow motion (or paused, which the game allows).
pub const FLAG_WALL_CLOCK_FACTOR: i64 = 2;
pub const FLAG_WALL_CLOCK_SLACK_MS: i64 = 60_000;

/// Opens a run session: taken when an attempt starts, used once by that attempt's submission.
pub async fn start_session(
    State(app): State<AppState>,
    raw: Bytes,
) -> ApiResult<Json<SessionAnswer>> {
    let write = app.check_signature(&raw)?;
    app.write(move |app, conn| Box::pin(start_session_in(app, conn, write)))
        .await
}

async fn start_session_in(
    app: &App,
    conn: &mut AnyConnection,
    write: SignedWrite,
) -> ApiResult<Json<SessionAnswer>> {
    let signed = app.authenticate_player(conn, write).await?;
    let SessionBody { level } = auth::parse_body(&signed.body)?;
    let played = sqlx::query("UPDATE levels SET plays = plays + 1 WHERE hash = $1 AND hidden = 0")
        .bind(&level)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    if played == 0 {
        return Err(ApiError::not_found("level"));
    }
    let token = random_hex(16);
    let started_ms = now_ms();
    sqlx::query(
        "INSERT INTO sessions (token, player_key, level_hash, created_ms) VALUES ($1, $2, $3, $4)",
    )
    .bind(&token)
    .bind(&signed.key)
    .bind(&level)
    .bind(started_ms)
    .execute(&mut *conn)
    .await?;
    Ok(Json(SessionAnswer {
        session: token,
        started_ms,
    }))
}

/// Takes a run into the queue. 202 with the run's id once it is stored; refusals say why.
pub async fn submit(
    State(app): State<AppState>,
    raw: Bytes,
) -> ApiResult<(StatusCode, Json<SubmitAnswer>)> {
    let write = app.check_signature(&raw)?;
    let stored = app
        .write(move |app, conn| Box::pin(submit_in(app, conn, write)))
        .await?;
    app.verifier.wake();
    Ok(stored)
}

/// A submission's checks and its storing as `pending`, on the write's transaction.
async fn submit_in(
    app: &App,
    conn: &mut AnyConnection,
    write: SignedWrite,
) -> ApiResult<(StatusCode, Json<SubmitAnswer>)> {
    let signed = app.authenticate_player(conn, write).await?;
    let run: SubmitBody = auth::parse_body(&signed.body)?;
    if run.sim_version != SIM_VERSION {
        return Err(ApiError::bad_request(
            "other_version",
            format!(
                "the run is for simulation version {}, this server runs {SIM_VERSION}",
                run.sim_version
            ),
        ));
    }
    let session = sqlx::query(
        "DELETE FROM sessions WHERE token = $1 AND player_key = $2 RETURNING level_hash, created_ms",
    )
    .bind(&run.session)
    .bind(&signed.key)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| {
        ApiError::bad_request("bad_session", "no such run session for this key (or already used)")
    })?;
    let (session_level, session_ms): (String, i64) = (session.try_get(0)?, session.try_get(1)?);
    if session_level != run.level {
        return Err(ApiError::bad_request(
            "other_level",
            "the session was taken for another level",
        ));
    }
    let author_ticks: i64 =
        sqlx::query_scalar("SELECT author_ticks FROM levels WHERE hash = $1 AND hidden = 0")
            .bind(&run.level)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| ApiError::not_found("level"))?;
    let replay = parse_replay(&run.replay).map_err(|m| ApiError::bad_request("bad_replay", m))?;
    let budget = tick_budget(author_ticks as u64);
    if run.ticks > budget {
        return Err(ApiError::bad_request(
            "over_budget",
            format!(
                "{} ticks claimed; runs on this level may last at most {budget}",
                run.ticks
            ),
        ));
    }
    let wall_clock_ms = now_ms() - session_ms;
    let flagged = check_wall_clock(run.ticks, wall_clock_ms, replay.assists.game_speed_percent)?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO runs (player_key, level_hash, sim_version, assisted, ticks, replay, \
         submitted_ms, wall_clock_ms, status, flagged) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9) RETURNING id",
    )
    .bind(&signed.key)
    .bind(&run.level)
    .bind(SIM_VERSION as i64)
    .bind(replay.assists.any() as i64)
    .bind(run.ticks as i64)
    .bind(replay.without_unread_aims().to_ron())
    .bind(now_ms())
    .bind(wall_clock_ms)
    .bind(flagged as i64)
    .fetch_one(&mut *conn)
    .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(SubmitAnswer {
            id,
            status: "pending".into(),
            flagged,
        }),
    ))
}

/// A run's place in the queue: pending, verified or refused (with the reason).
pub async fn status(
    State(app): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<RunStatusAnswer>> {
    let row = sqlx::query(
        "SELECT r.status, r.reason, r.ticks, r.flagged, r.level_hash, r.player_key, r.assisted \
         FROM runs r JOIN players p ON p.key = r.player_key \
         WHERE r.id = $1 AND r.hidden = 0 AND p.hidden = 0",
    )
    .bind(id)
    .fetch_optional(&app.reads)
    .await?
    .ok_or_else(|| ApiError::not_found("run"))?;
    Ok(Json(RunStatusAnswer {
        id,
        status: row.try_get(0)?,
        reason: row.try_get(1)?,
        ticks: row.try_get(2)?,
        flagged: row.try_get::<i64, _>(3)? != 0,
        level: row.try_get(4)?,
        player: row.try_get(5)?,
        assisted: row.try_get::<i64, _>(6)? != 0,
    }))
}

/// A verified run's replay (RON): the ghost anyone may watch or race.
pub async fn replay(
    State(app): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<impl IntoResponse> {
    let text: String = sqlx::query_scalar(
        "SELECT r.replay FROM runs r JOIN players p ON p.key = r.player_key \
         WHERE r.id = $1 AND r.status = 'verified' AND r.hidden = 0 AND p.hidden = 0",
    )
    .bind(id)
    .fetch_optional(&app.reads)
    .await?
    .ok_or_else(|| ApiError::not_found("verified run"))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text))
}

/// The slow-motion check: refuses a run longer than the wall clock since its session (plus
/// slack); true (flag it) when the wall clock is far longer than the run at its game speed.
fn check_wall_clock(ticks: u64, wall_clock_ms: i64, speed_percent: u8) -> ApiResult<bool> {
    let run_ms = (ticks as i64) * 1000 / TICKS_PER_SECOND as i64;
    if run_ms > wall_clock_ms + WALL_CLOCK_SLACK_MS {
        return Err(ApiError::bad_request(
            "faster_than_wall_clock",
            format!("the run lasts {run_ms} ms but its session opened {wall_clock_ms} ms ago"),
        ));
    }
    let paced_ms = run_ms * 100 / speed_percent.max(1) as i64;
    Ok(wall_clock_ms > FLAG_WALL_CLOCK_FACTOR * paced_ms + FLAG_WALL_CLOCK_SLACK_MS)
}
