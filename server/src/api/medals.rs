//! Medals: per level, the best medal a player's best verified unassisted run earns against the
//! level's author time (`tether_sim::MedalTimes`, the same rule the game's campaign uses; campaign
//! levels' author times come from `levels/index.ron`, shared levels' from the upload run).

use axum::extract::{Path, State};
use axum::Json;
use serde_json::{json, Value};
use sqlx::Row;
use tether_sim::{MedalTimes, SIM_VERSION};

use super::AppState;
use crate::error::{ApiError, ApiResult};

/// The best medal `ticks` earns on a level whose author time is `author_ticks`, by name.
pub fn medal_name(author_ticks: i64, ticks: i64) -> Option<&'static str> {
    MedalTimes::from_author(author_ticks.max(0) as u64)
        .medal_for(ticks.max(0) as u64)
        .map(|medal| medal.name())
}

/// The four limits (the slowest time that still earns each medal), in ticks.
pub fn medal_times_json(author_ticks: i64) -> Value {
    let times = MedalTimes::from_author(author_ticks.max(0) as u64);
    json!({ "author": times.author, "gold": times.gold, "silver": times.silver,
            "bronze": times.bronze })
}

/// `GET /api/v1/players/{key}/medals`: every visible level where the player's best verified
/// unassisted run (this simulation version) earns a medal, and how many of each they hold.
pub async fn of_player(
    State(app): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Json<Value>> {
    super::check_path_id(&key, "player")?;
    let key = key.to_ascii_lowercase();
    let visible: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM players WHERE key = $1 AND hidden = 0")
            .bind(&key)
            .fetch_optional(&app.reads)
            .await?;
    visible.ok_or_else(|| ApiError::not_found("player"))?;
    let rows = sqlx::query(
        "SELECT b.level_hash, l.name, l.campaign, l.author_ticks, b.ticks, b.run_id \
         FROM best_runs b JOIN levels l ON l.hash = b.level_hash \
         WHERE b.player_key = $1 AND b.sim_version = $2 AND b.assisted = 0 AND l.hidden = 0 \
         ORDER BY l.campaign DESC, l.name, b.level_hash",
    )
    .bind(&key)
    .bind(SIM_VERSION as i64)
    .fetch_all(&app.reads)
    .await?;
    let mut medals = Vec::new();
    let mut counts = json!({ "author": 0, "gold": 0, "silver": 0, "bronze": 0 });
    for row in &rows {
        let (author_ticks, ticks): (i64, i64) = (row.try_get(3)?, row.try_get(4)?);
        let Some(medal) = medal_name(author_ticks, ticks) else {
            continue;
        };
        counts[medal] = json!(counts[medal].as_i64().unwrap_or(0) + 1);
        medals.push(json!({
            "level": row.try_get::<String, _>(0)?,
            "name": row.try_get::<String, _>(1)?,
            "campaign": row.try_get::<i64, _>(2)? != 0,
            "medal": medal,
            "ticks": ticks,
            "run": row.try_get::<i64, _>(5)?,
            "medal_times": medal_times_json(author_ticks),
        }));
    }
    Ok(Json(
        json!({ "player": key, "counts": counts, "medals": medals }),
    ))
}
