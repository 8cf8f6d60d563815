//! Browsing and searching shared levels (server/src/api/browse.rs) on a database made before
//! migration 4 and carried forward by it: every order lists the levels as its rule says, and a
//! search finds exactly the levels whose name or visible author's name holds the text, in any
//! case, as parts of words, with `%`, `_`, `*`, `?` and `[` as themselves, whether it is looked
//! up by trigram or read along an order's index; levels stored after the migration too.

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

/// A level written behind the server's back: name, author (index into `AUTHORS`), plays,
/// finishes, rating sum, rating count.
type LevelRow = (&'static str, Option<usize>, i64, i64, i64, i64);

/// Authors: name and whether hidden.
const AUTHORS: [(&str, bool); 4] = [
    ("Maker", false),
    ("Bob Swings", false),
    ("Ünïcode Üser", false),
    ("Gone Swinging", true),
];

const LEVELS: [LevelRow; 8] = [
    ("Swing Low", Some(0), 10, 5, 8, 2),
    ("The SWINGER", Some(1), 10, 1, 5, 1),
    ("50% off", None, 4, 4, 0, 0),
    ("a_b*c?d[e]f", Some(1), 0, 0, 9, 3),
    ("Rope Maze", Some(2), 20, 10, 4, 1),
    ("Level 4242", Some(0), 3, 0, 2, 1),
    ("level 42420", None, 3, 3, 12, 3),
    ("By a hidden author", Some(3), 50, 25, 5, 1),
];

fn author_key(index: usize) -> String {
    format!("{:064x}", 0xa0 + index)
}

fn level_hash_of(index: usize) -> String {
    format!("{:064x}", 0xb000 + index)
}

fn insert_authors(data: &Path) {
    for (index, (name, hidden)) in AUTHORS.iter().enumerate() {
        let sql = format!(
            "INSERT INTO players (key, name, name_folded, created_ms, hidden) \
             VALUES ('{}', '{name}', '{}', 0, {})",
            author_key(index),
            name.to_lowercase(),
            i64::from(*hidden)
        );
        assert_eq!(database_execute(data, &sql), 1);
    }
}

fn insert_level(data: &Path, index: usize, level: &LevelRow) {
    let (name, author, plays, finishes, rating_sum, rating_count) = *level;
    let author = author.map_or("NULL".to_string(), |a| format!("'{}'", author_key(a)));
    let sql = format!(
        "INSERT INTO levels (hash, name, name_folded, author_key, text, author_ticks, campaign, \
         created_ms, plays, finishes, rating_sum, rating_count) VALUES ('{}', '{name}', '{}', \
         {author}, 'not a level', 100, 0, {index}, {plays}, {finishes}, {rating_sum}, \
         {rating_count})",
        level_hash_of(index),
        name.to_lowercase()
    );
    assert_eq!(database_execute(data, &sql), 1);
}

/// The hashes of this test's levels a browse request lists, in its order (the campaign's
/// levels, stored by the server at start, are left out).
fn listed(server: &Server, query: &str) -> Vec<String> {
    let (status, answer) = server.get(&format!("/api/v1/levels?{query}&limit=50"));
    assert_eq!(status, 200, "{query}: {answer}");
    answer["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .map(|level: &Value| level["hash"].as_str().expect("hash").to_string())
        .filter(|hash| (0..LEVELS.len()).any(|index| *hash == level_hash_of(index)))
        .collect()
}

/// The visible levels among `levels`, by the order's rule: its key, ties by hash.
fn expected_order(levels: &[LevelRow], sort: &str) -> Vec<String> {
    let ratio = |a: i64, b: i64| a as f64 / b.max(1) as f64;
    let mut keyed: Vec<(f64, String)> = levels
        .iter()
        .enumerate()
        .filter(|(_, level)| level.1.is_none_or(|a| !AUTHORS[a].1))
        .map(
            |(index, &(_, _, plays, finishes, rating_sum, rating_count))| {
                let key = match sort {
                    "newest" => -(index as f64),
                    "plays" => -(plays as f64),
                    "rating" => -ratio(rating_sum, rating_count),
                    "hardest" => ratio(finishes, plays),
                    _ => -ratio(finishes, plays),
                };
                (key, level_hash_of(index))
            },
        )
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, hash)| hash).collect()
}

/// What `LIKE '%text%'` on the folded names finds: the visible levels whose name, or whose
/// visible author's name, holds the folded text.
fn expected_search(levels: &[LevelRow], text: &str) -> Vec<String> {
    let folded = text.to_lowercase();
    let mut found: Vec<String> = levels
        .iter()
        .enumerate()
        .filter(|(_, level)| level.1.is_none_or(|a| !AUTHORS[a].1))
        .filter(|(_, level)| {
            level.0.to_lowercase().contains(&folded)
                || level
                    .1
                    .is_some_and(|a| AUTHORS[a].0.to_lowercase().contains(&folded))
        })
        .map(|(index, _)| level_hash_of(index))
        .collect();
    found.sort();
    found
}

/// `text` as a query parameter.
fn url_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

const SEARCHES: [&str; 17] = [
    "swing",
    "SWING",
    "ing l",
    "wing",
    "50%",
    "%",
    "_",
    "_b*",
    "*c?",
    "[e]",
    "ünï",
    "ÜSER",
    "maker",
    "bob s",
    "level 4242",
    "no such",
    "4",
];

fn check_orders_and_searches(server: &Server, levels: &[LevelRow]) {
    for sort in ["newest", "plays", "rating", "hardest", "easiest"] {
        assert_eq!(
            listed(server, &format!("sort={sort}")),
            expected_order(levels, sort),
            "sort={sort}"
        );
    }
    for text in SEARCHES {
        let mut found = listed(server, &format!("q={}", url_encoded(text)));
        found.sort();
        assert_eq!(found, expected_search(levels, text), "search {text:?}");
    }
}

#[test]
fn a_database_made_before_migration_4_is_browsed_and_searched_as_before() {
    let data = fresh_data_dir("migration-4");
    make_database_with_migrations_before(&data, 4);
    insert_authors(&data);
    for (index, level) in LEVELS[..6].iter().enumerate() {
        insert_level(&data, index, level);
    }
    let server = Server::start(&data, &[]);
    let stdout = assert_integrity(&data);
    assert!(stdout.contains("search names: agree"), "{stdout}");
    check_orders_and_searches(&server, &LEVELS[..6]);

    // Levels stored after the migration are found the same way.
    for (index, level) in LEVELS.iter().enumerate().skip(6) {
        insert_level(&data, index, level);
    }
    check_orders_and_searches(&server, &LEVELS);
    assert_integrity(&data);
    // A restart finds migration 4 applied and changes nothing.
    drop(server);
    let server = Server::start(&data, &[]);
    check_orders_and_searches(&server, &LEVELS);
}
