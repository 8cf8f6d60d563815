//! Tether Online's client and run queue against a real `tether-server` on loopback (started
//! here on a free port with a fresh SQLite folder, killed when the test ends, pass or fail):
//! a fresh player registers, opens a run session, and level 1's solution goes through the queue
//! to rank 1; a second player's slower run ranks 2 and their "run just ahead" is the first
//! player's, downloaded as a ghost; a run finished while the server is down waits in the queue
//! (kept on disk) and is on the board once the server is back.

mod online_support;

use std::path::Path;
use std::time::{Duration, Instant};

use online_support::{fresh_dir, repo, TestServer};
use tether::online::profile::OnlineProfile;
use tether::online::queue::{RunQueue, RunState};
use tether::online::wire::{AroundAnswer, BoardEntry};
use tether::online::world_ghost::{GhostFetch, WorldRun};
use tether::online::{Call, Identity, OnlineClient, OnlineError};
use tether::platform::store::Area;
use tether::sim::{InputFrame, Replay, TICKS_PER_SECOND};

const LEVEL_FILE: &str = "01_first_swing.ron";

fn level_hash() -> String {
    let text = std::fs::read_to_string(repo().join("levels").join(LEVEL_FILE)).unwrap();
    tether_online_proto::level_hash(&text)
}

fn solution() -> Replay {
    let text = std::fs::read_to_string(repo().join("levels/solutions").join(LEVEL_FILE)).unwrap();
    Replay::from_ron(&text, LEVEL_FILE).unwrap()
}

/// Level 1's solution after standing still for `idle_ticks`, and the tick it reaches the goal.
fn slower_run(idle_ticks: u32, dir: &Path) -> (Replay, u64) {
    let mut replay = solution();
    replay.runs.insert(0, (idle_ticks, InputFrame::default()));
    let path = dir.join("slower.ron");
    std::fs::write(&path, replay.to_ron()).unwrap();
    let outcome = tether::cli::run_replay_file(&repo(), &path).unwrap();
    assert!(outcome.goal_reached, "the slower run still finishes");
    (replay, outcome.ticks)
}

fn new_player(seed_byte: u8) -> Identity {
    Identity::from_seed([seed_byte; 32])
}

/// The server's wall-clock rule refuses a run longer than its session's age plus 2 s: wait as
/// long as a person playing it would have.
fn play_for(ticks: u64) {
    let run = Duration::from_millis(ticks * 1000 / TICKS_PER_SECOND as u64);
    std::thread::sleep(run.saturating_sub(Duration::from_millis(1500)));
}

/// Works the queue until `ticket` settles (or `limit` passes: then the state it is in).
fn settle(
    queue: &mut RunQueue,
    client: &mut OnlineClient,
    player: &Identity,
    ticket: u64,
    clock_offset_s: f64,
    limit: Duration,
) -> RunState {
    let start = Instant::now();
    loop {
        let now_s = start.elapsed().as_secs_f64() + clock_offset_s;
        queue.update(client, player, now_s);
        let state = queue.run(ticket).expect("queued").state.clone();
        if state.is_settled() || start.elapsed() > limit {
            return state;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Makes a call and waits for its answer.
fn ask<T>(
    client: &mut OnlineClient,
    make: impl FnOnce(&mut OnlineClient) -> Call<T>,
) -> Result<T, OnlineError> {
    let call = make(client);
    client.wait(call)
}

fn register(client: &mut OnlineClient, player: &Identity, name: &str) {
    let answer = ask(client, |c| c.register(player, name)).unwrap();
    assert_eq!(answer.name, name);
    assert_eq!(answer.key, player.public_key_hex());
}

fn open_session(client: &mut OnlineClient, player: &Identity) -> String {
    ask(client, |c| c.open_session(player, &level_hash()))
        .unwrap()
        .session
}

#[test]
fn runs_reach_the_board_ranked_and_the_run_ahead_is_a_ghost() {
    let dir = fresh_dir("board");
    let server = TestServer::start(&dir.join("data"), None);
    let mut client = OnlineClient::new(&server.base);
    let health = ask(&mut client, |c| c.health()).unwrap();
    assert_eq!(health.sim_version, tether::sim::SIM_VERSION);

    let ada = new_player(1);
    register(&mut client, &ada, "Ada");
    let taken = ask(&mut client, |c| c.register(&new_player(2), "ada")).unwrap_err();
    assert_eq!(taken.code(), Some("taken"), "{taken}");

    let mut queue = RunQueue::load(Area::Main.store_in(&dir.join("ada")));
    let session = open_session(&mut client, &ada);
    let run = solution();
    play_for(run.tick_count());
    let ticket = queue.push(
        &ada,
        LEVEL_FILE,
        &level_hash(),
        Some(session),
        177,
        run.to_ron(),
    );
    let state = settle(
        &mut queue,
        &mut client,
        &ada,
        ticket,
        0.0,
        Duration::from_secs(60),
    );
    assert!(
        matches!(
            state,
            RunState::OnBoard {
                rank: Some(1),
                of: Some(1),
                ..
            }
        ),
        "{state:?}"
    );

    let bob = new_player(3);
    register(&mut client, &bob, "Bob");
    let (slow, slow_ticks) = slower_run(120, &dir);
    let mut bob_queue = RunQueue::load(Area::Main.store_in(&dir.join("bob")));
    let session = open_session(&mut client, &bob);
    play_for(slow_ticks);
    let ticket = bob_queue.push(
        &bob,
        LEVEL_FILE,
        &level_hash(),
        Some(session),
        slow_ticks,
        slow.to_ron(),
    );
    let state = settle(
        &mut bob_queue,
        &mut client,
        &bob,
        ticket,
        0.0,
        Duration::from_secs(60),
    );
    assert!(
        matches!(
            state,
            RunState::OnBoard {
                rank: Some(2),
                of: Some(2),
                ..
            }
        ),
        "{state:?}"
    );

    let board = ask(&mut client, |c| c.board(&level_hash(), 10)).unwrap();
    let names: Vec<(i64, &str)> = board
        .entries
        .iter()
        .map(|e| (e.rank, e.name.as_str()))
        .collect();
    assert_eq!(names, [(1, "Ada"), (2, "Bob")]);

    let place: AroundAnswer = ask(&mut client, |c| {
        c.around(&level_hash(), &bob.public_key_hex(), 1)
    })
    .unwrap();
    let ahead: &BoardEntry = place
        .around
        .iter()
        .find(|entry| entry.rank == place.rank - 1)
        .expect("someone is ahead of Bob");
    assert_eq!(ahead.player, ada.public_key_hex());
    // The game's own download of "the run just ahead of mine" finds and fetches that run.
    let bob_key = bob.public_key_hex();
    let mut fetch = GhostFetch::start(
        &mut client,
        WorldRun::JustAhead,
        &level_hash(),
        Some(&bob_key),
    )
    .unwrap();
    let downloaded = loop {
        if let Some(result) = fetch.poll(&mut client) {
            break result.unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    assert_eq!(
        (downloaded.run_id, downloaded.name.as_str()),
        (ahead.run, "Ada")
    );
    let ghost = downloaded.replay;
    let ghost_path = dir.join("ghost.ron");
    std::fs::write(&ghost_path, ghost.to_ron()).unwrap();
    let raced = tether::cli::run_replay_file(&repo(), &ghost_path).unwrap();
    assert!(raced.goal_reached && raced.ticks == 177, "{raced}");
}

#[test]
fn a_run_waits_in_the_queue_while_the_server_is_down() {
    let dir = fresh_dir("down");
    let data = dir.join("data");
    let mut server = TestServer::start(&data, None);
    let port = server.port();
    let mut client = OnlineClient::new(&server.base);
    let mut profile = OnlineProfile::default();
    let ada = profile.identity_or_new().unwrap();
    register(&mut client, &ada, "Ada");
    let session = open_session(&mut client, &ada);
    play_for(177);
    server.stop();

    let queue_dir = dir.join("device");
    let mut queue = RunQueue::load(Area::Main.store_in(&queue_dir));
    let ticket = queue.push(
        &ada,
        LEVEL_FILE,
        &level_hash(),
        Some(session),
        177,
        solution().to_ron(),
    );
    let state = settle(
        &mut queue,
        &mut client,
        &ada,
        ticket,
        0.0,
        Duration::from_secs(3),
    );
    assert_eq!(state, RunState::Queued);
    assert!(queue.run(ticket).unwrap().attempts >= 1);

    // The game closes and opens again: the queue is read back from the device.
    drop(queue);
    let mut queue = RunQueue::load(Area::Main.store_in(&queue_dir));
    assert_eq!(queue.run(ticket).unwrap().state, RunState::Queued);
    let _server = TestServer::start(&data, Some(port));
    // Far enough on the clock that the backoff has passed.
    let state = settle(
        &mut queue,
        &mut client,
        &ada,
        ticket,
        3600.0,
        Duration::from_secs(60),
    );
    assert!(
        matches!(state, RunState::OnBoard { rank: Some(1), .. }),
        "{state:?}"
    );
}

#[test]
fn a_run_played_without_a_session_is_not_sent() {
    let dir = fresh_dir("offline");
    let mut queue = RunQueue::load(Area::Main.store_in(&dir));
    let ada = new_player(9);
    let ticket = queue.push(&ada, LEVEL_FILE, &level_hash(), None, 177, String::new());
    let mut client = OnlineClient::new("http://127.0.0.1:9");
    queue.update(&mut client, &ada, 0.0);
    assert_eq!(client.in_flight(), 0, "nothing is sent for it");
    assert_eq!(queue.run(ticket).unwrap().state, RunState::NotEligible);
}
