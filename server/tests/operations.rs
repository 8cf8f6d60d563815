//! The operator's side against a real server: a separate `tether-server worker` verifying the
//! queue, `tether-server reverify`, `tether-server seed`, a run flagged for its old session, CORS
//! from the config and the browser game served from the API's own address.

mod common;

use std::process::Stdio;

use common::*;
use serde_json::json;
use sha2::{Digest, Sha256};
use tether_online_proto::Identity;

/// Registers Ada, takes a session on level 1 and submits its solution: the run's id.
fn submit_level_1_solution(server: &Server) -> i64 {
    let (level, solution) = campaign_level("01_first_swing.ron");
    let ada = Player::new(1);
    server.register(&ada, "Ada");
    let session = server.session(&ada, &level);
    wait_out_level_1();
    let (status, body) = server.submit(&ada, &session, &level, LEVEL_1_TICKS, &solution);
    assert_eq!(status, 202, "{body}");
    body["id"].as_i64().expect("run id")
}

#[test]
fn a_separate_worker_process_verifies_what_the_http_server_only_queues() {
    let data = fresh_data_dir("worker");
    let server = Server::start(&data, &[("TETHER_VERIFIERS", "0")]);
    let run = submit_level_1_solution(&server);
    let (_, status) = server.get(&format!("/api/v1/runs/{run}"));
    assert_eq!(
        status["status"], "pending",
        "no verifier in the HTTP server"
    );
    let _worker = Process(
        server_command(&data, &[("TETHER_VERIFIERS", "1")])
            .arg("worker")
            .stdout(Stdio::null())
            .spawn()
            .expect("the worker starts"),
    );
    let verdict = server.wait_for_verdict(run);
    assert_eq!(verdict["status"], "verified", "{verdict}");
    let (level, _) = campaign_level("01_first_swing.ron");
    let (_, board) = server.get(&format!("/api/v1/levels/{level}/board"));
    assert_eq!(board["entries"][0]["run"], run, "{board}");
}

#[test]
fn reverify_passes_sound_runs_and_names_one_that_no_longer_finishes() {
    let data = fresh_data_dir("reverify");
    let server = Server::start(&data, &[]);
    let run = submit_level_1_solution(&server);
    assert_eq!(server.wait_for_verdict(run)["status"], "verified");
    let reverify = || {
        let output = server_command(&data, &[])
            .arg("reverify")
            .output()
            .expect("reverify runs");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    };
    let (code, out) = reverify();
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("1 verified runs re-simulated") && out.contains("0 no longer finish"),
        "{out}"
    );
    // A stored time the inputs do not reach: what a physics change does to an old run.
    let changed = database_execute(
        &data,
        &format!("UPDATE runs SET ticks = ticks + 1 WHERE id = {run}"),
    );
    assert_eq!(changed, 1);
    let (code, out) = reverify();
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(&format!("run {run} ")) && out.contains("1 no longer finish"),
        "{out}"
    );
}

/// The key `tether-server seed` gives player `index` (what server/load/prepare.py signs with).
fn seeded_key(index: usize) -> String {
    let seed = Sha256::digest(format!("tether-seed-player-{index}").as_bytes());
    Identity::from_seed(seed.into()).public_key_hex()
}

#[test]
fn seed_fills_players_levels_and_boards_with_runs_that_reverify() {
    const PLAYERS: usize = 12;
    const RUNS: i64 = 300;
    let data = fresh_data_dir("seed");
    let seeded = server_command(&data, &[])
        .args(["seed", &PLAYERS.to_string(), "3", &RUNS.to_string()])
        .output()
        .expect("seed runs");
    let out = String::from_utf8_lossy(&seeded.stdout);
    assert_eq!(seeded.status.code(), Some(0), "{out}");
    assert!(
        out.contains("seed: 12 players, 3 levels, 300 verified runs"),
        "{out}"
    );
    let server = Server::start(&data, &[]);
    for index in [0, PLAYERS - 1] {
        let (status, player) = server.get(&format!("/api/v1/players/{}", seeded_key(index)));
        assert_eq!(status, 200, "seeded player {index}: {player}");
        assert_eq!(player["name"], format!("Seeded{index}"));
    }
    let (status, _) = server.get(&format!("/api/v1/players/{}", seeded_key(PLAYERS)));
    assert_eq!(status, 404, "only {PLAYERS} players are seeded");
    let (_, list) = server.get("/api/v1/levels?q=seeded%20level&limit=50");
    let levels = list["levels"].as_array().expect("levels");
    assert_eq!(levels.len(), 3, "{list}");
    let finishes: i64 = levels.iter().map(|l| l["finishes"].as_i64().unwrap()).sum();
    assert_eq!(finishes, RUNS, "every seeded run is a finish: {list}");
    for level in levels {
        check_seeded_board(&server, level["hash"].as_str().expect("hash"));
    }
    let reverified = server_command(&data, &[])
        .arg("reverify")
        .output()
        .expect("reverify runs");
    let out = String::from_utf8_lossy(&reverified.stdout);
    assert_eq!(reverified.status.code(), Some(0), "{out}");
    assert!(
        out.contains("300 verified runs re-simulated") && out.contains("0 no longer finish"),
        "{out}"
    );
}

/// A seeded board reads back as a board: one best run per player, fastest first, each entry's
/// run verified on this level at the entry's time, and a player's place agreeing with it.
fn check_seeded_board(server: &Server, level: &str) {
    let (status, board) = server.get(&format!("/api/v1/levels/{level}/board?limit=100"));
    assert_eq!(status, 200, "{board}");
    let entries = board["entries"].as_array().expect("entries");
    assert!(entries.len() > 1, "{board}");
    let mut players = std::collections::HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        assert_eq!(entry["rank"], i as i64 + 1, "{board}");
        assert!(
            players.insert(entry["player"].clone()),
            "one entry per player: {board}"
        );
        if i > 0 {
            assert!(
                entries[i - 1]["ticks"].as_i64() <= entry["ticks"].as_i64(),
                "{board}"
            );
        }
        let (_, run) = server.get(&format!("/api/v1/runs/{}", entry["run"]));
        assert_eq!(run["status"], "verified", "{run}");
        assert_eq!(
            (&run["level"], &run["ticks"]),
            (&json!(level), &entry["ticks"])
        );
    }
    let last = entries.last().expect("an entry");
    let (_, place) = server.get(&format!(
        "/api/v1/levels/{level}/board/{}",
        last["player"].as_str().unwrap()
    ));
    assert_eq!(
        (&place["rank"], &place["of"]),
        (&last["rank"], &json!(entries.len())),
        "{place}"
    );
}

#[test]
fn a_run_from_a_session_far_older_than_its_time_is_flagged_but_kept() {
    let data = fresh_data_dir("flagged");
    let server = Server::start(&data, &[]);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let ada = Player::new(1);
    server.register(&ada, "Ada");
    // Level 1's run lasts 1.475 s: flagged once its session is older than twice that plus a
    // minute, 62.95 s (a slow-motion run, or a long pause). No test waits that long, so each
    // session is made older in the database: 50 s is not flagged, 70 s is.
    for (aged_s, flagged) in [(50, false), (70, true)] {
        let session = server.session(&ada, &level);
        let aged = database_execute(
            &data,
            &format!(
                "UPDATE sessions SET created_ms = created_ms - {} WHERE token = '{session}'",
                aged_s * 1000
            ),
        );
        assert_eq!(aged, 1);
        let (status, body) = server.submit(&ada, &session, &level, LEVEL_1_TICKS, &solution);
        assert_eq!(status, 202, "{body}");
        assert_eq!(body["flagged"], flagged, "session aged {aged_s} s: {body}");
        let verdict = server.wait_for_verdict(body["id"].as_i64().unwrap());
        assert_eq!(
            (verdict["status"].as_str(), verdict["flagged"].as_bool()),
            (Some("verified"), Some(flagged)),
            "{verdict}"
        );
    }
}

#[test]
fn cors_allows_the_configured_origins_only() {
    let data = fresh_data_dir("cors");
    let friend = "https://friend.example";
    let server = Server::start(&data, &[("TETHER_CORS_ORIGINS", friend)]);
    assert_eq!(
        server.get_from_origin("/api/v1/health", friend),
        (200, Some(friend.to_string()))
    );
    assert_eq!(
        server.get_from_origin("/api/v1/health", "https://stranger.example"),
        (200, None)
    );
    let plain = Server::start(&fresh_data_dir("no-cors"), &[]);
    assert_eq!(plain.get_from_origin("/api/v1/health", friend), (200, None));
}

#[test]
fn the_game_page_and_the_api_share_one_address() {
    let data = fresh_data_dir("dist");
    let dist = data.join("dist");
    std::fs::create_dir_all(&dist).expect("dist folder");
    let page = "<!doctype html><title>Tether</title>";
    std::fs::write(dist.join("index.html"), page).expect("page written");
    std::fs::write(dist.join("tether.wasm"), b"\0asm").expect("wasm written");
    let server = Server::start(&data, &[("TETHER_DIST_DIR", dist.to_str().unwrap())]);
    assert_eq!(server.get_text("/"), (200, page.to_string()));
    assert_eq!(server.get_text("/tether.wasm").0, 200);
    let (status, health) = server.get("/api/v1/health");
    assert_eq!((status, health["ok"].as_bool()), (200, Some(true)));
    assert_eq!(server.get_text("/missing.js").0, 404);
}
