//! The board cache (server/src/board_cache.rs) against real servers: every change a server
//! makes clears its own cached answers at once, and a change made by another process on the
//! same database reaches a server's answers once the cache's TTL has passed, never later.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// Longer than any test: only an invalidation can clear an answer.
const NEVER_EXPIRES: (&str, &str) = ("TETHER_BOARD_CACHE_MS", "600000");
/// The staleness the cache allows for other processes' changes, in the cross-process test.
const TTL_MS: u64 = 1_000;

/// The top-10 board's players, in order.
fn board_players(server: &Server, level: &str) -> Vec<String> {
    let (status, board) = server.get(&format!("/api/v1/levels/{level}/board?limit=10"));
    assert_eq!(status, 200, "{board}");
    board["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|entry| entry["player"].as_str().expect("player").to_string())
        .collect()
}

fn place(server: &Server, level: &str, player: &Player) -> (u16, Value) {
    server.get(&format!("/api/v1/levels/{level}/board/{}", player.key))
}

fn hide(server: &Server, kind: &str, id: &str) {
    let body = json!({ "kind": kind, "id": id });
    let (status, answer) = server.signed(&Player::new(ADMIN_SEED), "/api/v1/admin/hide", &body);
    assert_eq!(status, 200, "{answer}");
}

/// Registers `players`, takes a session each on level 1, waits out its time and submits each
/// its replay; the verified run ids.
fn verified_runs(server: &Server, players: &[(&Player, &str, u64)]) -> Vec<i64> {
    let (level, _) = campaign_level("01_first_swing.ron");
    let sessions: Vec<String> = players
        .iter()
        .enumerate()
        .map(|(i, (player, _, _))| {
            server.register(player, &format!("Cached {i}"));
            server.session(player, &level)
        })
        .collect();
    wait_out_level_1();
    players
        .iter()
        .zip(&sessions)
        .map(|((player, replay, ticks), session)| {
            let (status, body) = server.submit(player, session, &level, *ticks, replay);
            assert_eq!(status, 202, "{body}");
            let id = body["id"].as_i64().expect("run id");
            assert_eq!(server.wait_for_verdict(id)["status"], "verified");
            id
        })
        .collect()
}

#[test]
fn a_servers_own_changes_clear_its_cached_boards_at_once() {
    let data = fresh_data_dir("cache-own");
    let server = Server::start(&data, &[NEVER_EXPIRES]);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let (ada, bob) = (Player::new(31), Player::new(32));
    // Cached while empty: a verified run must clear it.
    assert!(board_players(&server, &level).is_empty());
    let slower = padded_level_1_solution(30);
    let runs = verified_runs(
        &server,
        &[
            (&ada, &solution, LEVEL_1_TICKS),
            (&bob, &slower, LEVEL_1_PADDED_30_TICKS),
        ],
    );
    assert_eq!(
        board_players(&server, &level),
        [ada.key.as_str(), bob.key.as_str()]
    );
    assert_eq!(place(&server, &level, &bob).1["rank"], 2);

    hide(&server, "run", &runs[0].to_string());
    assert_eq!(board_players(&server, &level), [bob.key.as_str()]);
    assert_eq!(place(&server, &level, &bob).1["rank"], 1);

    hide(&server, "player", &bob.key);
    assert!(board_players(&server, &level).is_empty());
    assert_eq!(place(&server, &level, &bob).0, 404);

    hide(&server, "level", &level);
    let (status, body) = server.get(&format!("/api/v1/levels/{level}/board?limit=10"));
    assert_eq!(status, 404, "{body}");
}

#[test]
fn another_servers_change_reaches_this_ones_answers_within_the_ttl() {
    let data = fresh_data_dir("cache-other");
    let ttl = TTL_MS.to_string();
    // The first server verifies nothing: every change below is made by the second one.
    let first = Server::start(
        &data,
        &[("TETHER_VERIFIERS", "0"), ("TETHER_BOARD_CACHE_MS", &ttl)],
    );
    let second = Server::start(&data, &[("TETHER_VERIFIERS", "1")]);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let ada = Player::new(33);
    let runs = verified_runs(&second, &[(&ada, &solution, LEVEL_1_TICKS)]);
    std::thread::sleep(Duration::from_millis(TTL_MS));
    assert_eq!(board_players(&first, &level), [ada.key.as_str()]);
    assert_eq!(place(&first, &level, &ada).1["rank"], 1);

    // Both answers are now cached in the first server; the second hides the run.
    hide(&second, "run", &runs[0].to_string());
    assert!(board_players(&second, &level).is_empty());
    // The first may still answer from its cache until the TTL has passed, and not after.
    std::thread::sleep(Duration::from_millis(TTL_MS));
    assert!(board_players(&first, &level).is_empty());
    assert_eq!(place(&first, &level, &ada).0, 404);
}

/// The answers compared in the in-place test: first pages of several sizes (one that a new best
/// fills, one it pushes an entry out of, one past the query's clamp), a deeper page, the other
/// board (assisted) and a place.
const COMPARED_ANSWERS: [&str; 6] = [
    "board?limit=1",
    "board?limit=2",
    "board?limit=10",
    "board?limit=500",
    "board?limit=2&offset=1",
    "board?limit=10&assisted=true",
];

/// Every compared answer of `level`, as `server` sends it (status and exact bytes).
fn answers(server: &Server, level: &str, extra: &str) -> Vec<(u16, String)> {
    COMPARED_ANSWERS
        .iter()
        .map(|answer| answer.to_string())
        .chain([extra.to_string()])
        .map(|answer| server.get_text(&format!("/api/v1/levels/{level}/{answer}")))
        .collect()
}

#[test]
fn a_new_best_updates_cached_top_pages_to_the_bytes_a_fresh_read_gives() {
    let data = fresh_data_dir("cache-in-place");
    // `cached` verifies every run and keeps its answers until a change; `fresh` caches nothing
    // and verifies nothing, so it reads every answer from the shared database.
    let cached = Server::start(&data, &[NEVER_EXPIRES]);
    let fresh = Server::start(
        &data,
        &[("TETHER_VERIFIERS", "0"), ("TETHER_BOARD_CACHE_MS", "0")],
    );
    let (level, solution) = campaign_level("01_first_swing.ron");
    let slower = padded_level_1_solution(30);
    let (ada, bob, cy) = (Player::new(34), Player::new(35), Player::new(36));
    for (i, player) in [&ada, &bob, &cy].into_iter().enumerate() {
        cached.register(player, &format!("In place {i}"));
    }
    // Each step is a run that becomes its player's best: a first entry, a tie placed after
    // it (the earlier run ranks first), a player overtaking from second place, a new player
    // entering between two others, a player improving within the page.
    let steps = [
        (&ada, &slower, LEVEL_1_PADDED_30_TICKS),
        (&bob, &slower, LEVEL_1_PADDED_30_TICKS),
        (&bob, &solution, LEVEL_1_TICKS),
        (&cy, &solution, LEVEL_1_TICKS),
        (&ada, &solution, LEVEL_1_TICKS),
    ];
    let sessions: Vec<String> = steps
        .iter()
        .map(|(player, _, _)| cached.session(player, &level))
        .collect();
    wait_out_level_1();
    let place_of_ada = format!("board/{}?around=1", ada.key);
    answers(&cached, &level, &place_of_ada); // cached before the first run
    for (step, ((player, replay, ticks), session)) in steps.iter().zip(&sessions).enumerate() {
        let (status, body) = cached.submit(player, session, &level, *ticks, replay);
        assert_eq!(status, 202, "{body}");
        let run = body["id"].as_i64().expect("run id");
        assert_eq!(cached.wait_for_verdict(run)["status"], "verified");
        let (served, read) = (
            answers(&cached, &level, &place_of_ada),
            answers(&fresh, &level, &place_of_ada),
        );
        for ((answer, served), read) in COMPARED_ANSWERS
            .iter()
            .chain([&place_of_ada.as_str()])
            .zip(&served)
            .zip(&read)
        {
            assert_eq!(served, read, "after step {step}, {answer}");
        }
    }
    assert_eq!(
        board_players(&fresh, &level),
        [bob.key.as_str(), cy.key.as_str(), ada.key.as_str()]
    );
}
