//! A player's place on a board (server/src/api/boards.rs): its rank counts only visible players
//! (a hidden player's rows leave `best_runs`), its neighbours are the rows an offset page from
//! the top would give, and a database made before migration 2 is carried forward. The boards
//! are written as rows behind the server's back (`database_execute`), as `seed` and the scale
//! script do, so a test needs no waits for real runs.

mod common;

use std::path::Path;

use common::*;
use serde_json::{json, Value};

/// No answer comes from the board cache: each is the database's.
const NO_CACHE: (&str, &str) = ("TETHER_BOARD_CACHE_MS", "0");

/// A made-up player's key (64 hex digits, as a public key is written).
fn key(index: u32) -> String {
    format!("{index:064x}")
}

/// Registers players `rows.0` (named after their index) and puts each on `level`'s unassisted
/// board of simulation `version` with `(ticks, run id)`: two statements, however many rows.
fn board_rows(data: &Path, level: &str, version: i64, rows: &[(u32, i64, i64)]) {
    let players: Vec<String> = rows
        .iter()
        .map(|&(index, _, _)| format!("('{}', 'P{index}', 'p{index}', 0, 0)", key(index)))
        .collect();
    let sql = format!(
        "INSERT INTO players (key, name, name_folded, created_ms, hidden) VALUES {}",
        players.join(", ")
    );
    assert_eq!(database_execute(data, &sql), rows.len() as u64);
    let bests: Vec<String> = rows
        .iter()
        .map(|&(index, ticks, run)| {
            format!(
                "('{level}', {version}, 0, '{}', {ticks}, {run})",
                key(index)
            )
        })
        .collect();
    let sql = format!(
        "INSERT INTO best_runs (level_hash, sim_version, assisted, player_key, ticks, run_id) \
         VALUES {}",
        bests.join(", ")
    );
    assert_eq!(database_execute(data, &sql), rows.len() as u64);
}

/// `tether-server integrity` on `data`'s database passes: among its checks, `board_times` holds
/// exactly the counts of `best_runs`.
fn assert_board_times_agree(data: &Path) {
    let check = server_command(data, &[])
        .arg("integrity")
        .output()
        .expect("tether-server integrity runs");
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success() && stdout.contains("board_times: agree"),
        "{stdout}{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

fn sim_version(server: &Server) -> i64 {
    let (_, health) = server.get("/api/v1/health");
    health["sim_version"].as_i64().expect("sim_version")
}

fn place(server: &Server, level: &str, index: u32, around: i64) -> Value {
    let path = format!(
        "/api/v1/levels/{level}/board/{}?around={around}",
        key(index)
    );
    let (status, answer) = server.get(&path);
    assert_eq!(status, 200, "{path}: {answer}");
    answer
}

/// (rank, player) of each entry of a list of board entries.
fn ranked(entries: &Value) -> Vec<(i64, String)> {
    entries
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e["rank"].as_i64().expect("rank"),
                e["player"].as_str().expect("player").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_place_after_the_player_ahead_is_hidden_counts_only_visible_players() {
    let data = fresh_data_dir("place-after-hide");
    let server = Server::start(&data, &[NO_CACHE]);
    let (level, _) = campaign_level("01_first_swing.ron");
    let version = sim_version(&server);
    board_rows(
        &data,
        &level,
        version,
        &[(1, 200, 10), (2, 210, 11), (3, 220, 12), (4, 230, 13)],
    );
    let before = place(&server, &level, 3, 1);
    assert_eq!(
        (before["rank"].as_i64(), before["of"].as_i64()),
        (Some(3), Some(4))
    );

    let hide = json!({ "kind": "player", "id": key(1) });
    let (status, answer) = server.signed(&Player::new(ADMIN_SEED), "/api/v1/admin/hide", &hide);
    assert_eq!(status, 200, "{answer}");

    let after = place(&server, &level, 3, 1);
    assert_eq!(
        (after["rank"].as_i64(), after["of"].as_i64()),
        (Some(2), Some(3)),
        "{after}"
    );
    assert_eq!(
        ranked(&after["around"]),
        [(1, key(2)), (2, key(3)), (3, key(4))],
        "{after}"
    );
    let (_, top) = server.get(&format!("/api/v1/levels/{level}/board"));
    assert_eq!(
        ranked(&top["entries"]),
        [(1, key(2)), (2, key(3)), (3, key(4))]
    );
    let (status, _) = server.get(&format!("/api/v1/levels/{level}/board/{}", key(1)));
    assert_eq!(status, 404, "a hidden player has no place");
    let hidden_rows = format!("DELETE FROM best_runs WHERE player_key = '{}'", key(1));
    assert_eq!(
        database_execute(&data, &hidden_rows),
        0,
        "the hidden player's row left the board"
    );

    // A new best (an UPDATE of the row, as `offer_best` makes) moves the player ahead.
    let faster = format!(
        "UPDATE best_runs SET ticks = 150, run_id = 20 WHERE player_key = '{}'",
        key(4)
    );
    assert_eq!(database_execute(&data, &faster), 1);
    let moved = place(&server, &level, 4, 0);
    assert_eq!(
        (moved["rank"].as_i64(), moved["of"].as_i64()),
        (Some(1), Some(3)),
        "{moved}"
    );
    assert_eq!(place(&server, &level, 3, 0)["rank"].as_i64(), Some(3));
    assert_board_times_agree(&data);
}

#[test]
fn deep_pages_found_through_the_boards_times_match_the_board_order() {
    let data = fresh_data_dir("deep-pages");
    let server = Server::start(&data, &[NO_CACHE]);
    let (level, _) = campaign_level("01_first_swing.ron");
    let version = sim_version(&server);
    // 1,200 players over times 200..799 (three spans of 256 ticks), two per time, their run
    // ids against the player order so ties are ordered by run, not by insertion.
    let rows: Vec<(u32, i64, i64)> = (1..=1200)
        .map(|i| (i, 200 + i64::from(i * 7919 % 600), 5000 - i64::from(i)))
        .collect();
    board_rows(&data, &level, version, &rows);
    let mut order = rows.clone();
    order.sort_by_key(|&(_, ticks, run)| (ticks, run));
    for offset in [
        0, 990, 999, 1000, 1001, 1002, 1099, 1100, 1195, 1199, 1200, 5000,
    ] {
        let (status, page) = server.get(&format!(
            "/api/v1/levels/{level}/board?limit=10&offset={offset}"
        ));
        assert_eq!(status, 200, "{page}");
        let expected: Vec<(i64, String)> = order
            .iter()
            .enumerate()
            .skip(offset)
            .take(10)
            .map(|(i, &(index, _, _))| (i as i64 + 1, key(index)))
            .collect();
        assert_eq!(ranked(&page["entries"]), expected, "offset {offset}");
    }
}

#[test]
fn a_places_neighbours_are_the_offset_page_around_it_ties_to_the_earlier_run() {
    let data = fresh_data_dir("place-neighbours");
    let server = Server::start(&data, &[NO_CACHE]);
    let (level, _) = campaign_level("01_first_swing.ron");
    let version = sim_version(&server);
    // 23 players over four times in three spans of 256 ticks; each time is shared, so ties are
    // ordered by run id, which runs against the player order.
    let rows: Vec<(u32, i64, i64)> = (1..=23)
        .map(|i| (i, 300 + 200 * i64::from(i % 4), 1000 - i64::from(i)))
        .collect();
    board_rows(&data, &level, version, &rows);
    let (_, full) = server.get(&format!("/api/v1/levels/{level}/board?limit=100"));
    let board = ranked(&full["entries"]);
    assert_eq!(board.len(), rows.len());
    for (index, (rank, player)) in board.iter().enumerate() {
        assert_eq!(*rank, index as i64 + 1);
        for around in [0, 1, 3, 5] {
            let player_index = u32::from_str_radix(player, 16).expect("hex key");
            let answer = place(&server, &level, player_index, around);
            assert_eq!(
                (answer["rank"].as_i64(), answer["of"].as_i64()),
                (Some(*rank), Some(23))
            );
            let from = (rank - 1 - around).max(0) as usize;
            let to = (from + 2 * around as usize + 1).min(board.len());
            assert_eq!(
                ranked(&answer["around"]),
                board[from..to],
                "rank {rank}, around {around}"
            );
        }
    }
}

#[test]
fn a_database_made_before_migration_2_loses_its_hidden_players_board_rows() {
    let data = fresh_data_dir("migration-2");
    make_database_with_migrations_before(&data, 2);
    let (level, _) = campaign_level("01_first_swing.ron");
    let version = i64::from(tether_sim::SIM_VERSION);
    board_rows(
        &data,
        &level,
        version,
        &[(1, 200, 10), (2, 210, 11), (3, 220, 12)],
    );
    // Player 1 was hidden under the old schema, which left their row on the board.
    let hide = format!("UPDATE players SET hidden = 1 WHERE key = '{}'", key(1));
    assert_eq!(database_execute(&data, &hide), 1);

    let server = Server::start(&data, &[NO_CACHE]);
    let remaining = format!("DELETE FROM best_runs WHERE player_key = '{}'", key(1));
    assert_eq!(
        database_execute(&data, &remaining),
        0,
        "migration 2 removed the row"
    );
    let answer = place(&server, &level, 3, 5);
    assert_eq!(
        (answer["rank"].as_i64(), answer["of"].as_i64()),
        (Some(2), Some(2)),
        "{answer}"
    );
    assert_eq!(ranked(&answer["around"]), [(1, key(2)), (2, key(3))]);
    // A restart finds both migrations applied and changes nothing.
    drop(server);
    let server = Server::start(&data, &[NO_CACHE]);
    assert_eq!(place(&server, &level, 3, 5)["rank"].as_i64(), Some(2));
    assert_board_times_agree(&data);
}
