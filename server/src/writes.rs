//! Where every write of this process runs. On SQLite, one writer task runs each queued write
//! in a savepoint of one shared transaction and commits them together: one fsync for all the
//! writes waiting at that moment instead of one each (group commit, as PostgreSQL does by
//! itself), and each write is acknowledged only after that commit returned. On PostgreSQL each
//! write is its own transaction on the pool, whose server already groups concurrent commits.
//!
//! A write is a closure over the connection that returns its outcome. Like a transaction of its
//! own (`end_write`'s rule), a write that ends in a refusal keeps what it did (a used nonce,
//! a used session); one that ends in a database error is rolled back, alone.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::http::StatusCode;
use sqlx::{Acquire, AnyConnection};
use tokio::sync::{mpsc, oneshot};

use crate::db::Db;
use crate::error::{ApiError, ApiResult};
use crate::read_timing;

/// A boxed future borrowing the write's connection.
pub type WriteFuture<'c, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'c>>;

/// Most writes sharing one commit: bounds how long the first of them waits for its answer.
const MAX_WRITES_PER_COMMIT: usize = 256;
/// Writes waiting for the writer task; past this a write waits to be queued.
const QUEUE_LENGTH: usize = 1024;

/// One queued write, its outcome not yet sent: given the connection, it runs and says whether
/// to keep its changes and how to answer once the commit is known.
type Job = Box<dyn for<'c> FnOnce(&'c mut AnyConnection) -> WriteFuture<'c, Ran> + Send>;

struct Ran {
    keep: bool,
    answer: Box<dyn FnOnce(Result<(), String>) + Send>,
}

pub struct Writes {
    db: Db,
    /// Set on SQLite: the writer task's queue.
    group: Option<mpsc::Sender<Job>>,
    /// Commits the writer task made (what the tests count).
    #[cfg(test)]
    commits: Arc<AtomicU64>,
}

impl Writes {
    /// Writes on `db`, grouped into shared commits if `group_commit` (SQLite).
    pub fn new(db: Db, group_commit: bool) -> Writes {
        let commits = Arc::new(AtomicU64::new(0));
        let group = group_commit.then(|| {
            let (sender, jobs) = mpsc::channel(QUEUE_LENGTH);
            tokio::spawn(run_writer(db.clone(), jobs, Arc::clone(&commits)));
            sender
        });
        Writes {
            db,
            group,
            #[cfg(test)]
            commits,
        }
    }

    /// Runs `write` and answers its outcome once its changes are committed (or, for a database
    /// error, rolled back).
    pub async fn write<T, F>(&self, write: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> WriteFuture<'c, ApiResult<T>> + Send + 'static,
    {
        let Some(queue) = &self.group else {
            let mut tx = self.db.begin().await?;
            let outcome = write(&mut tx).await;
            return crate::api::end_write(tx, outcome).await;
        };
        let (answer_to, answer) = oneshot::channel();
        let job: Job = Box::new(move |conn| {
            Box::pin(async move {
                let outcome = write(conn).await;
                let keep = !outcome.as_ref().is_err_and(ApiError::is_database);
                Ran {
                    keep,
                    answer: Box::new(move |committed| {
                        let _ = answer_to.send(committed.map(|()| outcome));
                    }),
                }
            })
        });
        queue.send(job).await.map_err(|_| writer_gone())?;
        match answer.await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(commit_error)) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "database",
                format!("the write was not committed: {commit_error}"),
            )),
            Err(_) => Err(writer_gone()),
        }
    }
}

fn writer_gone() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "database",
        "the database writer is not running",
    )
}

/// The writer task: takes the first waiting write, then every write queued meanwhile (up to
/// `MAX_WRITES_PER_COMMIT`), runs each in its savepoint and commits them together.
async fn run_writer(db: Db, mut jobs: mpsc::Receiver<Job>, commits: Arc<AtomicU64>) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        let mut answers = Vec::new();
        let mut conn = match db.acquire().await {
            Ok(conn) => conn,
            Err(err) => {
                eprintln!("writer: no database connection: {err}");
                continue; // the dropped write's caller is answered 503
            }
        };
        let committed = async {
            let mut tx = conn.begin().await?;
            while !batch.is_empty() {
                for job in batch.drain(..) {
                    let mut savepoint = tx.begin().await?;
                    let ran = job(&mut savepoint).await;
                    if ran.keep {
                        savepoint.commit().await?;
                    } else {
                        savepoint.rollback().await?;
                    }
                    answers.push(ran.answer);
                }
                // Writes that queued while these ran share the commit too.
                while answers.len() + batch.len() < MAX_WRITES_PER_COMMIT {
                    let Ok(job) = jobs.try_recv() else { break };
                    batch.push(job);
                }
            }
            tx.commit().await
        }
        .await
        .map_err(|err| err.to_string());
        commits.fetch_add(1, Ordering::Relaxed);
        read_timing::record_commit(answers.len());
        for answer in answers {
            answer(committed.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::any::AnyPoolOptions;

    async fn sqlite(name: &str) -> (Db, Db) {
        sqlx::any::install_default_drivers();
        let dir = std::env::temp_dir().join(format!("tether-writes-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let url = format!("sqlite://{}/writes.db?mode=rwc", dir.display());
        let open = || AnyPoolOptions::new().max_connections(1).connect(&url);
        let db = open().await.expect("open");
        sqlx::query("PRAGMA journal_mode = WAL")
            .execute(&db)
            .await
            .expect("WAL");
        sqlx::query("CREATE TABLE t (n BIGINT)")
            .execute(&db)
            .await
            .expect("table");
        (db, open().await.expect("second connection"))
    }

    fn insert(
        writes: &Arc<Writes>,
        n: i64,
        then: Option<&'static str>,
    ) -> tokio::task::JoinHandle<ApiResult<()>> {
        let writes = Arc::clone(writes);
        tokio::spawn(async move {
            writes
                .write(move |conn| {
                    Box::pin(async move {
                        sqlx::query("INSERT INTO t (n) VALUES ($1)")
                            .bind(n)
                            .execute(&mut *conn)
                            .await?;
                        match then {
                            Some("refuse") => Err(ApiError::bad_request("refused", "kept")),
                            Some(sql) => {
                                Ok(sqlx::query(sql).execute(&mut *conn).await.map(drop)?)
                            }
                            None => Ok(()),
                        }
                    })
                })
                .await
        })
    }

    async fn count(observer: &Db, n: i64) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM t WHERE n = $1")
            .bind(n)
            .fetch_one(observer)
            .await
            .expect("count")
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn queued_writes_share_one_commit_and_are_answered_only_once_it_is_durable() {
        let (db, observer) = sqlite("group").await;
        let writes = Arc::new(Writes::new(db, true));
        // The first write holds the writer until every other one is queued behind it.
        let (open_gate, gate) = oneshot::channel::<()>();
        let first = {
            let writes = Arc::clone(&writes);
            tokio::spawn(async move {
                writes
                    .write(move |conn| {
                        Box::pin(async move {
                            let _ = gate.await;
                            sqlx::query("INSERT INTO t (n) VALUES (0)")
                                .execute(&mut *conn)
                                .await?;
                            Ok(())
                        })
                    })
                    .await
            })
        };
        let mut others: Vec<_> = (1..=48).map(|n| insert(&writes, n, None)).collect();
        others.push(insert(&writes, 100, Some("refuse")));
        others.push(insert(
            &writes,
            101,
            Some("INSERT INTO no_such_table VALUES (1)"),
        ));
        let queue = writes.group.as_ref().expect("group commit");
        while QUEUE_LENGTH - queue.capacity() < others.len() {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            writes.commits.load(Ordering::Relaxed),
            0,
            "nothing committed yet"
        );
        open_gate.send(()).expect("the first write waits");
        first.await.expect("joined").expect("written");
        assert_eq!(count(&observer, 0).await, 1, "answered before its commit");
        for (n, write) in (1..=48).zip(others.drain(..48)) {
            write.await.expect("joined").expect("written");
            assert_eq!(
                count(&observer, n).await,
                1,
                "write {n} answered before its commit"
            );
        }
        let refused = others.remove(0).await.expect("joined");
        assert_eq!(refused.expect_err("refused").code, "refused");
        assert_eq!(
            count(&observer, 100).await,
            1,
            "a refusal keeps what it did"
        );
        let failed = others.remove(0).await.expect("joined");
        assert!(failed.expect_err("failed").is_database());
        assert_eq!(
            count(&observer, 101).await,
            0,
            "a database error rolls back its write"
        );
        assert_eq!(
            writes.commits.load(Ordering::Relaxed),
            1,
            "51 queued writes, one commit"
        );
    }
}
