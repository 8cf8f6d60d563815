//! Levels from everyone, against a real `tether-server` on loopback started here: a level of
//! "My levels" published with its proof run is found by search by a second player, fetched,
//! checked and cached, played by its replay to the goal (the run verified by the server), then
//! rated once; a level without a proof (or with an assisted or short run) is refused, and a
//! bad online level link is a clear message. The game's own code is driven (the proof shelf,
//! the Online levels list, the service on the online client, the cache), not the raw API.
//!
//! Needs the server binary beside the tests: `cargo build --release -p tether-server`.

use std::path::PathBuf;
use std::sync::Arc;

mod online_support;

use online_support::{fresh_dir, repo, TestServer};

use tether::app::input::{Action, ActionFrame};
use tether::app::screens::online_levels_cache::{level_sha256_hex, OnlineLevelCache};
use tether::app::screens::online_levels_client::ClientLevels;
use tether::app::screens::online_levels_list::{ListOutcome, Loading, OnlineLevelsList};
use tether::app::screens::online_levels_service::{
    LevelsOnline, LevelsReply, LevelsRequest, RequestId,
};
use tether::app::screens::publish_proof::{readiness, ProofShelf, Readiness};
use tether::editor::online_link::{parse_online_link, OnlineLinkError};
use tether::online::wire::SubmitBody;
use tether::online::{Identity, OnlineClient};
use tether::sim::{LevelDef, Replay, Tuning, World};

/// The harness's server with a data folder of this test's own, removed when dropped.
struct LevelsServer {
    server: TestServer,
    data_dir: PathBuf,
}

impl LevelsServer {
    fn start(name: &str) -> LevelsServer {
        let data_dir = fresh_dir(&format!("levels-{name}"));
        let server = TestServer::start(&data_dir, None);
        LevelsServer { server, data_dir }
    }

    fn base(&self) -> &str {
        &self.server.base
    }
}

impl Drop for LevelsServer {
    fn drop(&mut self) {
        self.server.stop();
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

fn tuning() -> Arc<Tuning> {
    let path = repo().join("assets/tuning.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    Arc::new(Tuning::from_ron(&text, "assets/tuning.ron").unwrap())
}

/// Waits for a request's answer (the HTTP layer's own timeouts end every request).
fn answer(levels: &mut dyn LevelsOnline, id: RequestId) -> Result<LevelsReply, String> {
    loop {
        if let Some(answer) = levels.poll(id) {
            return answer;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

fn ask(levels: &mut dyn LevelsOnline, request: LevelsRequest) -> Result<LevelsReply, String> {
    let id = levels.start(request);
    answer(levels, id)
}

/// A player with a name on the server.
fn player(server: &LevelsServer, seed: u8, name: &str) -> (OnlineClient, Identity) {
    let identity = Identity::from_seed([seed; 32]);
    let mut client = OnlineClient::new(server.base());
    let call = client.register(&identity, name);
    client.wait(call).expect("the player registers");
    (client, identity)
}

/// Level 1 under another name (a level of its own on the server) and its solution, which
/// finishes it as it finishes level 1.
fn authored_level() -> (String, Replay, u64) {
    let text = std::fs::read_to_string(repo().join("levels/01_first_swing.ron")).unwrap();
    let level = LevelDef::from_ron(&text, "01").unwrap();
    let text = text.replacen(&format!("\"{}\"", level.name), "\"Pendulum Published\"", 1);
    let solution =
        std::fs::read_to_string(repo().join("levels/solutions/01_first_swing.ron")).unwrap();
    let run = Replay::from_ron(&solution, "solution").unwrap();
    let mut world = World::from_level(
        LevelDef::from_ron(&text, "authored").unwrap(),
        tuning(),
        "authored",
    )
    .unwrap();
    let outcome = run.run(&mut world);
    assert!(
        outcome.goal_reached,
        "the solution finishes the renamed level"
    );
    (text, run, outcome.ticks)
}

#[test]
fn a_published_level_is_found_played_and_rated_by_a_second_player() {
    let server = LevelsServer::start("publish");
    let (author_client, author) = player(&server, 1, "Ada");
    let (mut racer_client, racer) = player(&server, 2, "Bo");
    let mut author_levels = ClientLevels::new(author_client, Some(author));
    let (text, run, ticks) = authored_level();

    // The author's test play finished it: the proof is kept with the text and Publish is ready.
    let proofs = ProofShelf::memory();
    assert_eq!(
        readiness(&text, proofs.load("pendulum")),
        Readiness::NotFinished
    );
    assert!(proofs.offer("pendulum", &text, ticks, &run).unwrap());
    let Readiness::Ready(proof) = readiness(&text, proofs.load("pendulum")) else {
        panic!("a finished level is ready to publish");
    };
    let published = ask(
        &mut author_levels,
        LevelsRequest::Publish {
            text: text.clone(),
            replay: proof.replay.clone(),
            ticks: proof.ticks,
        },
    );
    let hash = level_sha256_hex(&text);
    assert_eq!(published, Ok(LevelsReply::Published { hash: hash.clone() }));

    // The second player searches from the Online levels list and opens its row.
    let mut racer_levels = ClientLevels::new(OnlineClient::new(server.base()), Some(racer.clone()));
    let (mut list, first) = OnlineLevelsList::open();
    let page = ask(&mut racer_levels, LevelsRequest::Browse(first.clone()));
    assert!(matches!(page, Ok(LevelsReply::Page(_))), "{page:?}");
    list.selected = 1; // the search
    list.update(&ActionFrame::only_pressed(Action::MenuConfirm), &[]);
    let typed: Vec<char> = "pendulum\n".chars().collect();
    let ListOutcome::Fetch(query) = list.update(&ActionFrame::default(), &typed) else {
        panic!("Enter searches");
    };
    let Ok(LevelsReply::Page(rows)) = ask(&mut racer_levels, LevelsRequest::Browse(query.clone()))
    else {
        panic!("the search answers a page");
    };
    assert_eq!(rows.len(), 1, "found by search: {rows:?}");
    assert_eq!(rows[0].hash, hash);
    assert_eq!(rows[0].name, "Pendulum Published");
    assert_eq!(rows[0].author.as_deref(), Some("Ada"));
    assert_eq!(rows[0].author_ticks, ticks);
    list.show_page(&query, Loading::Loaded(rows));
    list.selected = 2; // its row
    assert_eq!(
        list.update(&ActionFrame::only_pressed(Action::MenuConfirm), &[]),
        ListOutcome::FetchDetail { hash: hash.clone() }
    );
    let Ok(LevelsReply::Detail(detail)) = ask(
        &mut racer_levels,
        LevelsRequest::Detail { hash: hash.clone() },
    ) else {
        panic!("its detail");
    };
    assert_eq!(detail.author_ticks, ticks);
    list.show_detail(&hash, Loading::Loaded(detail));
    assert_eq!(
        list.update(&ActionFrame::only_pressed(Action::MenuConfirm), &[]),
        ListOutcome::Play { hash: hash.clone() }
    );

    // Play: the text fetched, checked against its hash and the level checks, cached.
    let Ok(LevelsReply::Text(fetched)) = ask(
        &mut racer_levels,
        LevelsRequest::Text { hash: hash.clone() },
    ) else {
        panic!("its text");
    };
    let cache = OnlineLevelCache::memory();
    let level = cache
        .keep(&hash, &fetched, &tuning())
        .expect("the fetched level is kept");
    assert_eq!(cache.load(&hash).unwrap().as_deref(), Some(text.as_str()));
    let mut world = World::from_level(level, tuning(), "online").unwrap();
    let outcome = run.run(&mut world);
    assert!(
        outcome.goal_reached && outcome.ticks == ticks,
        "{outcome:?}"
    );

    // Rating before a verified finish is refused; after it, accepted once.
    let rate = || LevelsRequest::Rate {
        hash: hash.clone(),
        rating: 5,
        difficulty: 2,
    };
    let early = ask(&mut racer_levels, rate()).unwrap_err();
    assert!(early.contains("not_finished"), "{early}");
    let call = racer_client.open_session(&racer, &hash);
    let session = racer_client.wait(call).unwrap().session;
    let body = SubmitBody {
        session,
        level: hash.clone(),
        sim_version: tether::sim::SIM_VERSION,
        ticks,
        replay: run.to_ron(),
    };
    let call = racer_client.submit_run(&racer, &body);
    let run_id = racer_client.wait(call).unwrap().id;
    let verified = loop {
        let call = racer_client.run_status(run_id);
        let status = racer_client.wait(call).unwrap();
        if status.status != "pending" {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(verified.status, "verified", "{:?}", verified.reason);
    assert_eq!(ask(&mut racer_levels, rate()), Ok(LevelsReply::Rated));
    let again = ask(&mut racer_levels, rate()).unwrap_err();
    assert!(again.contains("already_rated"), "{again}");

    // The list shows the figures the play and the vote left. The author's upload run is a
    // verified finish on the board too, so two finishes; at equal ticks the earlier run (the
    // author's) holds the record.
    let Ok(LevelsReply::Detail(after)) = ask(
        &mut racer_levels,
        LevelsRequest::Detail { hash: hash.clone() },
    ) else {
        panic!("its detail again");
    };
    assert_eq!(after.rating, Some(5.0));
    assert_eq!(after.difficulty, Some(2.0));
    assert_eq!(after.finishes, 2);
    assert_eq!(
        after.record.as_ref().map(|r| (r.ticks, r.name.as_str())),
        Some((ticks, "Ada"))
    );
}

#[test]
fn levels_without_a_good_proof_are_refused() {
    let server = LevelsServer::start("refusals");
    let (client, author) = player(&server, 3, "Cy");
    let mut levels = ClientLevels::new(client, Some(author));
    let (text, run, ticks) = authored_level();

    // The game does not send an unproven or changed level: Publish says what is missing.
    let proofs = ProofShelf::memory();
    let missing = readiness(&text, proofs.load("p")).missing().unwrap();
    assert!(
        missing.contains("finish it in test play first"),
        "{missing}"
    );
    proofs.offer("p", &text, ticks, &run).unwrap();
    let edited = text.replacen("Pendulum Published", "Pendulum Edited", 1);
    let missing = readiness(&edited, proofs.load("p")).missing().unwrap();
    assert!(
        missing.contains("changed since your finishing run"),
        "{missing}"
    );

    // And the server refuses what the game would never send: a run that stops short, an
    // assisted run, no identity.
    let mut short = Replay::new("x");
    for frame in run.frames().take(ticks as usize / 2) {
        short.push(*frame);
    }
    let refused = ask(
        &mut levels,
        LevelsRequest::Publish {
            text: text.clone(),
            replay: short.to_ron(),
            ticks: short.tick_count(),
        },
    )
    .unwrap_err();
    assert!(refused.contains("no_author_clear"), "{refused}");
    let mut assisted = run.clone();
    assisted.assists.invincible = true;
    let refused = ask(
        &mut levels,
        LevelsRequest::Publish {
            text: text.clone(),
            replay: assisted.to_ron(),
            ticks,
        },
    )
    .unwrap_err();
    assert!(refused.contains("assisted_author_run"), "{refused}");
    let mut nameless = ClientLevels::new(OnlineClient::new(server.base()), None);
    let refused = ask(
        &mut nameless,
        LevelsRequest::Publish {
            text,
            replay: run.to_ron(),
            ticks,
        },
    )
    .unwrap_err();
    assert!(refused.contains("choose a name"), "{refused}");
}

#[test]
fn a_bad_online_link_is_a_clear_message() {
    assert_eq!(
        parse_online_link("#online=abc"),
        Err(OnlineLinkError::WrongLength { chars: 3 })
    );
    let err = parse_online_link(&format!("#online={}", "g".repeat(64))).unwrap_err();
    assert!(err.to_string().contains("\"g\" at character 1"), "{err}");

    // A well-formed link to a level the server does not have: its refusal, nothing cached.
    let server = LevelsServer::start("link");
    let mut levels = ClientLevels::new(OnlineClient::new(server.base()), None);
    let hash = parse_online_link(&format!("#online={}", "ab".repeat(32))).unwrap();
    let missing = ask(&mut levels, LevelsRequest::Text { hash: hash.clone() }).unwrap_err();
    assert!(missing.contains("not_found"), "{missing}");

    // A server answering another level's text under the hash: refused, not kept.
    let cache = OnlineLevelCache::memory();
    let campaign = std::fs::read_to_string(repo().join("levels/01_first_swing.ron")).unwrap();
    let err = cache.keep(&hash, &campaign, &tuning()).unwrap_err();
    assert!(err.to_string().contains("another level"), "{err}");
    assert!(cache.load(&hash).unwrap().is_none());
}
