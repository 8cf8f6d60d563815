//! The operator's side against a real server: a separate `tether-server worker` verifying the
//! queue, `tether-server reverify`, a run flagged for its old session, CORS from the config and
//! the browser game served from the API's own address.

mod common;

use std::process::Stdio;

use common::*;

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
