//! Finished runs on their way to the boards. A run is queued on the device the moment it ends
//! (kept in the platform store as `online_queue`, so it survives a restart and a server that is
//! down), sent with exponential backoff, and followed until the server verifies or refuses it;
//! its state is what the level-complete screen shows.
//!
//! The server takes a run only with the run session opened when its attempt started
//! (docs/online.md, "Slow motion"): a run played while the server was unreachable has none and
//! is kept as `NotEligible`, said honestly, never sent.
//!
//! The queue is kept as miniserde JSON (`StoredQueue`); a queue kept as RON by earlier
//! versions is read once through `old_ron` and saved as JSON with the next change.

use miniserde::{Deserialize, Serialize};
use tether_online_proto::wire::{AroundAnswer, RunStatusAnswer, SubmitAnswer, SubmitBody};
use tether_online_proto::Identity;

use super::client::{shown, Call, OnlineClient, OnlineError};
use super::old_ron;
use crate::platform::store::Store;
use crate::sim::SIM_VERSION;

/// The queue's name in the main store.
const QUEUE_NAME: &str = "online_queue";
/// Largest queue file read: runs are tens of KB each, and at most `MAX_KEPT_RUNS` are kept.
const MAX_QUEUE_BYTES: u64 = 16 * 1024 * 1024;
/// Runs kept; past it the oldest settled ones (on the board, refused, not eligible) go.
const MAX_KEPT_RUNS: usize = 40;
/// The longest wait between two tries of a run.
const MAX_BACKOFF_S: f64 = 60.0;
/// How often a sent run's verification is asked about.
const STATUS_POLL_S: f64 = 1.0;

/// Where a run stands.
#[derive(Clone, Debug, PartialEq)]
pub enum RunState {
    /// On the device, waiting to be sent (`attempts` tries failed so far).
    Queued,
    /// The server holds it as run `id` and is re-simulating it.
    Sent { id: i64 },
    /// Verified: on the board at `rank` of `of` (`None` until the board answered).
    OnBoard {
        id: i64,
        rank: Option<i64>,
        of: Option<i64>,
    },
    /// The server refused it, and why (its message).
    Refused { reason: String },
    /// Played without a run session (the server was unreachable when the attempt started).
    NotEligible,
}

impl RunState {
    /// True once nothing more will happen to the run.
    pub fn is_settled(&self) -> bool {
        match self {
            RunState::OnBoard { rank, .. } => rank.is_some(),
            RunState::Refused { .. } | RunState::NotEligible => true,
            RunState::Queued | RunState::Sent { .. } => false,
        }
    }

    /// One line for the complete screen.
    pub fn describe(&self, attempts: u32) -> String {
        match self {
            RunState::Queued if attempts == 0 => "queued: sending the run".into(),
            RunState::Queued => format!("queued: the server is not answering (tried {attempts}×)"),
            RunState::Sent { .. } => "sent: the server is checking the run".into(),
            RunState::OnBoard {
                rank: Some(rank),
                of,
                ..
            } => format!("on the board at {}", rank_text(*rank, *of)),
            RunState::OnBoard { .. } => "verified: reading the board".into(),
            RunState::Refused { reason } => format!("refused: {reason}"),
            RunState::NotEligible => "played offline: not eligible for the board".into(),
        }
    }
}

/// `rank 2 of 3` (`rank 2` while the board's size is unknown): the complete screen's run line
/// and the Board screen's place line say a rank in the same words.
pub fn rank_text(rank: i64, of: Option<i64>) -> String {
    match of {
        Some(of) => format!("rank {rank} of {of}"),
        None => format!("rank {rank}"),
    }
}

/// A run on its way.
#[derive(Clone, Debug, PartialEq)]
pub struct QueuedRun {
    /// The queue's own number for it (what the complete screen asks about).
    pub ticket: u64,
    /// The level's file name, for people.
    pub level_file: String,
    pub submission: SubmitBody,
    pub has_session: bool,
    pub state: RunState,
    pub attempts: u32,
    /// The player key that played it: a run is only ever sent signed by its own player.
    pub player: String,
}

#[derive(Default)]
struct Saved {
    next_ticket: u64,
    runs: Vec<QueuedRun>,
}

/// The queue as it is kept: miniserde's derive takes only unit enum variants, so a run's state
/// is its kind and the fields of the kind that has them.
#[derive(Serialize, Deserialize)]
struct StoredQueue {
    next_ticket: u64,
    runs: Vec<StoredRun>,
}

#[derive(Serialize, Deserialize)]
struct StoredRun {
    ticket: u64,
    level_file: String,
    submission: SubmitBody,
    has_session: bool,
    state: StateKind,
    id: Option<i64>,
    rank: Option<i64>,
    of: Option<i64>,
    reason: Option<String>,
    attempts: u32,
    player: String,
}

/// `RunState`'s variants, named as earlier versions' RON named them.
#[derive(Serialize, Deserialize)]
enum StateKind {
    Queued,
    Sent,
    OnBoard,
    Refused,
    NotEligible,
}

impl StoredQueue {
    fn of(saved: &Saved) -> StoredQueue {
        let runs = saved.runs.iter().map(StoredRun::of).collect();
        StoredQueue {
            next_ticket: saved.next_ticket,
            runs,
        }
    }

    /// The queue kept in `text`: JSON, or earlier versions' RON (read once).
    fn read(text: &str) -> Result<Saved, String> {
        let stored: StoredQueue = if text.trim_start().starts_with('{') {
            miniserde::json::from_str(text).map_err(|_| "not the run queue's JSON".to_owned())?
        } else {
            miniserde::json::from_str(&old_ron::to_json(text)?)
                .map_err(|_| "not a run queue".to_owned())?
        };
        let runs: Result<Vec<QueuedRun>, String> =
            stored.runs.into_iter().map(StoredRun::into_run).collect();
        Ok(Saved {
            next_ticket: stored.next_ticket,
            runs: runs?,
        })
    }
}

impl StoredRun {
    fn of(run: &QueuedRun) -> StoredRun {
        let (mut id, mut rank, mut of, mut reason) = (None, None, None, None);
        let state = match &run.state {
            RunState::Queued => StateKind::Queued,
            RunState::Sent { id: sent } => {
                id = Some(*sent);
                StateKind::Sent
            }
            RunState::OnBoard {
                id: on_board,
                rank: at,
                of: out_of,
            } => {
                (id, rank, of) = (Some(*on_board), *at, *out_of);
                StateKind::OnBoard
            }
            RunState::Refused { reason: why } => {
                reason = Some(why.clone());
                StateKind::Refused
            }
            RunState::NotEligible => StateKind::NotEligible,
        };
        StoredRun {
            ticket: run.ticket,
            level_file: run.level_file.clone(),
            submission: run.submission.clone(),
            has_session: run.has_session,
            state,
            id,
            rank,
            of,
            reason,
            attempts: run.attempts,
            player: run.player.clone(),
        }
    }

    fn into_run(self) -> Result<QueuedRun, String> {
        let missing = || format!("run {}: its state lacks a field", self.ticket);
        let state = match self.state {
            StateKind::Queued => RunState::Queued,
            StateKind::Sent => RunState::Sent {
                id: self.id.ok_or_else(missing)?,
            },
            StateKind::OnBoard => RunState::OnBoard {
                id: self.id.ok_or_else(missing)?,
                rank: self.rank,
                of: self.of,
            },
            StateKind::Refused => RunState::Refused {
                reason: self.reason.clone().ok_or_else(missing)?,
            },
            StateKind::NotEligible => RunState::NotEligible,
        };
        Ok(QueuedRun {
            ticket: self.ticket,
            level_file: self.level_file,
            submission: self.submission,
            has_session: self.has_session,
            state,
            attempts: self.attempts,
            player: self.player,
        })
    }
}

enum InFlight {
    Submit(Call<SubmitAnswer>),
    Status(Call<RunStatusAnswer>),
    Place(Call<AroundAnswer>),
}

/// The runs on their way, and the one request about them in flight.
pub struct RunQueue {
    store: Store,
    saved: Saved,
    in_flight: Option<(u64, InFlight)>,
    /// When each unsettled run may next be worked on (seconds on the caller's clock).
    next_try_s: Vec<(u64, f64)>,
    /// The last problem keeping the queue (a store that would not save), for the screen.
    pub problem: Option<String>,
}

impl RunQueue {
    /// The queue kept in `store` (an unreadable one is reported and started afresh, the old
    /// text kept aside).
    pub fn load(store: Store) -> RunQueue {
        let kept = if super::BUILT {
            store.load(QUEUE_NAME, MAX_QUEUE_BYTES)
        } else {
            Ok(None)
        };
        let (saved, problem) = match kept {
            Ok(None) => (Saved::default(), None),
            Ok(Some(text)) => match StoredQueue::read(&text) {
                Ok(saved) => (saved, None),
                Err(err) => {
                    let aside = store.keep_aside(QUEUE_NAME, MAX_QUEUE_BYTES);
                    let place = store.place(QUEUE_NAME);
                    let kept = aside.map_or_else(|e| e.to_string(), |p| format!("kept as {p}"));
                    (Saved::default(), Some(format!("{place}: {err} ({kept})")))
                }
            },
            Err(err) => (Saved::default(), Some(err.to_string())),
        };
        RunQueue {
            store,
            saved,
            in_flight: None,
            next_try_s: Vec::new(),
            problem,
        }
    }

    pub fn runs(&self) -> &[QueuedRun] {
        &self.saved.runs
    }

    pub fn run(&self, ticket: u64) -> Option<&QueuedRun> {
        self.saved.runs.iter().find(|run| run.ticket == ticket)
    }

    /// Queues a finished run (`session`: the run session its attempt opened, if one was) and
    /// returns its ticket. Kept in the store before this returns.
    pub fn push(
        &mut self,
        player: &Identity,
        level_file: &str,
        level_hash: &str,
        session: Option<String>,
        ticks: u64,
        replay_ron: String,
    ) -> u64 {
        let ticket = self.saved.next_ticket;
        self.saved.next_ticket += 1;
        let state = if session.is_some() {
            RunState::Queued
        } else {
            RunState::NotEligible
        };
        self.saved.runs.push(QueuedRun {
            ticket,
            level_file: level_file.to_owned(),
            has_session: session.is_some(),
            submission: SubmitBody {
                session: session.unwrap_or_default(),
                level: level_hash.to_owned(),
                sim_version: SIM_VERSION,
                ticks,
                replay: replay_ron,
            },
            state,
            attempts: 0,
            player: player.public_key_hex(),
        });
        self.forget_oldest_settled();
        self.persist();
        ticket
    }

    /// Does the next step of the queue's work, if its time has come: polls the request in
    /// flight, or starts one for the first run that needs one. Call it each frame.
    pub fn update(&mut self, client: &mut OnlineClient, player: &Identity, now_s: f64) {
        if let Some((ticket, mut call)) = self.in_flight.take() {
            if let Some(changed) = self.poll_in_flight(client, ticket, &mut call, now_s) {
                if changed {
                    self.persist();
                }
            } else {
                self.in_flight = Some((ticket, call));
            }
            return;
        }
        let key = player.public_key_hex();
        let next = self.saved.runs.iter().find(|run| {
            run.player == key && !run.state.is_settled() && self.due(run.ticket, now_s)
        });
        let Some(run) = next else { return };
        let call = match &run.state {
            RunState::Queued => InFlight::Submit(client.submit_run(player, &run.submission)),
            RunState::Sent { id } => InFlight::Status(client.run_status(*id)),
            _ => InFlight::Place(client.around(&run.submission.level, &key, 0)),
        };
        self.in_flight = Some((run.ticket, call));
    }

    fn due(&self, ticket: u64, now_s: f64) -> bool {
        self.next_try_s
            .iter()
            .find(|(t, _)| *t == ticket)
            .is_none_or(|(_, at)| *at <= now_s)
    }

    fn wait(&mut self, ticket: u64, until_s: f64) {
        self.next_try_s.retain(|(t, _)| *t != ticket);
        self.next_try_s.push((ticket, until_s));
    }

    /// `None` while pending; `Some(true)` when the run's state changed.
    fn poll_in_flight(
        &mut self,
        client: &mut OnlineClient,
        ticket: u64,
        call: &mut InFlight,
        now_s: f64,
    ) -> Option<bool> {
        let outcome: Result<RunState, OnlineError> = match call {
            InFlight::Submit(call) => client
                .poll(call)?
                .map(|sent| RunState::Sent { id: sent.id }),
            InFlight::Status(call) => {
                client
                    .poll(call)?
                    .map(|status| match status.status.as_str() {
                        "verified" => RunState::OnBoard {
                            id: status.id,
                            rank: None,
                            of: None,
                        },
                        "refused" => RunState::Refused {
                            reason: shown(status.reason.as_deref().unwrap_or("no reason given")),
                        },
                        _ => RunState::Sent { id: status.id },
                    })
            }
            InFlight::Place(call) => {
                let id = match self.run(ticket).map(|run| &run.state) {
                    Some(RunState::OnBoard { id, .. }) => *id,
                    _ => return Some(false),
                };
                client.poll(call)?.map(|place| RunState::OnBoard {
                    id,
                    rank: Some(place.rank),
                    of: Some(place.of),
                })
            }
        };
        let run = self
            .saved
            .runs
            .iter_mut()
            .find(|run| run.ticket == ticket)?;
        match outcome {
            Ok(state) => {
                let changed = state != run.state;
                if matches!(state, RunState::Sent { .. }) {
                    self.next_try_s.retain(|(t, _)| *t != ticket);
                    let ticket = run.ticket;
                    run.state = state;
                    self.wait(ticket, now_s + STATUS_POLL_S);
                } else {
                    run.state = state;
                }
                Some(changed)
            }
            Err(err) if err.is_transient() => {
                run.attempts += 1;
                let backoff_s = (2f64.powi(run.attempts.min(16) as i32 - 1)).min(MAX_BACKOFF_S);
                let ticket = run.ticket;
                self.wait(ticket, now_s + backoff_s);
                Some(true)
            }
            Err(err) => {
                run.state = RunState::Refused {
                    reason: err.to_string(),
                };
                Some(true)
            }
        }
    }

    fn forget_oldest_settled(&mut self) {
        while self.saved.runs.len() > MAX_KEPT_RUNS {
            match self
                .saved
                .runs
                .iter()
                .position(|run| run.state.is_settled())
            {
                Some(at) => {
                    self.saved.runs.remove(at);
                }
                None => break,
            }
        }
    }

    fn persist(&mut self) {
        let text = tether_online_proto::json::to_string(&StoredQueue::of(&self.saved));
        self.problem = self
            .store
            .save(QUEUE_NAME, &text)
            .err()
            .map(|err| format!("the run queue is not kept: {err}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The queue's types as the versions that kept it in RON derived them (serde), to write
    /// what those versions left in players' stores.
    #[derive(serde::Serialize)]
    enum OldState {
        Queued,
        Sent {
            id: i64,
        },
        OnBoard {
            id: i64,
            rank: Option<i64>,
            of: Option<i64>,
        },
        Refused {
            reason: String,
        },
        NotEligible,
    }

    #[derive(serde::Serialize)]
    struct OldSubmit {
        session: String,
        level: String,
        sim_version: u32,
        ticks: u64,
        replay: String,
    }

    #[derive(serde::Serialize)]
    struct OldRun {
        ticket: u64,
        level_file: String,
        submission: OldSubmit,
        has_session: bool,
        state: OldState,
        attempts: u32,
        player: String,
    }

    #[derive(serde::Serialize)]
    struct OldSaved {
        next_ticket: u64,
        runs: Vec<OldRun>,
    }

    /// A replay's text with everything RON's string escapes touch.
    const REPLAY: &str = "(level: \"a\\\\b.ron\", inputs: [\n\t(1, 'x')],\r\0 é \u{202e} 𝄞)";

    fn old_and_new(ticket: u64, old: OldState, new: RunState) -> (OldRun, QueuedRun) {
        let submission = SubmitBody {
            session: format!("s{ticket}"),
            level: "ab".repeat(32),
            sim_version: 3,
            ticks: 177 + ticket,
            replay: format!("{REPLAY}{ticket}"),
        };
        let old_run = OldRun {
            ticket,
            level_file: "01_first_swing.ron".into(),
            submission: OldSubmit {
                session: submission.session.clone(),
                level: submission.level.clone(),
                sim_version: submission.sim_version,
                ticks: submission.ticks,
                replay: submission.replay.clone(),
            },
            has_session: ticket != 4,
            state: old,
            attempts: ticket as u32,
            player: "cd".repeat(32),
        };
        let run = QueuedRun {
            ticket,
            level_file: old_run.level_file.clone(),
            submission,
            has_session: old_run.has_session,
            state: new,
            attempts: old_run.attempts,
            player: old_run.player.clone(),
        };
        (old_run, run)
    }

    #[test]
    fn a_queue_kept_as_ron_by_earlier_versions_is_read_and_kept_as_json() {
        let states = [
            (OldState::Queued, RunState::Queued),
            (OldState::Sent { id: -3 }, RunState::Sent { id: -3 }),
            (
                OldState::OnBoard {
                    id: 9,
                    rank: Some(2),
                    of: None,
                },
                RunState::OnBoard {
                    id: 9,
                    rank: Some(2),
                    of: None,
                },
            ),
            (
                OldState::Refused {
                    reason: "too \"slow\"\n".into(),
                },
                RunState::Refused {
                    reason: "too \"slow\"\n".into(),
                },
            ),
            (OldState::NotEligible, RunState::NotEligible),
        ];
        let (old_runs, runs): (Vec<_>, Vec<_>) = states
            .into_iter()
            .enumerate()
            .map(|(ticket, (old, new))| old_and_new(ticket as u64, old, new))
            .unzip();
        let old_text = ron::to_string(&OldSaved {
            next_ticket: 5,
            runs: old_runs,
        })
        .unwrap();
        let store = Store::memory();
        store.save(QUEUE_NAME, &old_text).unwrap();
        let mut queue = RunQueue::load(store);
        assert_eq!(queue.problem, None);
        assert_eq!(queue.runs(), runs.as_slice());

        let player = Identity::from_seed([7; 32]);
        let ticket = queue.push(&player, "02.ron", "ef", None, 9, REPLAY.into());
        assert_eq!(ticket, 5);
        let kept = queue
            .store
            .load(QUEUE_NAME, MAX_QUEUE_BYTES)
            .unwrap()
            .unwrap();
        assert!(kept.starts_with("{\"next_ticket\":6,"), "{kept}");
        let again = RunQueue::load(queue.store.clone());
        assert_eq!(again.problem, None);
        assert_eq!(again.runs(), queue.runs());
    }

    #[test]
    fn a_broken_queue_is_reported_with_its_place_and_started_afresh() {
        for broken in [
            "(next_ticket: 1, runs: [(ticket: 0,",
            "{\"next_ticket\":1}",
            "[1]",
        ] {
            let store = Store::memory();
            store.save(QUEUE_NAME, broken).unwrap();
            let queue = RunQueue::load(store);
            assert!(queue.runs().is_empty());
            let problem = queue.problem.expect("reported");
            assert!(problem.contains(QUEUE_NAME), "{problem}");
        }
    }
}
