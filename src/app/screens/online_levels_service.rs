//! What the Online levels screens ask of the service and what they get back, as plain data, and
//! the one interface they poll for it (`LevelsOnline`). The screens never wait: they start a
//! request and look for its answer each frame. The game's online client answers it; a fixture
//! (`FixtureLevels`, `tether --online-fixture`) answers it from a few campaign levels with made-up
//! figures, so the screens can be seen and tested without a server, and `NoService` answers
//! every request with why there is none.

use serde::Deserialize;

use crate::sim::limits;

/// Levels on one page of the list (the service gives at most 50).
pub const LEVELS_PER_PAGE: usize = 8;
/// Longest search text the service takes, in characters.
pub const MAX_SEARCH_CHARS: usize = 48;

/// The list's orders: the service's `sort` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SortTab {
    #[default]
    Newest,
    MostPlayed,
    BestRated,
    Hardest,
    Easiest,
}

impl SortTab {
    pub const ALL: [SortTab; 5] = [
        SortTab::Newest,
        SortTab::MostPlayed,
        SortTab::BestRated,
        SortTab::Hardest,
        SortTab::Easiest,
    ];

    /// The `sort` query value of `GET /api/v1/levels`.
    pub fn query_value(self) -> &'static str {
        match self {
            SortTab::Newest => "newest",
            SortTab::MostPlayed => "plays",
            SortTab::BestRated => "rating",
            SortTab::Hardest => "hardest",
            SortTab::Easiest => "easiest",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SortTab::Newest => "Newest",
            SortTab::MostPlayed => "Most played",
            SortTab::BestRated => "Best rated",
            SortTab::Hardest => "Hardest",
            SortTab::Easiest => "Easiest",
        }
    }
}

/// One page of the list: its order, search text and page number (from 0).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BrowseQuery {
    pub sort: SortTab,
    pub search: String,
    pub page: usize,
}

impl BrowseQuery {
    /// The query string of `GET /api/v1/levels` (the search percent-encoded).
    pub fn to_query_string(&self) -> String {
        let mut query = format!(
            "sort={}&limit={LEVELS_PER_PAGE}&offset={}",
            self.sort.query_value(),
            self.page * LEVELS_PER_PAGE
        );
        if !self.search.is_empty() {
            query += "&q=";
            query += &percent_encode(&self.search);
        }
        query
    }
}

/// Everything but unreserved characters as `%XX` (UTF-8 bytes).
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out += &format!("%{byte:02X}");
        }
    }
    out
}

/// The best run on a level: `record` of `GET /api/v1/levels/{hash}`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LevelRecord {
    pub run: i64,
    pub ticks: u64,
    pub name: String,
}

/// One level as the list and its detail view show it (the fields of the service's level JSON;
/// the list's rows have no `record` or `finishers`, the detail has both).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LevelSummary {
    /// Hex SHA-256 of the level's text: how the service and the cache name it.
    pub hash: String,
    pub name: String,
    /// None: the author hid or has no name.
    #[serde(default)]
    pub author: Option<String>,
    #[serde(default)]
    pub plays: u64,
    #[serde(default)]
    pub finishes: u64,
    /// Finishes per play, 0 to 1 (none before anyone played it).
    #[serde(default)]
    pub clear_rate: Option<f64>,
    pub author_ticks: u64,
    /// Mean rating, 1 to 5 (none before anyone rated it).
    #[serde(default)]
    pub rating: Option<f64>,
    /// Mean difficulty vote, 1 to 5.
    #[serde(default)]
    pub difficulty: Option<f64>,
    #[serde(default)]
    pub record: Option<LevelRecord>,
}

impl LevelSummary {
    /// The level's name as text safe to draw (the service's strings are anyone's).
    pub fn shown_name(&self) -> String {
        limits::printable(&self.name)
    }

    pub fn shown_author(&self) -> String {
        self.author
            .as_deref()
            .map_or_else(|| "unknown".to_owned(), limits::printable)
    }
}

/// A request a screen starts.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelsRequest {
    Browse(BrowseQuery),
    /// One level's figures and record.
    Detail {
        hash: String,
    },
    /// One level's file.
    Text {
        hash: String,
    },
    /// One of "My levels" with its author's finishing run.
    Publish {
        text: String,
        replay: String,
        ticks: u64,
    },
    /// A finished level's rating and difficulty vote, 1 to 5 each.
    Rate {
        hash: String,
        rating: u8,
        difficulty: u8,
    },
}

/// What a request got.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelsReply {
    Page(Vec<LevelSummary>),
    Detail(LevelSummary),
    Text(String),
    /// The hash the published level is known by.
    Published {
        hash: String,
    },
    Rated,
}

impl LevelsReply {
    /// What the answer is, for a message when it answers another request (said by hand: a
    /// derived `Debug` of every reply pulled its formatting code into the browser's download).
    fn what(&self) -> &'static str {
        match self {
            LevelsReply::Page(_) => "a page of levels",
            LevelsReply::Detail(_) => "a level's details",
            LevelsReply::Text(_) => "a level's text",
            LevelsReply::Published { .. } => "a published level's hash",
            LevelsReply::Rated => "a rating kept",
        }
    }

    /// The message for this answer arriving where another was asked for: one function for
    /// every screen (each `format!` in place was its own code).
    pub fn unexpected(&self) -> String {
        format!("unexpected answer: {}", self.what())
    }
}

/// Which request an answer belongs to.
pub type RequestId = u64;

/// The service as the screens see it: start a request, poll for its answer (once: a polled
/// answer is gone). A failure is a message for the screen, naming the cause.
pub trait LevelsOnline {
    fn start(&mut self, request: LevelsRequest) -> RequestId;
    /// The answer, once it is in (`None` while it is on its way).
    fn poll(&mut self, id: RequestId) -> Option<Result<LevelsReply, String>>;
}

/// A build or a session without the online service: every request says why.
pub struct NoService {
    pub why: String,
    next_id: RequestId,
    pending: Vec<RequestId>,
}

impl NoService {
    pub fn new(why: impl Into<String>) -> NoService {
        NoService {
            why: why.into(),
            next_id: 0,
            pending: Vec::new(),
        }
    }
}

impl LevelsOnline for NoService {
    fn start(&mut self, _request: LevelsRequest) -> RequestId {
        self.next_id += 1;
        self.pending.push(self.next_id);
        self.next_id
    }

    fn poll(&mut self, id: RequestId) -> Option<Result<LevelsReply, String>> {
        let at = self.pending.iter().position(|&p| p == id)?;
        self.pending.remove(at);
        Some(Err(self.why.clone()))
    }
}
