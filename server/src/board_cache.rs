//! The board cache: the exact JSON bytes of recent board answers (a board's top page, a
//! player's place on it), so the hottest reads need no database.
//!
//! Exact in this process: every change this process makes to a board (a verified run that
//! changes a best, a hidden run, level or player) removes that level's answers right after its
//! transaction commits, and an answer read while its level was removed is not stored (it may
//! have been read before the change). A verdict's level is not served from the cache at all
//! while the verdict is written (`begin_change`): the run's status shows as soon as it
//! commits, and a client who reads it and then the board must see the new time. Bounded for
//! changes made elsewhere (another HTTP server on the
//! same PostgreSQL, a `tether-server worker`, `seed`): an answer is served for at most `ttl`
//! after its database read began, so a reader sees another process's change at most `ttl` late.
//! Bounded in memory: at most `MAX_ANSWERS_PER_LEVEL` answers per level, and the whole cache
//! weighs at most `capacity_bytes` (quick_cache evicts the least useful levels past that).
//!
//! Two things keep the hot answers out of the database (each miss waits for a pooled
//! connection on a database that shares the machine's cores: docs/online.md, "Load"):
//! - A new best updates the level's cached top pages in place (`record_new_best`) rather than
//!   clearing them: a page from rank 1 is exactly the old page with the player's entry moved
//!   up, which is what the database would answer. Places and deeper pages are cleared (every
//!   rank behind the new time may move).
//! - Refresh ahead: the first request for an answer past half its TTL is told to read it
//!   again (`Lookup::RefreshDue`) while it and everyone else are still served the cached
//!   bytes, so an answer asked for at least every half TTL never expires into a miss. No
//!   answer is served older than the TTL either way.

use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use quick_cache::sync::Cache;
use quick_cache::Weighter;
use serde::Serialize;
use tether_online_proto::wire::{BoardAnswer, BoardEntry};

/// Most answers kept for one level (its top pages, players' places): past this the oldest go.
pub const MAX_ANSWERS_PER_LEVEL: usize = 64;
/// What one cached answer costs beyond its bytes (key text, timestamps, the map's own slot).
const ANSWER_OVERHEAD_BYTES: u64 = 192;

/// One of a level's boards: its simulation version, and assisted runs or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub sim_version: i64,
    pub assisted: bool,
}

/// A page of a board's top runs, as asked for (`limit` and `offset` before clamping).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TopPage {
    pub board: Board,
    pub limit: i64,
    pub offset: i64,
}

/// A player's place on a board and `around` entries either side (`player` in lowercase).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlaceOf {
    pub board: Board,
    pub player: String,
    pub around: i64,
}

/// Which answer of a level's boards: everything in a board request but the level. The request
/// handler builds it once; the read that fills the cache is given the same value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Top(TopPage),
    Place(PlaceOf),
}

impl Variant {
    /// Whether this answer is about `board` of its level.
    fn is_on_board(&self, board: Board) -> bool {
        let (Variant::Top(TopPage { board: own, .. }) | Variant::Place(PlaceOf { board: own, .. })) =
            self;
        *own == board
    }
}

/// `GET /api/v1/levels/{hash}/board`'s answer: the game's `BoardAnswer` and which board it is.
/// Written here, and only here, for both a fresh read and an in-place update, so the two are
/// the same bytes.
#[derive(Serialize)]
struct TopAnswer<'a> {
    level: &'a str,
    assisted: bool,
    #[serde(flatten)]
    board: &'a BoardAnswer,
}

/// The JSON of a board's top answer.
pub fn top_json(level: &str, assisted: bool, board: &BoardAnswer) -> Result<Bytes, String> {
    let answer = TopAnswer {
        level,
        assisted,
        board,
    };
    serde_json::to_vec(&answer)
        .map(Bytes::from)
        .map_err(|err| format!("cannot write the answer: {err}"))
}

/// A top page that starts at rank 1, as read: what an in-place update rewrites.
#[derive(Clone)]
pub struct FirstPage {
    pub board: Arc<BoardAnswer>,
    /// The most entries the page holds (its request's limit, as clamped for the query).
    pub page_size: usize,
}

/// A verified run that became its player's best on a board (`offer_best` changed its row).
pub struct NewBest {
    pub sim_version: i64,
    pub assisted: bool,
    /// The player's entry as the board shows it (its rank is not read).
    pub entry: BoardEntry,
}

#[derive(Clone)]
struct Answer {
    variant: Variant,
    json: Bytes,
    /// When the database read this answer came from began: its age is counted from there.
    read_at: Instant,
    /// Set for a top page from rank 1, so a new best can update it in place.
    first_page: Option<FirstPage>,
    /// Set once a request has been told to refresh this answer (one refresh per answer).
    refreshing: Arc<AtomicBool>,
}

/// What the cache holds for a request.
pub enum Lookup {
    /// Serve these bytes.
    Fresh(Bytes),
    /// Serve these bytes, and read the answer again (this caller alone was told so).
    RefreshDue(Bytes),
    Missing,
}

/// One level's cached answers. Replaced whole on every store (copy on write), so a reader
/// never locks.
#[derive(Clone, Default)]
struct LevelAnswers {
    answers: Arc<Vec<Answer>>,
}

#[derive(Clone)]
struct LevelWeight;

impl Weighter<String, LevelAnswers> for LevelWeight {
    fn weight(&self, level: &String, value: &LevelAnswers) -> u64 {
        let answers: u64 = value
            .answers
            .iter()
            .map(|a| a.json.len() as u64 + ANSWER_OVERHEAD_BYTES)
            .sum();
        level.len() as u64 + answers + 1
    }
}

/// Invalidation counters, one per stripe of levels (a level's stripe is its hash modulo this).
/// Per stripe rather than one for all: under a stream of verified runs a global counter would
/// move during nearly every slow read and nothing would be stored.
const INVALIDATION_STRIPES: usize = 1024;

/// Taken before an answer's database read; storing the answer needs its level's invalidation
/// count unchanged since.
pub struct Ticket {
    stripe: usize,
    invalidations: u64,
    read_at: Instant,
}

/// A change to a level's boards being written (`BoardCache::begin_change`); dropping it lets
/// the level be served from the cache again.
pub struct ChangeInFlight<'a> {
    counter: &'a AtomicU32,
}

impl Drop for ChangeInFlight<'_> {
    fn drop(&mut self) {
        self.counter.fetch_sub(1, Ordering::AcqRel);
    }
}

pub struct BoardCache {
    levels: Cache<String, LevelAnswers, LevelWeight>,
    /// Counts removals per stripe of levels: a ticket taken before one cannot store.
    invalidations: Box<[AtomicU64]>,
    /// Changes on their way to the database per stripe of levels (`begin_change`): while
    /// one is held, the stripe's levels are not served from the cache.
    changes_in_flight: Box<[AtomicU32]>,
    /// Fixed per cache, so a level keeps its stripe.
    stripe_hasher: RandomState,
    /// Serialises stores and removals (a store checks the count and inserts in one step);
    /// readers never take it.
    writing: Mutex<()>,
    ttl: Duration,
}

impl BoardCache {
    /// A cache serving answers for `ttl` (zero: caches nothing) in at most `capacity_bytes`.
    pub fn new(ttl: Duration, capacity_bytes: u64) -> BoardCache {
        let typical_level_bytes = 8 * 1024;
        let estimated_levels = (capacity_bytes / typical_level_bytes).max(16) as usize;
        BoardCache {
            levels: Cache::with_weighter(estimated_levels, capacity_bytes, LevelWeight),
            invalidations: (0..INVALIDATION_STRIPES)
                .map(|_| AtomicU64::new(0))
                .collect(),
            changes_in_flight: (0..INVALIDATION_STRIPES)
                .map(|_| AtomicU32::new(0))
                .collect(),
            stripe_hasher: RandomState::new(),
            writing: Mutex::new(()),
            ttl,
        }
    }

    /// The cached answer for `level`'s `variant`, if one is younger than the TTL.
    #[cfg(test)]
    pub fn get(&self, level: &str, variant: &Variant) -> Option<Bytes> {
        match self.lookup(level, variant) {
            Lookup::Fresh(json) | Lookup::RefreshDue(json) => Some(json),
            Lookup::Missing => None,
        }
    }

    /// The cached answer for `level`'s `variant` if one is younger than the TTL, and whether
    /// the caller should read it again (past half the TTL; one caller per answer).
    pub fn lookup(&self, level: &str, variant: &Variant) -> Lookup {
        if self.changes_in_flight[self.stripe(level)].load(Ordering::Acquire) > 0 {
            return Lookup::Missing;
        }
        let Some(cached) = self.levels.get(level) else {
            return Lookup::Missing;
        };
        let Some(answer) = cached.answers.iter().find(|a| &a.variant == variant) else {
            return Lookup::Missing;
        };
        let age = answer.read_at.elapsed();
        if age >= self.ttl {
            Lookup::Missing
        } else if age >= self.ttl / 2 && !answer.refreshing.swap(true, Ordering::AcqRel) {
            Lookup::RefreshDue(answer.json.clone())
        } else {
            Lookup::Fresh(answer.json.clone())
        }
    }

    fn stripe(&self, level: &str) -> usize {
        self.stripe_hasher.hash_one(level) as usize % INVALIDATION_STRIPES
    }

    /// Call before writing a change to `level`'s boards whose commit others can see before
    /// this cache hears of it (a verdict: the run's status is read from the database), and
    /// hold the guard until `record_new_best` or `invalidate` has run. Meanwhile the level is
    /// read from the database, so no reader who has seen the commit is served the page from
    /// before it.
    pub fn begin_change(&self, level: &str) -> ChangeInFlight<'_> {
        let counter = &self.changes_in_flight[self.stripe(level)];
        counter.fetch_add(1, Ordering::AcqRel);
        ChangeInFlight { counter }
    }

    /// Take this before reading an answer about `level` from the database.
    pub fn ticket(&self, level: &str) -> Ticket {
        let stripe = self.stripe(level);
        Ticket {
            stripe,
            invalidations: self.invalidations[stripe].load(Ordering::Acquire),
            read_at: Instant::now(),
        }
    }

    /// Keeps an answer read under `ticket`, unless a removal ran since (then it may be stale).
    pub fn store(&self, level: &str, variant: Variant, json: Bytes, ticket: Ticket) {
        self.store_answer(level, variant, json, None, ticket);
    }

    /// As `store`, for a top page from rank 1, which a new best then updates in place.
    pub fn store_first_page(
        &self,
        level: &str,
        variant: Variant,
        json: Bytes,
        page: FirstPage,
        ticket: Ticket,
    ) {
        self.store_answer(level, variant, json, Some(page), ticket);
    }

    fn store_answer(
        &self,
        level: &str,
        variant: Variant,
        json: Bytes,
        first_page: Option<FirstPage>,
        ticket: Ticket,
    ) {
        if self.ttl.is_zero() {
            return;
        }
        let _writing = self.writing.lock().expect("not poisoned");
        let stripe = self.stripe(level);
        if stripe != ticket.stripe
            || self.invalidations[stripe].load(Ordering::Acquire) != ticket.invalidations
        {
            return;
        }
        let mut answers: Vec<Answer> = self
            .levels
            .get(level)
            .map(|cached| {
                cached
                    .answers
                    .iter()
                    .filter(|a| a.variant != variant && a.read_at.elapsed() < self.ttl)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        if answers.len() >= MAX_ANSWERS_PER_LEVEL {
            answers.remove(0);
        }
        answers.push(Answer {
            variant,
            json,
            read_at: ticket.read_at,
            first_page,
            refreshing: Arc::default(),
        });
        let answers = Arc::new(answers);
        self.levels
            .insert(level.to_string(), LevelAnswers { answers });
    }

    /// Forgets every answer about `levels`' boards. Call it after the change has committed.
    pub fn invalidate<'a>(&self, levels: impl IntoIterator<Item = &'a str>) {
        let _writing = self.writing.lock().expect("not poisoned");
        for level in levels {
            self.invalidations[self.stripe(level)].fetch_add(1, Ordering::AcqRel);
            self.levels.remove(level);
        }
    }

    /// Applies a committed new best to `level`'s cached answers: its board's top pages from
    /// rank 1 are rewritten as the database would now answer them, its places and deeper pages
    /// are removed, other boards' answers are kept. An answer being read meanwhile is not
    /// stored (as after `invalidate`): it may have been read before the change.
    pub fn record_new_best(&self, level: &str, best: &NewBest) {
        let _writing = self.writing.lock().expect("not poisoned");
        self.invalidations[self.stripe(level)].fetch_add(1, Ordering::AcqRel);
        let Some(cached) = self.levels.get(level) else {
            return;
        };
        let answers: Vec<Answer> = cached
            .answers
            .iter()
            .filter_map(|answer| {
                if !answer.variant.is_on_board(Board {
                    sim_version: best.sim_version,
                    assisted: best.assisted,
                }) {
                    return Some(answer.clone());
                }
                let page = answer.first_page.as_ref()?;
                let Some(entries) =
                    page_with_new_best(&page.board.entries, page.page_size, &best.entry)
                else {
                    return Some(answer.clone()); // the page does not change
                };
                let board = Arc::new(BoardAnswer { entries });
                let json = top_json(level, best.assisted, &board).ok()?;
                Some(Answer {
                    json,
                    first_page: Some(FirstPage {
                        board,
                        page_size: page.page_size,
                    }),
                    refreshing: Arc::default(),
                    ..answer.clone()
                })
            })
            .collect();
        self.levels.insert(
            level.to_string(),
            LevelAnswers {
                answers: Arc::new(answers),
            },
        );
    }

    /// The bytes the cache holds, by its own weighing.
    #[cfg(test)]
    pub fn weight_bytes(&self) -> u64 {
        self.levels.weight()
    }
}

/// A first page (ranks 1 to `page_size`) after `best` became its player's best, or None if the
/// page is unchanged. Bests only improve, so the player's old entry (if shown) moves up and
/// nobody else enters the page; if they were not shown, the new entry pushes the last one out.
/// An entry already as good as `best` (a later read saw it) leaves the page as it is.
fn page_with_new_best(
    entries: &[BoardEntry],
    page_size: usize,
    best: &BoardEntry,
) -> Option<Vec<BoardEntry>> {
    let order = |e: &BoardEntry| (e.ticks, e.run);
    if let Some(shown) = entries.iter().find(|e| e.player == best.player) {
        if order(shown) <= order(best) {
            return None;
        }
    }
    let mut page: Vec<BoardEntry> = entries
        .iter()
        .filter(|e| e.player != best.player)
        .cloned()
        .collect();
    let at = page.partition_point(|e| order(e) < order(best));
    if at >= page_size {
        return None;
    }
    page.insert(at, best.clone());
    page.truncate(page_size);
    for (i, entry) in page.iter_mut().enumerate() {
        entry.rank = i as i64 + 1;
    }
    Some(page)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn top() -> Variant {
        Variant::Top(TopPage {
            board: Board {
                sim_version: 1,
                assisted: false,
            },
            limit: 10,
            offset: 0,
        })
    }

    fn cache() -> BoardCache {
        BoardCache::new(Duration::from_secs(600), 1 << 20)
    }

    #[test]
    fn a_stored_answer_is_served_until_its_level_is_invalidated() {
        let cache = cache();
        cache.store("a", top(), Bytes::from_static(b"[1]"), cache.ticket("a"));
        cache.store("b", top(), Bytes::from_static(b"[2]"), cache.ticket("b"));
        assert_eq!(cache.get("a", &top()).as_deref(), Some(&b"[1]"[..]));
        cache.invalidate(["a"]);
        assert_eq!(cache.get("a", &top()), None);
        assert_eq!(cache.get("b", &top()).as_deref(), Some(&b"[2]"[..]));
    }

    #[test]
    fn an_answer_read_before_its_levels_invalidation_is_not_stored() {
        let cache = cache();
        let (ticket_a, ticket_b) = (cache.ticket("a"), cache.ticket("b"));
        cache.invalidate(["a"]);
        cache.store("a", top(), Bytes::from_static(b"[old]"), ticket_a);
        assert_eq!(cache.get("a", &top()), None);
        if cache.stripe("a") != cache.stripe("b") {
            cache.store("b", top(), Bytes::from_static(b"[b]"), ticket_b);
            assert!(
                cache.get("b", &top()).is_some(),
                "another level's read is kept"
            );
        }
    }

    #[test]
    fn a_level_is_not_served_while_a_change_to_it_is_being_written() {
        let cache = cache();
        cache.store("a", top(), Bytes::from_static(b"[old]"), cache.ticket("a"));
        let change = cache.begin_change("a");
        let second = cache.begin_change("a");
        assert_eq!(cache.get("a", &top()), None, "served during the write");
        drop(change);
        assert_eq!(
            cache.get("a", &top()),
            None,
            "served while a second is written"
        );
        cache.invalidate(["a"]);
        cache.store("a", top(), Bytes::from_static(b"[new]"), cache.ticket("a"));
        drop(second);
        assert_eq!(cache.get("a", &top()).as_deref(), Some(&b"[new]"[..]));
    }

    #[test]
    fn an_answer_older_than_the_ttl_is_not_served() {
        let cache = BoardCache::new(Duration::from_millis(1), 1 << 20);
        cache.store("a", top(), Bytes::from_static(b"[1]"), cache.ticket("a"));
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(cache.get("a", &top()), None);
    }

    #[test]
    fn a_flood_of_distinct_boards_stays_within_the_capacity() {
        let capacity_bytes = 256 * 1024;
        let cache = BoardCache::new(Duration::from_secs(600), capacity_bytes);
        let answer = Bytes::from(vec![b'x'; 1000]);
        let levels = 20_000;
        for level in 0..levels {
            let level = format!("{level:064}");
            cache.store(&level, top(), answer.clone(), cache.ticket(&level));
        }
        let kept = (0..levels)
            .filter(|level| cache.get(&format!("{level:064}"), &top()).is_some())
            .count() as u64;
        assert!(
            cache.weight_bytes() <= capacity_bytes,
            "{}",
            cache.weight_bytes()
        );
        assert!(
            kept * 1000 <= capacity_bytes,
            "{kept} answers of 1000 bytes kept"
        );
        assert!(
            kept >= 100,
            "the cache keeps {kept} answers: it should fill its capacity"
        );
    }

    #[test]
    fn one_level_keeps_a_bounded_number_of_answers() {
        let cache = cache();
        for player in 0..MAX_ANSWERS_PER_LEVEL + 10 {
            let variant = Variant::Place(PlaceOf {
                board: Board {
                    sim_version: 1,
                    assisted: false,
                },
                player: player.to_string(),
                around: 5,
            });
            cache.store("a", variant, Bytes::from_static(b"{}"), cache.ticket("a"));
        }
        let kept = cache.levels.get("a").map_or(0, |l| l.answers.len());
        assert_eq!(kept, MAX_ANSWERS_PER_LEVEL);
    }
}
