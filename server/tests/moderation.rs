//! Hides and verdicts at once (server/src/api/mod.rs's hide, queue.rs's verdicts). On
//! PostgreSQL each is its own transaction, so their row locks meet: a hidden run's board row
//! was deleted and re-inserted in two statements, taking `board_times` rows out of the order a
//! verdict takes them (a deadlock), and a verdict read `players.hidden` without a lock (a run
//! of a player being hidden could reach the board after the hide cleared it). On SQLite the one
//! writer runs them in turn. Either way: every hide answers, every run is judged, no hidden
//! player or hidden run is on a board, each board row is its player's best visible run, and
//! `tether-server integrity` agrees.

mod common;

use std::sync::mpsc;

use common::*;
use serde_json::json;

/// Players per round, each submitting two runs (slower first, so the second moves their row).
const PLAYERS_PER_ROUND: u8 = 12;
const ROUNDS: u8 = 3;

/// The rows of `best_runs` that are not their player's best visible verified run, plus the
/// best visible runs with no row: 0 when the boards are what the runs say.
const BOARDS_DISAGREEING: &str = "SELECT (SELECT COUNT(*) FROM (\
    SELECT level_hash, sim_version, assisted, player_key, ticks FROM best_runs \
    EXCEPT SELECT level_hash, sim_version, assisted, player_key, MIN(ticks) FROM runs \
    WHERE status = 'verified' AND hidden = 0 \
    AND player_key IN (SELECT key FROM players WHERE hidden = 0) \
    GROUP BY level_hash, sim_version, assisted, player_key) wrong) + (SELECT COUNT(*) FROM (\
    SELECT level_hash, sim_version, assisted, player_key, MIN(ticks) FROM runs \
    WHERE status = 'verified' AND hidden = 0 \
    AND player_key IN (SELECT key FROM players WHERE hidden = 0) \
    GROUP BY level_hash, sim_version, assisted, player_key \
    EXCEPT SELECT level_hash, sim_version, assisted, player_key, ticks FROM best_runs) missing)";

/// One round: its players submit their runs while the admin hides every third player and the
/// faster run of every other one as soon as it is submitted (often while it is verified).
fn round(server: &Server, first_seed: u8) -> Vec<i64> {
    let (level, solution) = campaign_level("01_first_swing.ron");
    let slower = padded_level_1_solution(30);
    let players: Vec<Player> = (0..PLAYERS_PER_ROUND)
        .map(|n| Player::new(first_seed + n))
        .collect();
    for (n, player) in players.iter().enumerate() {
        server.register(player, &format!("Racer {first_seed}-{n}"));
    }
    let sessions: Vec<[String; 2]> = players
        .iter()
        .map(|p| [server.session(p, &level), server.session(p, &level)])
        .collect();
    wait_out_level_1();
    let admin = Player::new(ADMIN_SEED);
    let (submitted, to_hide) = mpsc::channel::<(usize, i64)>();
    std::thread::scope(|scope| {
        let hider = scope.spawn(|| {
            for (n, run) in to_hide {
                let hide = if n % 3 == 0 {
                    json!({ "kind": "player", "id": players[n].key })
                } else {
                    json!({ "kind": "run", "id": run.to_string() })
                };
                let (status, body) = server.signed(&admin, "/api/v1/admin/hide", &hide);
                assert_eq!(status, 200, "hide {hide}: {body}");
            }
        });
        let mut runs = Vec::new();
        for (n, player) in players.iter().enumerate() {
            let attempts = [
                (LEVEL_1_PADDED_30_TICKS, slower.as_str()),
                (LEVEL_1_TICKS, solution.as_str()),
            ];
            for ((ticks, replay), session) in attempts.into_iter().zip(&sessions[n]) {
                let (status, body) = server.submit(player, session, &level, ticks, replay);
                assert_eq!(status, 202, "{body}");
                runs.push(body["id"].as_i64().expect("run id"));
            }
            submitted
                .send((n, *runs.last().expect("a run")))
                .expect("the hider listens");
        }
        drop(submitted);
        hider.join().expect("every hide answered 200");
        runs
    })
}

#[test]
fn hides_and_verdicts_at_once_all_succeed_and_leave_the_boards_consistent() {
    let data = fresh_data_dir("hides-and-verdicts");
    let server = Server::start(&data, &[("TETHER_BOARD_CACHE_MS", "0")]);
    let mut runs = Vec::new();
    for n in 0..ROUNDS {
        runs.extend(round(&server, 10 + n * PLAYERS_PER_ROUND));
    }
    // Hidden runs and hidden players' runs are not served: the database says when all are
    // judged (bounded, as `wait_for_verdict` is: a hung queue fails the test).
    let pending = "SELECT COUNT(*) FROM runs WHERE status = 'pending'";
    for _ in 0..1200 {
        if database_i64(&data, pending) == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let ours = runs
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let judged = format!("SELECT COUNT(*) FROM runs WHERE status = 'verified' AND id IN ({ours})");
    assert_eq!(
        database_i64(&data, &judged),
        runs.len() as i64,
        "all verified"
    );
    assert_eq!(database_i64(&data, BOARDS_DISAGREEING), 0);
    let hidden_on_boards = "SELECT COUNT(*) FROM best_runs b JOIN runs r ON r.id = b.run_id \
                            WHERE r.hidden <> 0";
    assert_eq!(database_i64(&data, hidden_on_boards), 0);
    let stdout = assert_integrity(&data);
    assert!(stdout.contains("best_runs: no hidden players"), "{stdout}");
}
