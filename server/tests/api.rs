//! The API against a real server: a player's first record, boards, shared levels, ratings and
//! moderation, and every refusal a forged or malformed request must get.

mod common;

use common::*;
use serde_json::json;

#[test]
fn a_solution_run_is_verified_and_ranks_first() {
    let data = fresh_data_dir("happy");
    let server = Server::start(&data, &[]);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let ada = Player::new(1);
    server.register(&ada, "Ada");
    let session = server.session(&ada, &level);
    wait_out_level_1();
    let (status, body) = server.submit(&ada, &session, &level, LEVEL_1_TICKS, &solution);
    assert_eq!(status, 202, "{body}");
    let run = body["id"].as_i64().expect("run id");
    assert_eq!(body["flagged"], false);
    let verdict = server.wait_for_verdict(run);
    assert_eq!(verdict["status"], "verified", "{verdict}");

    let (status, board) = server.get(&format!("/api/v1/levels/{level}/board"));
    assert_eq!(status, 200, "{board}");
    let entries = board["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 1, "{board}");
    assert_eq!(entries[0]["rank"], 1);
    assert_eq!(entries[0]["name"], "Ada");
    assert_eq!(entries[0]["ticks"], LEVEL_1_TICKS);

    let (status, place) = server.get(&format!("/api/v1/levels/{level}/board/{}", ada.key));
    assert_eq!(status, 200, "{place}");
    assert_eq!(
        (place["rank"].as_i64(), place["of"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(place["top_percent"], 100.0);

    // The ghost is the run, aims the simulation never reads left out.
    let (status, ghost) = server.get_text(&format!("/api/v1/runs/{run}/replay"));
    assert_eq!(status, 200);
    let ghost = tether_sim::Replay::from_ron(&ghost, "ghost").expect("ghost parses");
    let original = tether_sim::Replay::from_ron(&solution, "solution").expect("solution parses");
    assert_eq!(ghost, original.without_unread_aims());

    let (_, details) = server.get(&format!("/api/v1/levels/{level}"));
    assert_eq!(
        (details["finishes"].as_i64(), details["finishers"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(details["record"]["name"], "Ada");
}

#[test]
fn a_second_player_ranks_behind_and_assisted_runs_have_their_own_board() {
    let data = fresh_data_dir("boards");
    let server = Server::start(&data, &[]);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let players = [Player::new(1), Player::new(2), Player::new(3)];
    for (player, name) in players.iter().zip(["Ada", "Bo", "Cy"]) {
        server.register(player, name);
    }
    let sessions: Vec<String> = players.iter().map(|p| server.session(p, &level)).collect();
    wait_out_level_1();
    let assisted = solution.replacen("runs:", "assists: (invincible: true),\n    runs:", 1);
    let mut runs = Vec::new();
    for (i, (player, session)) in players.iter().zip(&sessions).enumerate() {
        let replay = if i == 2 { &assisted } else { &solution };
        let (status, body) = server.submit(player, session, &level, LEVEL_1_TICKS, replay);
        assert_eq!(status, 202, "{body}");
        runs.push(body["id"].as_i64().expect("id"));
    }
    for run in &runs {
        assert_eq!(server.wait_for_verdict(*run)["status"], "verified");
    }
    let (_, board) = server.get(&format!("/api/v1/levels/{level}/board"));
    let names: Vec<&str> = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Ada", "Bo"],
        "equal times: the earlier run ranks first"
    );
    let (_, place) = server.get(&format!("/api/v1/levels/{level}/board/{}", players[1].key));
    assert_eq!(
        (place["rank"].as_i64(), place["of"].as_i64()),
        (Some(2), Some(2))
    );
    assert_eq!(place["around"].as_array().unwrap().len(), 2);
    let (_, board) = server.get(&format!("/api/v1/levels/{level}/board?assisted=true"));
    let names: Vec<&str> = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Cy"]);

    // Moderation: only the admin key hides; a hidden run leaves the board.
    let hide = json!({ "kind": "run", "id": runs[0].to_string() });
    let (status, body) = server.signed(&players[1], "/api/v1/admin/hide", &hide);
    assert_eq!((status, body["error"].as_str()), (403, Some("not_admin")));
    let (status, body) = server.signed(&Player::new(ADMIN_SEED), "/api/v1/admin/hide", &hide);
    assert_eq!(status, 200, "{body}");
    let (_, board) = server.get(&format!("/api/v1/levels/{level}/board"));
    let names: Vec<&str> = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bo"]);
    let hide_player = json!({ "kind": "player", "id": players[1].key });
    assert_eq!(
        server
            .signed(&Player::new(ADMIN_SEED), "/api/v1/admin/hide", &hide_player)
            .0,
        200
    );
    let (_, board) = server.get(&format!("/api/v1/levels/{level}/board"));
    assert_eq!(board["entries"].as_array().unwrap().len(), 0, "{board}");
}

/// Level 1 under another name: another text, so another hash, and the same solution finishes it.
fn shared_level_text() -> String {
    read_repo_file("levels/01_first_swing.ron").replace("\"First Swing\"", "\"Shared Swing\"")
}

#[test]
fn a_shared_level_needs_its_authors_clear_and_is_browsed_searched_and_rated() {
    let data = fresh_data_dir("levels");
    let server = Server::start(&data, &[]);
    let (_, solution) = campaign_level("01_first_swing.ron");
    let author = Player::new(7);
    server.register(&author, "Maker");
    let text = shared_level_text();
    let upload = |ticks: u64, replay: &str| {
        server.signed(
            &author,
            "/api/v1/levels",
            &json!({ "text": text, "replay": replay, "ticks": ticks }),
        )
    };
    let (status, body) = upload(LEVEL_1_TICKS - 10, &solution);
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("no_author_clear")),
        "{body}"
    );
    let unfinished = tether_sim::Replay::new("01_first_swing.ron").to_ron();
    let (status, body) = upload(LEVEL_1_TICKS, &unfinished);
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("no_author_clear")),
        "{body}"
    );
    let (status, body) = upload(LEVEL_1_TICKS, &solution);
    assert_eq!(status, 201, "{body}");
    let hash = body["hash"].as_str().unwrap().to_string();
    assert_eq!(hash, level_hash(&text));
    assert_eq!(body["author_ticks"], LEVEL_1_TICKS);
    // The author's clear is a verified finish: it is on the board, first.
    let author_run = body["run"].as_i64().expect("the author's run id");
    let (_, board) = server.get(&format!("/api/v1/levels/{hash}/board"));
    assert_eq!(
        (
            board["entries"][0]["run"].as_i64(),
            board["entries"][0]["name"].as_str()
        ),
        (Some(author_run), Some("Maker")),
        "{board}"
    );
    assert_eq!(
        server
            .get_text(&format!("/api/v1/runs/{author_run}/replay"))
            .0,
        200
    );
    let (status, body) = upload(LEVEL_1_TICKS, &solution);
    assert_eq!((status, body["error"].as_str()), (409, Some("exists")));

    let (_, newest) = server.get("/api/v1/levels?sort=newest&limit=1");
    assert_eq!(newest["levels"][0]["hash"], hash.as_str(), "{newest}");
    for search in ["shared", "SWING", "make"] {
        let (_, found) = server.get(&format!("/api/v1/levels?q={search}"));
        let hashes: Vec<&str> = found["levels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["hash"].as_str().unwrap())
            .collect();
        assert!(hashes.contains(&hash.as_str()), "search {search}: {found}");
    }
    let (_, found) = server.get("/api/v1/levels?q=%25");
    assert_eq!(
        found["levels"].as_array().unwrap().len(),
        0,
        "% matches itself only"
    );
    for sort in ["plays", "rating", "hardest", "easiest"] {
        assert_eq!(server.get(&format!("/api/v1/levels?sort={sort}")).0, 200);
    }
    assert_eq!(server.get("/api/v1/levels?sort=random").0, 400);

    // Rating: only after a verified finish, and once.
    let player = Player::new(8);
    server.register(&player, "Rater");
    let rating = json!({ "rating": 5, "difficulty": 2 });
    let path = format!("/api/v1/levels/{hash}/rating");
    let (status, body) = server.signed(&player, &path, &rating);
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("not_finished"))
    );
    let session = server.session(&player, &hash);
    wait_out_level_1();
    let (_, body) = server.submit(&player, &session, &hash, LEVEL_1_TICKS, &solution);
    assert_eq!(
        server.wait_for_verdict(body["id"].as_i64().unwrap())["status"],
        "verified"
    );
    assert_eq!(server.signed(&player, &path, &rating).0, 200);
    let (status, body) = server.signed(&player, &path, &rating);
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("already_rated"))
    );
    let (_, details) = server.get(&format!("/api/v1/levels/{hash}"));
    assert_eq!(
        (details["rating"].as_f64(), details["difficulty"].as_f64()),
        (Some(5.0), Some(2.0))
    );
    // The author's upload counts as the first play and finish, the rater's as the second.
    assert_eq!(
        (details["plays"].as_i64(), details["finishers"].as_i64()),
        (Some(2), Some(2))
    );
    assert_eq!(details["clear_rate"].as_f64(), Some(1.0));
}

#[test]
fn medals_follow_the_games_rule_and_the_players_best_run() {
    let data = fresh_data_dir("medals");
    let server = Server::start(&data, &[]);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let ada = Player::new(1);
    server.register(&ada, "Ada");
    let (_, details) = server.get(&format!("/api/v1/levels/{level}"));
    // levels/index.ron's author time, 177, and the game's medal times from it.
    assert_eq!(
        details["medal_times"],
        json!({ "author": 177, "gold": 192, "silver": 216, "bronze": 276 })
    );
    let medals_path = format!("/api/v1/players/{}/medals", ada.key);
    let (status, medals) = server.get(&medals_path);
    assert_eq!(status, 200, "{medals}");
    assert_eq!(medals["medals"], json!([]), "no finish, no medal");

    let finish = |replay: &str, ticks: u64| {
        let session = server.session(&ada, &level);
        std::thread::sleep(std::time::Duration::from_millis(1_800));
        let (status, body) = server.submit(&ada, &session, &level, ticks, replay);
        assert_eq!(status, 202, "{body}");
        let verdict = server.wait_for_verdict(body["id"].as_i64().unwrap());
        assert_eq!(verdict["status"], "verified", "{verdict}");
    };
    finish(&padded_level_1_solution(30), LEVEL_1_PADDED_30_TICKS);
    let (_, medals) = server.get(&medals_path);
    assert_eq!(medals["medals"][0]["level"], level.as_str(), "{medals}");
    assert_eq!(medals["medals"][0]["medal"], "silver", "205 ticks: silver");
    assert_eq!(medals["counts"]["silver"], 1);
    let place_path = format!("/api/v1/levels/{level}/board/{}", ada.key);
    assert_eq!(server.get(&place_path).1["medal"], "silver");

    finish(&solution, LEVEL_1_TICKS);
    let (_, medals) = server.get(&medals_path);
    assert_eq!(medals["medals"].as_array().unwrap().len(), 1, "{medals}");
    assert_eq!(medals["medals"][0]["medal"], "author", "{medals}");
    assert_eq!(
        (
            medals["counts"]["author"].as_i64(),
            medals["counts"]["silver"].as_i64()
        ),
        (Some(1), Some(0))
    );
    assert_eq!(server.get(&place_path).1["medal"], "author");

    assert_eq!(
        server
            .get(&format!("/api/v1/players/{}/medals", "0".repeat(64)))
            .0,
        404
    );
    assert_eq!(server.get("/api/v1/players/nothex/medals").0, 404);
}

#[test]
fn a_hidden_level_is_gone_from_browse_search_board_and_medals() {
    let data = fresh_data_dir("hide-level");
    let server = Server::start(&data, &[]);
    let (_, solution) = campaign_level("01_first_swing.ron");
    let author = Player::new(7);
    server.register(&author, "Maker");
    let body = json!({ "text": shared_level_text(), "replay": solution, "ticks": LEVEL_1_TICKS });
    let (status, uploaded) = server.signed(&author, "/api/v1/levels", &body);
    assert_eq!(status, 201, "{uploaded}");
    let hash = uploaded["hash"].as_str().unwrap().to_string();
    let listed = |query: &str| {
        let (_, found) = server.get(&format!("/api/v1/levels?{query}"));
        found["levels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["hash"] == hash.as_str())
    };
    let board_path = format!("/api/v1/levels/{hash}/board");
    let medals_path = format!("/api/v1/players/{}/medals", author.key);
    assert!(listed("sort=newest") && listed("q=shared"));
    assert_eq!(server.get(&board_path).0, 200);
    assert_eq!(
        server.get(&medals_path).1["medals"][0]["level"],
        hash.as_str()
    );

    let hide = json!({ "kind": "level", "id": hash });
    let (status, body) = server.signed(&Player::new(ADMIN_SEED), "/api/v1/admin/hide", &hide);
    assert_eq!(status, 200, "{body}");
    for sort in ["newest", "plays", "rating", "hardest", "easiest"] {
        assert!(!listed(&format!("sort={sort}")), "still listed by {sort}");
    }
    assert!(!listed("q=shared") && !listed("q=maker"));
    for path in [
        board_path.clone(),
        format!("{board_path}/{}", author.key),
        format!("/api/v1/levels/{hash}"),
        format!("/api/v1/levels/{hash}/text"),
    ] {
        assert_eq!(server.get(&path).0, 404, "{path}");
    }
    assert_eq!(server.get(&medals_path).1["medals"], json!([]));
    let (status, body) = server.signed(&author, "/api/v1/sessions", &json!({ "level": hash }));
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("not_found")),
        "{body}"
    );
}
