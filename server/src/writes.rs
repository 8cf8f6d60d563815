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
    use std::sync::atomic::AtomicUsize;

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

    /// What a test write does after inserting its row.
    #[derive(Clone, Copy)]
    enum Then {
        Succeed,
        Refuse,
        FailInTheDatabase,
        /// Holds the writer until `gate` opens (so the writes after it queue behind it).
        Gate,
        /// Counts, still inside the writer's transaction, how many writes were already
        /// answered: none may be, nothing is committed yet.
        Probe,
    }

    struct Probe {
        gate: tokio::sync::Mutex<Option<oneshot::Receiver<()>>>,
        answered: AtomicUsize,
        answered_before_commit: AtomicUsize,
    }

    fn insert(
        writes: &Arc<Writes>,
        n: i64,
        then: Then,
        probe: &Arc<Probe>,
    ) -> tokio::task::JoinHandle<ApiResult<()>> {
        let (writes, probe) = (Arc::clone(writes), Arc::clone(probe));
        tokio::spawn(async move {
            let in_writer = Arc::clone(&probe);
            let outcome = writes
                .write(move |conn| {
                    Box::pin(async move {
                        sqlx::query("INSERT INTO t (n) VALUES ($1)")
                            .bind(n)
                            .execute(&mut *conn)
                            .await?;
                        match then {
                            Then::Succeed => Ok(()),
                            Then::Refuse => Err(ApiError::bad_request("refused", "kept")),
                            Then::FailInTheDatabase => {
                                sqlx::query("INSERT INTO no_such_table VALUES (1)")
                                    .execute(&mut *conn)
                                    .await?;
                                Ok(())
                            }
                            Then::Gate => {
                                let gate = in_writer.gate.lock().await.take();
                                let _ = gate.expect("one gate").await;
                                Ok(())
                            }
                            Then::Probe => {
                                // Time for a write answered too early to be seen answered.
                                for _ in 0..20 {
                                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                                }
                                let answered = in_writer.answered.load(Ordering::SeqCst);
                                in_writer
                                    .answered_before_commit
                                    .store(answered, Ordering::SeqCst);
                                Ok(())
                            }
                        }
                    })
                })
                .await;
            probe.answered.fetch_add(1, Ordering::SeqCst);
            outcome
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
        let (open_gate, gate) = oneshot::channel::<()>();
        let probe = Arc::new(Probe {
            gate: tokio::sync::Mutex::new(Some(gate)),
            answered: AtomicUsize::new(0),
            answered_before_commit: AtomicUsize::new(usize::MAX),
        });
        // Writes 1-48, a refusal, a database failure and the probe queue behind the first
        // write, which holds the writer until they are all queued: then all run in one
        // transaction, the probe last.
        let first = insert(&writes, 0, Then::Gate, &probe);
        // The gate write must be the writer's first: spawned writes reach the queue in any
        // order, and one queued ahead of it would drain the others into its batch.
        while probe.gate.lock().await.is_some() {
            tokio::task::yield_now().await;
        }
        let mut queued: Vec<_> = (1..=48)
            .map(|n| insert(&writes, n, Then::Succeed, &probe))
            .collect();
        queued.push(insert(&writes, 100, Then::Refuse, &probe));
        queued.push(insert(&writes, 101, Then::FailInTheDatabase, &probe));
        let queue = writes.group.as_ref().expect("group commit");
        while QUEUE_LENGTH - queue.capacity() < queued.len() {
            tokio::task::yield_now().await;
        }
        let probe_write = insert(&writes, 200, Then::Probe, &probe);
        while QUEUE_LENGTH - queue.capacity() < queued.len() + 1 {
            tokio::task::yield_now().await;
        }
        assert_eq!(writes.commits.load(Ordering::Relaxed), 0);
        open_gate.send(()).expect("the first write waits");
        probe_write.await.expect("joined").expect("written");
        assert_eq!(
            probe.answered_before_commit.load(Ordering::SeqCst),
            0,
            "writes were answered before their commit"
        );
        first.await.expect("joined").expect("written");
        for (n, write) in (1..=48).zip(queued.drain(..48)) {
            write.await.expect("joined").expect("written");
            assert_eq!(
                count(&observer, n).await,
                1,
                "write {n} is durable once answered"
            );
        }
        let refused = queued.remove(0).await.expect("joined");
        assert_eq!(refused.expect_err("refused").code, "refused");
        assert_eq!(
            count(&observer, 100).await,
            1,
            "a refusal keeps what it did"
        );
        let failed = queued.remove(0).await.expect("joined");
        assert!(failed.expect_err("failed").is_database());
        assert_eq!(
            count(&observer, 101).await,
            0,
            "a database error rolls back its write alone"
        );
        assert_eq!(
            writes.commits.load(Ordering::Relaxed),
            1,
            "52 queued writes, one commit"
        );
    }
}
