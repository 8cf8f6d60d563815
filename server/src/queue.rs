//! The verification queue, kept in the database: a submitted run is `pending` until a verifier
//! claims it (a lease in `claimed_until_ms`, so a verifier that dies loses its claim after the
//! lease), re-simulates it and marks it `verified` or `refused`. Any number of processes may
//! verify (the HTTP server's own verifiers, `tether-server worker`); a restart resumes whatever
//! is still pending. Re-simulation runs on the verifier's own lowered-priority threads
//! (`low_priority`), at most one per permit.

use std::sync::Arc;
use std::time::Duration;

use sqlx::{AnyConnection, Row};
use tokio::sync::{Notify, Semaphore};

use tether_online_proto::wire::BoardEntry;

use crate::board_cache::{BoardCache, NewBest};
use crate::db::{is_sqlite, now_ms, Db};
use crate::low_priority::LowPriorityThreads;
use crate::verify::{parse_replay, tick_budget, verify, LevelBook, Verdict};
use crate::writes::Writes;

pub struct Verifier {
    db: Db,
    /// Claims and verdicts are writes like any other (writes.rs: group commit on SQLite).
    pub writes: Arc<Writes>,
    pub book: Arc<LevelBook>,
    /// One permit per simultaneous re-simulation (runs and uploads share them).
    permits: Arc<Semaphore>,
    /// As many threads as permits: where every re-simulation runs.
    threads: LowPriorityThreads,
    wake: Notify,
    lease_ms: i64,
    /// The board answers this process keeps: a verified run that changes a board clears its
    /// level's.
    pub boards: Arc<BoardCache>,
}

/// A claimed run: what verifying it needs.
struct Job {
    id: i64,
    level_hash: String,
    ticks: i64,
    replay: String,
    level_text: String,
    author_ticks: i64,
}

/// How often an idle verifier looks for work no one woke it for (another process's run).
const IDLE_POLL: Duration = Duration::from_millis(250);

impl Verifier {
    pub fn new(
        db: Db,
        book: Arc<LevelBook>,
        parallel: usize,
        lease_ms: i64,
        boards: Arc<BoardCache>,
    ) -> Verifier {
        Verifier {
            writes: Arc::new(Writes::new(db.clone(), is_sqlite(&db))),
            boards,
            db,
            book,
            permits: Arc::new(Semaphore::new(parallel.max(1))),
            threads: LowPriorityThreads::start(parallel.max(1)),
            wake: Notify::new(),
            lease_ms,
        }
    }

    /// Tells an idle verifier loop that a run was queued.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Runs `work` on a verification thread once a permit is free: the bounded pool.
    pub async fn run_blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> T {
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("the semaphore is never closed");
        self.threads
            .run(work)
            .await
            .expect("a verification never panics")
    }

    /// Claims and verifies pending runs until the process ends.
    pub async fn run_forever(self: Arc<Self>) {
        loop {
            let permit = Arc::clone(&self.permits)
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            match self.claim_next().await {
                Ok(Some(job)) => {
                    let verifier = Arc::clone(&self);
                    tokio::spawn(async move {
                        verifier.verify_and_record(job).await;
                        drop(permit);
                    });
                }
                Ok(None) => {
                    drop(permit);
                    let _ = tokio::time::timeout(IDLE_POLL, self.wake.notified()).await;
                }
                Err(err) => {
                    eprintln!("verifier: cannot claim a run: {err}");
                    drop(permit);
                    tokio::time::sleep(IDLE_POLL * 4).await;
                }
            }
        }
    }

    /// Takes the oldest pending run no one holds, by a conditional UPDATE (two verifiers
    /// racing for one run: only one UPDATE changes a row).
    async fn claim_next(&self) -> Result<Option<Job>, String> {
        let lease_ms = self.lease_ms;
        let claimed = self
            .writes
            .write(move |conn| Box::pin(async move { Ok(claim_in(conn, lease_ms).await?) }))
            .await
            .map_err(|err| err.message)?;
        match claimed {
            Some(id) => self.load_job(id).await.map(Some).map_err(|e| e.to_string()),
            None => Ok(None),
        }
    }

    async fn load_job(&self, id: i64) -> Result<Job, sqlx::Error> {
        let row = sqlx::query(
            "SELECT r.level_hash, r.ticks, r.replay, l.text, l.author_ticks \
             FROM runs r JOIN levels l ON l.hash = r.level_hash WHERE r.id = $1",
        )
        .bind(id)
        .fetch_one(&self.db)
        .await?;
        Ok(Job {
            id,
            level_hash: row.try_get(0)?,
            ticks: row.try_get(1)?,
            replay: row.try_get(2)?,
            level_text: row.try_get(3)?,
            author_ticks: row.try_get(4)?,
        })
    }

    async fn verify_and_record(&self, job: Job) {
        let book = Arc::clone(&self.book);
        let hash_of_level = job.level_hash.clone();
        let (id, hash, text, replay_text) = (job.id, job.level_hash, job.level_text, job.replay);
        let (claimed, budget) = (job.ticks as u64, tick_budget(job.author_ticks as u64));
        let verdict = self
            .threads
            .run(move || {
                let world = book.world(&hash, &text)?;
                let replay = parse_replay(&replay_text)?;
                Ok::<_, String>(verify(&world, &replay, claimed, budget))
            })
            .await
            .unwrap_or_else(|()| Ok(Verdict::Refused("the verification failed".into())))
            .unwrap_or_else(Verdict::Refused);
        // A verified run may change the board, and its status is visible the moment the
        // verdict commits: the cache must not serve the level's old pages in between.
        let _change = matches!(verdict, Verdict::Finished { .. })
            .then(|| self.boards.begin_change(&hash_of_level));
        let verdict_write = self.writes.write(move |conn| {
            Box::pin(async move { Ok(record_verdict(conn, id, &verdict).await?) })
        });
        match verdict_write.await {
            Ok(Some(BoardChange { level, best })) => match best {
                Some(best) => self.boards.record_new_best(&level, &best),
                None => self.boards.invalidate([level.as_str()]),
            },
            Ok(None) => {}
            // The run stays pending; its lease runs out and it is verified again.
            Err(err) => eprintln!("verifier: cannot record run {id}: {}", err.message),
        }
    }
}

/// A board a verdict changed: its level, and the new best as the board shows it (None if its
/// player is hidden, whose runs the board does not show: the level's answers are cleared).
pub struct BoardChange {
    pub level: String,
    pub best: Option<NewBest>,
}

/// Takes the oldest pending run no one holds, by a conditional UPDATE (two verifiers racing
/// for one run: only one UPDATE changes a row); its id.
async fn claim_in(conn: &mut AnyConnection, lease_ms: i64) -> Result<Option<i64>, sqlx::Error> {
    loop {
        let now = now_ms();
        let candidate: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM runs WHERE status = 'pending' AND claimed_until_ms < $1 \
             ORDER BY id LIMIT 1",
        )
        .bind(now)
        .fetch_optional(&mut *conn)
        .await?;
        let Some(id) = candidate else {
            return Ok(None);
        };
        let claimed = sqlx::query(
            "UPDATE runs SET claimed_until_ms = $1 \
             WHERE id = $2 AND status = 'pending' AND claimed_until_ms < $3",
        )
        .bind(now + lease_ms)
        .bind(id)
        .bind(now)
        .execute(&mut *conn)
        .await?
        .rows_affected();
        if claimed == 1 {
            return Ok(Some(id));
        }
    }
}

/// Writes a verdict, and on a finish the player's best and the level's finish count, as one
/// write (one transaction, or one savepoint of a group commit: writes.rs). Only a run still pending is changed (a run is judged once). The board that
/// changed (the run is its player's new best there), if any.
pub async fn record_verdict(
    conn: &mut AnyConnection,
    id: i64,
    verdict: &Verdict,
) -> Result<Option<BoardChange>, sqlx::Error> {
    let (status, reason) = match verdict {
        Verdict::Finished { .. } => ("verified", None),
        Verdict::Refused(reason) => ("refused", Some(reason.as_str())),
    };
    let changed = sqlx::query(
        "UPDATE runs SET status = $1, reason = $2 WHERE id = $3 AND status = 'pending'",
    )
    .bind(status)
    .bind(reason)
    .bind(id)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    let mut board_changed = None;
    if changed == 1 && status == "verified" {
        let row = sqlx::query(
            "SELECT r.level_hash, r.sim_version, r.assisted, r.player_key, p.name, r.ticks, \
             p.hidden FROM runs r JOIN players p ON p.key = r.player_key WHERE r.id = $1",
        )
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
        let level: String = row.try_get(0)?;
        let new_best = crate::db::offer_best(conn, id).await?;
        sqlx::query("UPDATE levels SET finishes = finishes + 1 WHERE hash = $1")
            .bind(&level)
            .execute(&mut *conn)
            .await?;
        let player_hidden = row.try_get::<i64, _>(6)? != 0;
        let best = NewBest {
            sim_version: row.try_get(1)?,
            assisted: row.try_get::<i64, _>(2)? != 0,
            entry: BoardEntry {
                rank: 0,
                player: row.try_get(3)?,
                name: row.try_get(4)?,
                ticks: row.try_get(5)?,
                run: id,
            },
        };
        board_changed = new_best.then(|| BoardChange {
            level,
            best: (!player_hidden).then_some(best),
        });
    }
    Ok(board_changed)
}
