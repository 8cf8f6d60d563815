//! An acknowledged run is never lost: SIGKILL in the middle of a stream of submissions, a
//! restart, and every acknowledged run is there, the pending ones verified by the restarted
//! queue, and the database passes its integrity check.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use common::*;

const SUBMISSIONS: usize = 40;

#[test]
fn a_killed_server_keeps_every_acknowledged_run_and_resumes_the_queue() {
    let data = fresh_data_dir("crash");
    // A short lease: runs the killed server had claimed are taken up again soon after restart.
    let env = [("TETHER_CLAIM_LEASE_S", "1"), ("TETHER_VERIFIERS", "1")];
    let server = Server::start(&data, &env);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let players: Vec<Player> = (0..SUBMISSIONS as u8)
        .map(|i| Player::new(10 + i))
        .collect();
    let mut sessions = Vec::new();
    for (i, player) in players.iter().enumerate() {
        server.register(player, &format!("Racer {i}"));
        sessions.push(server.session(player, &level));
    }
    wait_out_level_1();

    let server = Arc::new(Mutex::new(server));
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let killed = Arc::new(AtomicBool::new(false));
    let base = server.lock().unwrap().base.clone();
    let submitter = {
        let (acknowledged, killed) = (Arc::clone(&acknowledged), Arc::clone(&killed));
        let (level, solution) = (level.clone(), solution.clone());
        std::thread::spawn(move || {
            for (player, session) in players.iter().zip(&sessions) {
                if killed.load(Ordering::SeqCst) {
                    break;
                }
                // The server may die between the nonce and the submission: a transport error
                // or no answer means not acknowledged, which is allowed to be lost.
                let Some(id) = submit_quietly(&base, player, session, &level, &solution) else {
                    continue;
                };
                acknowledged.lock().unwrap().push(id);
            }
        })
    };
    // Kill once a third of the stream is acknowledged, while the rest is still coming.
    while acknowledged.lock().unwrap().len() < SUBMISSIONS / 3 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    server.lock().unwrap().kill();
    killed.store(true, Ordering::SeqCst);
    submitter.join().unwrap();
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() >= SUBMISSIONS / 3);

    let restarted = Server::start(&data, &env);
    for id in &acknowledged {
        let verdict = restarted.wait_for_verdict(*id);
        assert_eq!(verdict["status"], "verified", "run {id}: {verdict}");
    }
    let (_, board) = restarted.get(&format!("/api/v1/levels/{level}/board?limit=100"));
    assert!(
        board["entries"].as_array().unwrap().len() >= acknowledged.len(),
        "{board}"
    );
    drop(restarted);

    let check = std::process::Command::new(env!("CARGO_BIN_EXE_tether-server"))
        .arg("integrity")
        .env("TETHER_DATA_DIR", &data)
        .envs(database_env(&data))
        .output()
        .expect("tether-server integrity runs");
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success() && stdout.contains("integrity_check: ok"),
        "{stdout}"
    );
}

/// One signed submission over its own connection; the run's id if the server acknowledged it.
fn submit_quietly(
    base: &str,
    player: &Player,
    session: &str,
    level: &str,
    replay: &str,
) -> Option<i64> {
    let nonce_text = ureq::get(&format!("{base}/api/v1/nonce"))
        .call()
        .ok()?
        .into_string()
        .ok()?;
    let nonce: serde_json::Value = serde_json::from_str(&nonce_text).ok()?;
    let body = serde_json::json!({ "session": session, "level": level, "sim_version": tether_sim::SIM_VERSION,
                                   "ticks": LEVEL_1_TICKS, "replay": replay });
    let envelope = player.envelope(nonce["nonce"].as_str()?, &body.to_string());
    let answer_text = ureq::post(&format!("{base}/api/v1/runs"))
        .send_string(&envelope.to_string())
        .ok()?
        .into_string()
        .ok()?;
    let answer: serde_json::Value = serde_json::from_str(&answer_text).ok()?;
    answer["id"].as_i64()
}
