//! No body can crash the server or make it answer with a server error: every endpoint gets
//! random bytes, truncated and mutated envelopes, and valid envelopes around hostile bodies.

mod common;

use common::*;
use serde_json::json;

/// A small deterministic generator (xorshift): the same cases on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    match rng.below(4) {
        0 => bytes.truncate(rng.below(bytes.len() + 1)),
        1 => {
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(bytes.len().max(1));
                if at < bytes.len() {
                    bytes[at] = rng.next() as u8;
                }
            }
        }
        2 => bytes = (0..rng.below(512)).map(|_| rng.next() as u8).collect(),
        _ => {
            let at = rng.below(bytes.len() + 1);
            let junk = ["{", "}", "\"", "\\u0000", "1e999", "[[[[[[[[", "null", "-1"];
            bytes.splice(at..at, junk[rng.below(junk.len())].bytes());
        }
    }
    bytes
}

#[test]
fn no_body_makes_any_endpoint_fail() {
    let data = fresh_data_dir("fuzz");
    let server = Server::start(&data, &[]);
    let (level, solution) = campaign_level("01_first_swing.ron");
    let ada = Player::new(1);
    server.register(&ada, "Ada");
    let session = server.session(&ada, &level);
    let endpoints = [
        ("/api/v1/players".to_string(), json!({ "name": "Fuzz" })),
        ("/api/v1/sessions".to_string(), json!({ "level": level })),
        (
            "/api/v1/runs".to_string(),
            json!({ "session": session, "level": level, "sim_version": tether_sim::SIM_VERSION, "ticks": 177, "replay": solution }),
        ),
        (
            "/api/v1/levels".to_string(),
            json!({ "text": read_repo_file("levels/03_chain.ron"), "replay": solution, "ticks": 177 }),
        ),
        (
            format!("/api/v1/levels/{level}/rating"),
            json!({ "rating": 3, "difficulty": 3 }),
        ),
        (
            "/api/v1/admin/hide".to_string(),
            json!({ "kind": "run", "id": "1" }),
        ),
    ];
    let mut rng = Rng(0x7e7e_5eed);
    let mut cases = 0;
    for (path, body) in &endpoints {
        let envelope = ada.envelope(&server.nonce(), &body.to_string()).to_string();
        for _ in 0..40 {
            // The envelope mangled, and a correctly signed envelope around a mangled body.
            let mangled_body =
                String::from_utf8_lossy(&mutate(&mut rng, &body.to_string())).into_owned();
            let signed = ada.envelope(&server.nonce(), &mangled_body).to_string();
            for raw in [mutate(&mut rng, &envelope), signed.into_bytes()] {
                let (status, answer) = server.post_raw(path, &raw);
                assert!(
                    (200..500).contains(&status),
                    "{path}: {status} {answer} for {:?}",
                    String::from_utf8_lossy(&raw)
                );
                cases += 1;
            }
        }
    }
    for path in [
        "/api/v1/levels?limit=-5&offset=99999999999",
        "/api/v1/levels?q=%00%27;--",
        "/api/v1/runs/abc",
        "/api/v1/runs/-1/replay",
        "/api/v1/levels/nope/board?limit=100000&assisted=maybe",
    ] {
        let (status, _) = server.get_text(path);
        assert!((200..500).contains(&status), "{path}: {status}");
    }
    assert_eq!(
        server.get("/api/v1/health").0,
        200,
        "the server is still up after {cases} cases"
    );
}
