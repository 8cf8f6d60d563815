//! Every forged or malformed request is refused with its reason: bad signatures, reused
//! nonces, unknown body fields, bad names, runs of another level or version, forged faster runs, runs faster than
//! the wall clock, oversized bodies, rate limits.

mod common;

use std::io::{BufRead, Write};

use common::*;
use serde_json::json;

fn error_of(answer: (u16, serde_json::Value)) -> (u16, String) {
    (
        answer.0,
        answer.1["error"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn signatures_nonces_and_names_are_checked() {
    let data = fresh_data_dir("auth");
    let server = Server::start(&data, &[]);
    let ada = Player::new(1);
    let body = json!({ "name": "Ada" }).to_string();

    let mut forged = ada.envelope(&server.nonce(), &body);
    forged["body"] = json!({ "name": "Eve" }).to_string().into();
    assert_eq!(
        error_of(server.post_raw("/api/v1/players", forged.to_string().as_bytes())),
        (401, "bad_signature".into())
    );

    // The shared wire types ignore unknown fields; the server refuses them.
    let stray = json!({ "name": "Ada", "admin": true }).to_string();
    let (status, answer) = server.post_raw(
        "/api/v1/players",
        ada.envelope(&server.nonce(), &stray).to_string().as_bytes(),
    );
    assert_eq!((status, answer["error"].as_str()), (400, Some("bad_body")));
    assert!(
        answer["message"].as_str().unwrap().contains("admin"),
        "{answer}"
    );

    let envelope = ada.envelope(&server.nonce(), &body);
    assert_eq!(
        server
            .post_raw("/api/v1/players", envelope.to_string().as_bytes())
            .0,
        200
    );
    assert_eq!(
        error_of(server.post_raw("/api/v1/players", envelope.to_string().as_bytes())),
        (401, "bad_nonce".into())
    );
    let made_up = ada.envelope("00112233445566778899aabbccddeeff", &body);
    assert_eq!(
        error_of(server.post_raw("/api/v1/players", made_up.to_string().as_bytes())),
        (401, "bad_nonce".into())
    );

    let bo = Player::new(2);
    for bad in [
        "",
        " ",
        "Bo\u{1b}[2J",
        "B\u{202E}o",
        "x".repeat(25).as_str(),
        " Bo",
        "B\u{200B}o",
    ] {
        let answer = server.signed(&bo, "/api/v1/players", &json!({ "name": bad }));
        assert_eq!(error_of(answer), (400, "bad_name".into()), "{bad:?}");
    }
    assert_eq!(
        error_of(server.signed(&bo, "/api/v1/players", &json!({ "name": "ADA" }))),
        (409, "taken".into())
    );
    assert_eq!(
        server
            .signed(
                &bo,
                "/api/v1/players",
                &json!({ "name": "Bö 24 chars ok ........." })
            )
            .0,
        200
    );

    let stranger = Player::new(3);
    let (level, _) = campaign_level("01_first_swing.ron");
    assert_eq!(
        error_of(server.signed(&stranger, "/api/v1/sessions", &json!({ "level": level }))),
        (403, "not_registered".into())
    );
}

#[test]
fn runs_of_another_level_version_or_time_are_refused() {
    let data = fresh_data_dir("runs");
    let server = Server::start(&data, &[]);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let (level_2, solution_2) = campaign_level("02_reel_up.ron");
    let ada = Player::new(1);
    server.register(&ada, "Ada");

    // Submitted at once: level 3's 560 ticks (4.7 s) cannot have been played in the few ms
    // since the session.
    let (level_3, solution_3) = campaign_level("03_chain.ron");
    let session = server.session(&ada, &level_3);
    let answer = server.submit(&ada, &session, &level_3, 560, &solution_3);
    assert_eq!(error_of(answer), (400, "faster_than_wall_clock".into()));

    let sessions: Vec<String> = (0..6).map(|_| server.session(&ada, &level)).collect();
    wait_out_level_1();
    let body = json!({ "session": sessions[0], "level": level, "sim_version": tether_sim::SIM_VERSION + 1,
                       "ticks": LEVEL_1_TICKS, "replay": solution });
    assert_eq!(
        error_of(server.signed(&ada, "/api/v1/runs", &body)),
        (400, "other_version".into())
    );
    assert_eq!(
        error_of(server.submit(&ada, &sessions[1], &level_2, 220, &solution_2)),
        (400, "other_level".into())
    );
    assert_eq!(
        error_of(server.submit(&ada, &sessions[2], &level, 10_000_000, &solution)),
        (400, "over_budget".into())
    );

    // Queued, then refused by re-simulation: level 2's run on level 1, a faster claim, a
    // replay cut short to claim a faster time, and a claim of the wrong (slower) tick.
    let (_, other) = server.submit(&ada, &sessions[3], &level, 220, &solution_2);
    let again = server.submit(&ada, &sessions[3], &level, 220, &solution_2);
    assert_eq!(
        error_of(again),
        (400, "bad_session".into()),
        "a session is single-use"
    );
    let (_, slower) = server.submit(&ada, &sessions[0], &level, LEVEL_1_TICKS + 23, &solution);
    let (_, faster) = server.submit(&ada, &sessions[4], &level, LEVEL_1_TICKS - 20, &solution);
    let mut cut = tether_sim::Replay::from_ron(&solution, "s").unwrap();
    cut.runs.truncate(cut.runs.len() / 2);
    let (_, short) = server.submit(&ada, &sessions[5], &level, cut.tick_count(), &cut.to_ron());
    let expected_reasons = [
        (other, "do not reach the goal"),
        (faster, "do not reach the goal"),
        (short, "do not reach the goal"),
        (
            slower,
            "reach the goal at tick 177, not at the claimed tick 200",
        ),
    ];
    for (answer, expected) in expected_reasons {
        let verdict =
            server.wait_for_verdict(answer["id"].as_i64().unwrap_or_else(|| panic!("{answer}")));
        assert_eq!(verdict["status"], "refused", "{verdict}");
        assert!(
            verdict["reason"].as_str().unwrap().contains(expected),
            "{verdict}"
        );
    }
    let (_, board) = server.get(&format!("/api/v1/levels/{level}/board"));
    assert_eq!(board["entries"].as_array().unwrap().len(), 0, "{board}");
    assert_eq!(
        server.get(&format!("/api/v1/runs/{}/replay", 1)).0,
        404,
        "refused runs have no ghost"
    );
}

#[test]
fn oversized_bodies_and_floods_are_refused() {
    let data = fresh_data_dir("limits");
    let server = Server::start(&data, &[("TETHER_RATE_PER_KEY", "1")]);
    let ada = Player::new(1);
    // Announced as 20 KB and never sent: the limit is applied before the body is read.
    let request = "POST /api/v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                   Content-Type: application/json\r\nContent-Length: 20000\r\n\r\n";
    let address = server.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).expect("connects");
    stream.write_all(request.as_bytes()).expect("request sent");
    let mut status_line = String::new();
    std::io::BufReader::new(stream)
        .read_line(&mut status_line)
        .expect("an answer");
    assert!(status_line.starts_with("HTTP/1.1 413"), "{status_line}");
    server.register(&ada, "Ada");
    let (level, _) = campaign_level("01_first_swing.ron");
    let statuses: Vec<u16> = (0..4)
        .map(|_| {
            server
                .signed(&ada, "/api/v1/sessions", &json!({ "level": level }))
                .0
        })
        .collect();
    assert!(statuses.contains(&429), "a key over its rate: {statuses:?}");
    drop(server);

    let server = Server::start(
        &fresh_data_dir("limits-addr"),
        &[("TETHER_RATE_PER_ADDR", "2")],
    );
    let statuses: Vec<u16> = (0..8)
        .map(|_| server.get_text("/api/v1/health").0)
        .collect();
    assert!(
        statuses.contains(&429),
        "an address over its rate: {statuses:?}"
    );
}
