//! Tether Online's API as calls the screens poll each frame (docs/online.md). A `Call<T>` is
//! one API request (a signed write is two: a nonce, then the envelope); `OnlineClient::poll`
//! moves it along and gives `Some(result)` once, when it ends.
//!
//! Every answer is parsed defensively: its size is capped before it is read, a refusal's
//! `{"error", "message"}` becomes `OnlineError::Refused`, and anything else that is not the
//! expected JSON is `OnlineError::Malformed`. Server text shown to the player is made printable
//! and shortened, so a hostile answer can neither crash nor flood the screen.

use std::fmt;

use miniserde::{Deserialize, Serialize};
use tether_online_proto::wire::{
    AroundAnswer, BoardAnswer, ErrorAnswer, Health, LevelInfo, LevelList, NonceAnswer,
    PlayerAnswer, PublishAnswer, PublishBody, RatingBody, RegisterBody, RunStatusAnswer,
    SessionAnswer, SessionBody, SubmitAnswer, SubmitBody,
};
use tether_online_proto::Identity;

use super::http::{shorten, Http, HttpFailure, Poll, Request, RequestId, Response};
use crate::sim::limits;

/// How long a JSON request may take, start to last byte.
pub const JSON_TIMEOUT_MS: u32 = 10_000;
/// Longest JSON answer read (a board page of 100 entries is about 20 KB).
pub const MAX_JSON_BYTES: u32 = 256 * 1024;
/// How long a replay or level download may take.
pub const DOWNLOAD_TIMEOUT_MS: u32 = 20_000;
/// Longest replay or level text read (the server's own limit for both is below this).
pub const MAX_DOWNLOAD_BYTES: u32 = 4 * 1024 * 1024;
/// Characters of server text shown at most.
const MAX_SHOWN_CHARS: usize = 160;

/// Why a call gave no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum OnlineError {
    /// The request had no answer.
    Http(HttpFailure),
    /// The server said no: its status, stable code and message (docs/online.md, "Refusals").
    Refused {
        status: u16,
        code: String,
        message: String,
    },
    /// The answer is not what the API answers (garbage, a proxy's page, a hostile server).
    Malformed { status: u16, problem: String },
}

impl OnlineError {
    /// The server's refusal code, if it refused.
    pub fn code(&self) -> Option<&str> {
        match self {
            OnlineError::Refused { code, .. } => Some(code),
            _ => None,
        }
    }

    /// True when trying again later may work (no answer, a busy or failing server).
    pub fn is_transient(&self) -> bool {
        match self {
            OnlineError::Http(HttpFailure::TooLarge { .. }) => false,
            OnlineError::Http(_) => true,
            OnlineError::Refused { status, .. } => *status == 429 || *status >= 500,
            OnlineError::Malformed { status, .. } => *status >= 500,
        }
    }
}

impl fmt::Display for OnlineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OnlineError::Http(failure) => write!(f, "{failure}"),
            OnlineError::Refused { message, .. } => write!(f, "{message}"),
            OnlineError::Malformed { status, problem } => {
                write!(
                    f,
                    "the server's answer makes no sense (HTTP {status}: {problem})"
                )
            }
        }
    }
}

/// Server text as it may be shown: printable, at most `MAX_SHOWN_CHARS` characters.
pub fn shown(text: &str) -> String {
    limits::printable(&shorten(text, MAX_SHOWN_CHARS))
}

/// What `GET /api/v1/levels` is asked for.
#[derive(Clone, Debug, Default)]
pub struct LevelQuery {
    /// newest (default), plays, rating, hardest, easiest.
    pub sort: Option<String>,
    /// Part of a level's or its author's name.
    pub search: Option<String>,
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

pub use super::medals::{MedalsAnswer, MEDAL_NAMES};

/// `POST /api/v1/levels/{hash}/rating`'s answer: the rated level (the rest is not shown).
#[derive(Deserialize)]
pub struct RatedAnswer {
    pub level: String,
}

type Parse<T> = fn(&[u8]) -> Result<T, String>;

/// One API call in flight. Poll it with `OnlineClient::poll` until it gives `Some`.
pub struct Call<T> {
    stage: Stage,
    parse: Parse<T>,
}

enum Stage {
    /// A signed write waiting for its nonce; the envelope is signed once the nonce is here.
    Nonce {
        request: RequestId,
        write: Box<SignedWrite>,
    },
    Answer {
        request: RequestId,
    },
    /// Reported (or failed to start): polling again says so.
    Ended,
}

/// A signed write's parts, kept until its nonce arrives (boxed: the key is large beside an id).
struct SignedWrite {
    signer: Identity,
    path: String,
    body: String,
}

/// The API of one server, over one `Http`.
pub struct OnlineClient {
    http: Http,
    /// `http://host:port`, without a trailing slash.
    server: String,
}

impl OnlineClient {
    /// A client of the server at `server` (`http://127.0.0.1:8787`; a trailing `/` is fine).
    pub fn new(server: &str) -> OnlineClient {
        OnlineClient {
            http: Http::new(),
            server: server.trim_end_matches('/').to_owned(),
        }
    }

    pub fn server(&self) -> &str {
        &self.server
    }

    /// Requests not yet reported.
    pub fn in_flight(&self) -> usize {
        self.http.in_flight()
    }

    pub fn health(&mut self) -> Call<Health> {
        self.get_json("/api/v1/health".into())
    }

    /// Registers `identity` under `name`: 409 `taken` when the name (or key) is.
    pub fn register(&mut self, identity: &Identity, name: &str) -> Call<PlayerAnswer> {
        let body = RegisterBody { name: name.into() };
        self.signed("/api/v1/players", identity, &body)
    }

    pub fn player(&mut self, key: &str) -> Call<PlayerAnswer> {
        self.get_json(format!("/api/v1/players/{}", path_part(key)))
    }

    pub fn medals(&mut self, key: &str) -> Call<MedalsAnswer> {
        let path = format!("/api/v1/players/{}/medals", path_part(key));
        self.get_parsed(path, parse_json::<MedalsAnswer>)
    }

    /// Opens a run session for the level with this hash (call it as the attempt starts).
    pub fn open_session(&mut self, identity: &Identity, level_hash: &str) -> Call<SessionAnswer> {
        let body = SessionBody {
            level: level_hash.into(),
        };
        self.signed("/api/v1/sessions", identity, &body)
    }

    pub fn submit_run(&mut self, identity: &Identity, run: &SubmitBody) -> Call<SubmitAnswer> {
        self.signed("/api/v1/runs", identity, run)
    }

    pub fn run_status(&mut self, run_id: i64) -> Call<RunStatusAnswer> {
        self.get_json(format!("/api/v1/runs/{run_id}"))
    }

    /// A verified run's replay (RON): a ghost.
    pub fn run_replay(&mut self, run_id: i64) -> Call<String> {
        self.get_text(format!("/api/v1/runs/{run_id}/replay"))
    }

    /// The board's first `limit` entries (unassisted runs).
    pub fn board(&mut self, level_hash: &str, limit: u32) -> Call<BoardAnswer> {
        self.get_json(format!(
            "/api/v1/levels/{}/board?limit={limit}",
            path_part(level_hash)
        ))
    }

    /// A player's place on the board and `around` entries either side; 404 `not_found` when
    /// they have no run on it.
    pub fn around(&mut self, level_hash: &str, key: &str, around: u32) -> Call<AroundAnswer> {
        self.get_json(format!(
            "/api/v1/levels/{}/board/{}?around={around}",
            path_part(level_hash),
            path_part(key)
        ))
    }

    pub fn levels(&mut self, query: &LevelQuery) -> Call<LevelList> {
        let mut pairs = Vec::new();
        if let Some(sort) = &query.sort {
            pairs.push(format!("sort={}", percent_encode(sort)));
        }
        if let Some(search) = &query.search {
            pairs.push(format!("q={}", percent_encode(search)));
        }
        if let Some(limit) = query.limit {
            pairs.push(format!("limit={limit}"));
        }
        if let Some(offset) = query.offset {
            pairs.push(format!("offset={offset}"));
        }
        let query = if pairs.is_empty() {
            String::new()
        } else {
            format!("?{}", pairs.join("&"))
        };
        self.get_json(format!("/api/v1/levels{query}"))
    }

    pub fn level(&mut self, level_hash: &str) -> Call<LevelInfo> {
        self.get_json(format!("/api/v1/levels/{}", path_part(level_hash)))
    }

    /// The level file's text, to play.
    pub fn level_text(&mut self, level_hash: &str) -> Call<String> {
        self.get_text(format!("/api/v1/levels/{}/text", path_part(level_hash)))
    }

    pub fn publish(&mut self, identity: &Identity, level: &PublishBody) -> Call<PublishAnswer> {
        self.signed("/api/v1/levels", identity, level)
    }

    pub fn rate(
        &mut self,
        identity: &Identity,
        level_hash: &str,
        rating: &RatingBody,
    ) -> Call<RatedAnswer> {
        let path = format!("/api/v1/levels/{}/rating", path_part(level_hash));
        self.signed(&path, identity, rating)
    }

    /// Moves the call along: `Some` once, when it ends.
    pub fn poll<T>(&mut self, call: &mut Call<T>) -> Option<Result<T, OnlineError>> {
        // Only the parse is per answer type: the rest is one function for every call, so the
        // browser's download carries it once rather than once per type.
        let response = self.advance(&mut call.stage)?;
        Some(response.and_then(|response| answer(response.status, &response.body, call.parse)))
    }

    /// Moves a call's requests along: `Some` once, with the final answer or why there is none.
    fn advance(&mut self, stage: &mut Stage) -> Option<Result<Response, OnlineError>> {
        let request = match stage {
            Stage::Nonce { request, .. } | Stage::Answer { request } => *request,
            Stage::Ended => return Some(Err(OnlineError::Http(HttpFailure::UnknownRequest))),
        };
        let response = match self.http.poll(request) {
            Poll::Pending => return None,
            Poll::Failed(failure) => {
                *stage = Stage::Ended;
                return Some(Err(OnlineError::Http(failure)));
            }
            Poll::Done(response) => response,
        };
        match std::mem::replace(stage, Stage::Ended) {
            Stage::Nonce { write, .. } => {
                let SignedWrite { signer, path, body } = *write;
                let nonce = match answer::<NonceAnswer>(response.status, &response.body, parse_json)
                {
                    Ok(nonce) => nonce.nonce,
                    Err(err) => return Some(Err(err)),
                };
                let envelope = signer.envelope(&nonce, &body);
                let request = self.http.start(Request::post(
                    self.url(&path),
                    envelope,
                    JSON_TIMEOUT_MS,
                    MAX_JSON_BYTES,
                ));
                *stage = Stage::Answer { request };
                None
            }
            Stage::Answer { .. } => Some(Ok(response)),
            Stage::Ended => unreachable!("an ended call returned above"),
        }
    }

    /// Polls until the call ends, sleeping between polls: for tests and window-less tools,
    /// never the game's frame loop.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn wait<T>(&mut self, mut call: Call<T>) -> Result<T, OnlineError> {
        loop {
            if let Some(result) = self.poll(&mut call) {
                return result;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server)
    }

    fn get_json<T: Deserialize>(&mut self, path: String) -> Call<T> {
        self.get_parsed(path, parse_json::<T>)
    }

    fn get_parsed<T>(&mut self, path: String, parse: Parse<T>) -> Call<T> {
        let request = Request::get(self.url(&path), JSON_TIMEOUT_MS, MAX_JSON_BYTES);
        Call {
            stage: Stage::Answer {
                request: self.http.start(request),
            },
            parse,
        }
    }

    fn get_text(&mut self, path: String) -> Call<String> {
        let request = Request::get(self.url(&path), DOWNLOAD_TIMEOUT_MS, MAX_DOWNLOAD_BYTES);
        Call {
            stage: Stage::Answer {
                request: self.http.start(request),
            },
            parse: parse_text,
        }
    }

    fn signed<B: Serialize, T: Deserialize>(
        &mut self,
        path: &str,
        identity: &Identity,
        body: &B,
    ) -> Call<T> {
        let body = tether_online_proto::json::to_string(body);
        let nonce = Request::get(self.url("/api/v1/nonce"), JSON_TIMEOUT_MS, MAX_JSON_BYTES);
        Call {
            stage: Stage::Nonce {
                request: self.http.start(nonce),
                write: Box::new(SignedWrite {
                    signer: identity.clone(),
                    path: path.to_owned(),
                    body,
                }),
            },
            parse: parse_json::<T>,
        }
    }
}

/// A 2xx answer parsed by `parse`; anything else as the refusal it carries.
fn answer<T>(status: u16, body: &[u8], parse: Parse<T>) -> Result<T, OnlineError> {
    if (200..300).contains(&status) {
        return parse(body).map_err(|problem| OnlineError::Malformed { status, problem });
    }
    Err(refusal(status, body))
}

/// A non-2xx answer as the refusal it carries (or as garbage).
fn refusal(status: u16, body: &[u8]) -> OnlineError {
    match parse_json::<ErrorAnswer>(body) {
        Ok(refusal) => OnlineError::Refused {
            status,
            code: shown(&refusal.error),
            message: shown(&refusal.message),
        },
        Err(_) if status == 413 => OnlineError::Refused {
            status,
            code: "too_large".into(),
            message: "the server refused a request this large".into(),
        },
        Err(_) => OnlineError::Malformed {
            status,
            problem: "not an answer of Tether Online".into(),
        },
    }
}

/// The answer's JSON as `T`, through miniserde: one parser for every type (serde_json's is
/// generated per type, which the browser's download paid for once per answer type). Its error
/// names no field or position, only that the JSON is not a `T`.
fn parse_json<T: Deserialize>(body: &[u8]) -> Result<T, String> {
    // Generic only in the call to miniserde: one copy of this is made per answer type.
    miniserde::json::from_str(json_text(body)?).map_err(not_the_answer)
}

/// The answer as text for the JSON reader (once for every answer type).
#[inline(never)]
fn json_text(body: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(body).map_err(|_| "the answer is not UTF-8 text".to_owned())
}

/// Why an answer was refused by the JSON reader (once for every answer type).
#[inline(never)]
fn not_the_answer(_: miniserde::Error) -> String {
    "not the JSON this request answers".to_owned()
}

fn parse_text(body: &[u8]) -> Result<String, String> {
    String::from_utf8(body.to_vec()).map_err(|_| "the download is not UTF-8 text".into())
}

/// An id in a URL path: only hex ids are ever sent, so anything else is replaced to keep the
/// path one segment.
fn path_part(id: &str) -> String {
    id.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// `text` as a URL query value.
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_and_garbage_become_errors_not_panics() {
        let refused = answer::<Health>(
            409,
            br#"{"error":"taken","message":"name taken"}"#,
            parse_json,
        );
        assert_eq!(refused.unwrap_err().code(), Some("taken"));
        let garbage = answer::<Health>(200, b"\xff\x00<html>", parse_json);
        assert!(matches!(
            garbage,
            Err(OnlineError::Malformed { status: 200, .. })
        ));
        let proxy = answer::<Health>(502, b"<html>Bad gateway</html>", parse_json);
        assert!(proxy.as_ref().unwrap_err().is_transient(), "{proxy:?}");
        let hostile = format!(
            r#"{{"error":"x","message":"{}\u202e"}}"#,
            "A".repeat(10_000)
        );
        let shown_text = answer::<Health>(400, hostile.as_bytes(), parse_json)
            .unwrap_err()
            .to_string();
        assert!(
            shown_text.chars().count() < MAX_SHOWN_CHARS + 20,
            "{}",
            shown_text.len()
        );
        assert!(!shown_text.contains('\u{202e}'));
    }

    #[test]
    fn the_reader_refuses_what_is_not_the_answer_and_never_panics() {
        let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        let refused: [&[u8]; 9] = [
            b"",
            b"\xff\xfe{\"ok\":true,\"sim_version\":3}",
            br#"{"ok":true,"sim_version":"3"}"#,
            br#"{"ok":true,"sim_version":4294967296}"#,
            br#"{"ok":true,"sim_version":1e400}"#,
            br#"{"ok":true,"sim_version":3"#,
            br#"{"ok":true,"sim_version":3} trailing"#,
            br#"{"ok":true,"sim_version":3,"x":"\ud800"}"#,
            deep.as_bytes(),
        ];
        for body in refused {
            let problem = parse_json::<Health>(body).expect_err("not a health answer");
            assert!(!problem.is_empty());
        }
        let kept = parse_json::<Health>(br#"{"sim_version":3,"new":[{"a":null}],"ok":true}"#);
        assert_eq!(kept.map(|h| h.sim_version), Ok(3));
        let medals = parse_json::<MedalsAnswer>(
            br#"{"counts":{"gold":2,"silver":-1,"author":"x"},"medals":[{"level":"h","medal":"gold"},7]}"#,
        )
        .unwrap();
        assert_eq!(medals.counts, [0, 2, 0, 0]);
        assert_eq!(
            medals.medals,
            [
                ("h".to_owned(), "gold".to_owned()),
                (String::new(), String::new())
            ]
        );
        assert!(parse_json::<MedalsAnswer>(b"[1,2").is_err());
        // Odd containers anywhere inside are read past and leave nothing behind; an answer
        // that is not an object at all is refused.
        let odd = parse_json::<MedalsAnswer>(
            br#"{"counts":[1,{"gold":3}],"medals":{"level":"h"},"x":[{"counts":{"gold":4}}],
                "z":{"medals":[{"level":"q"}]}}"#,
        )
        .unwrap();
        assert_eq!((odd.counts, odd.medals.len()), ([0; 4], 0));
        let nested = parse_json::<MedalsAnswer>(
            br#"{"medals":[{"level":{"level":"x"},"medal":["gold"]},{"medal":"silver"}],
                "counts":{"bronze":5,"bronze":6}}"#,
        )
        .unwrap();
        assert_eq!(nested.counts, [0, 0, 0, 6]);
        assert_eq!(
            nested.medals,
            [
                (String::new(), String::new()),
                (String::new(), "silver".to_owned())
            ]
        );
        assert!(parse_json::<MedalsAnswer>(b"[1,2]").is_err());
        let deep = format!(
            "{{\"medals\":{}{}}}",
            "[".repeat(50_000),
            "]".repeat(50_000)
        );
        assert!(parse_json::<MedalsAnswer>(deep.as_bytes()).is_ok());
    }

    #[test]
    fn queries_and_paths_stay_in_their_place() {
        assert_eq!(percent_encode("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
        assert_eq!(path_part("../x?y"), "___x_y");
    }
}
