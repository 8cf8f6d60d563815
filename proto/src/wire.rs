//! The JSON bodies of Tether Online's API (docs/online.md, "Endpoints"): what the game sends
//! (`*Body`, serialized into a signed envelope's `body`, parsed by the server) and what the
//! server answers (written by the server, read back by the game). Answers are parsed leniently
//! about extra fields (a newer server may add some, and the server adds some the game does not
//! read) and strictly about the ones read: a missing or mistyped field is an error, never a
//! default.
//!
//! Each type derives two JSON codecs: miniserde's, always (the game reads and writes with it:
//! one non-generic parser instead of serde_json's code per type, which cost the browser's
//! download tens of KB), and serde's with the feature `serde` (the server's). The two give the
//! same bytes for what the game sends and the same values for what it reads; proto's tests
//! check both over the same fixtures (tests/codecs.rs).

use miniserde::{Deserialize, Serialize};

/// `{"error", "message"}`: every refusal's body.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ErrorAnswer {
    pub error: String,
    pub message: String,
}

/// `GET /api/v1/health`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Health {
    pub ok: bool,
    pub sim_version: u32,
}

/// `GET /api/v1/nonce`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NonceAnswer {
    pub nonce: String,
    pub expires_in_ms: u64,
}

/// `POST /api/v1/players` (signed).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RegisterBody {
    pub name: String,
}

/// `POST /api/v1/players`' and `GET /api/v1/players/{key}`'s answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerAnswer {
    pub key: String,
    pub name: String,
}

/// `POST /api/v1/sessions` (signed): taken when an attempt starts.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SessionBody {
    /// The level's hex SHA-256.
    pub level: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SessionAnswer {
    pub session: String,
    pub started_ms: i64,
}

/// `POST /api/v1/runs` (signed).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SubmitBody {
    pub session: String,
    pub level: String,
    pub sim_version: u32,
    pub ticks: u64,
    /// The run's `tether_sim::Replay` RON.
    pub replay: String,
}

/// The 202 answer to a submission.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SubmitAnswer {
    pub id: i64,
    pub status: String,
    pub flagged: bool,
}

/// `GET /api/v1/runs/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RunStatusAnswer {
    pub id: i64,
    /// `pending`, `verified` or `refused`.
    pub status: String,
    /// Why it was refused.
    pub reason: Option<String>,
    pub ticks: i64,
    pub flagged: bool,
    pub level: String,
    pub player: String,
    pub assisted: bool,
}

/// One line of a board.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoardEntry {
    pub rank: i64,
    /// The player's key.
    pub player: String,
    pub name: String,
    pub ticks: i64,
    /// The run's id: its replay is the ghost.
    pub run: i64,
}

/// `GET /api/v1/levels/{hash}/board`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoardAnswer {
    pub entries: Vec<BoardEntry>,
}

/// `GET /api/v1/levels/{hash}/board/{key}`: a player's place.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AroundAnswer {
    pub rank: i64,
    /// Players on the board.
    pub of: i64,
    /// The share of the board at or ahead of this player: 100 for last place.
    pub top_percent: f64,
    pub ticks: i64,
    pub run: i64,
    pub around: Vec<BoardEntry>,
}

/// A level as `GET /api/v1/levels` lists it and `GET /api/v1/levels/{hash}` describes it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LevelInfo {
    pub hash: String,
    pub name: String,
    pub author: Option<String>,
    pub campaign: bool,
    pub plays: i64,
    pub finishes: i64,
    pub clear_rate: Option<f64>,
    pub author_ticks: i64,
    pub rating: Option<f64>,
    pub difficulty: Option<f64>,
    pub created_ms: i64,
    /// Only in `GET /api/v1/levels/{hash}` (null in the list: miniserde's derive, which
    /// shares these types, takes no `skip_serializing_if`).
    pub finishers: Option<i64>,
    pub record: Option<LevelRecord>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LevelRecord {
    pub run: i64,
    pub ticks: i64,
    pub name: String,
}

/// `GET /api/v1/levels`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LevelList {
    pub levels: Vec<LevelInfo>,
}

/// `POST /api/v1/levels` (signed): a level with its author's finishing run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PublishBody {
    pub text: String,
    pub replay: String,
    pub ticks: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PublishAnswer {
    pub hash: String,
    pub name: String,
    pub author_ticks: i64,
}

/// `POST /api/v1/levels/{hash}/rating` (signed): 1-5 each.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RatingBody {
    pub rating: u8,
    pub difficulty: u8,
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn answers_need_their_fields_and_tolerate_new_ones() {
        let around: AroundAnswer = serde_json::from_str(
            r#"{"level":"x","player":"y","ticks":5,"run":2,"rank":1,"of":1,"top_percent":100.0,
                "around":[{"rank":1,"player":"y","name":"Ada","ticks":5,"run":2}],"new":1}"#,
        )
        .unwrap();
        assert_eq!(around.around[0].name, "Ada");
        assert!(serde_json::from_str::<AroundAnswer>(r#"{"rank":1}"#).is_err());
        assert!(serde_json::from_str::<BoardAnswer>(r#"{"entries":[{"rank":"1"}]}"#).is_err());
    }
}
