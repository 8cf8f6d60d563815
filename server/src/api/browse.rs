//! Browsing and searching shared levels at 100,000 levels and more. Each order is read along
//! its own index (migration 4), so a page costs its rows, not a sort of every level; a rare
//! search text finds its levels through trigram indexes of the folded names (SQLite FTS5,
//! PostgreSQL pg_trgm). Every form matches exactly what `LIKE '%text%'` on the level's or its
//! author's folded name does.

use axum::extract::{Query, State};
use axum::Json;
use serde::Deserialize;
use tether_online_proto::wire::LevelList;

use super::levels::{level_info, LEVEL_COLUMNS};
use super::AppState;
use crate::error::{ApiError, ApiResult};

/// Most levels one browse request returns.
pub const MAX_BROWSE_LEVELS: i64 = 50;
/// Longest search text, in characters.
pub const MAX_SEARCH_CHARS: usize = 48;
/// The shortest search the trigram indexes serve: a trigram is three characters, so a shorter
/// text has none to look up (and matches so many names that walking the order's index until a
/// page is full is the quicker way anyway).
const MIN_TRIGRAM_SEARCH_CHARS: usize = 3;
/// On SQLite, a search matching this many levels (by name, or by author) reads the order's
/// index instead of the trigram index: with 1 level in 500 matching (200 of 100,000), a page of
/// 20 is found within about 10,000 rows read in order (a few milliseconds), while collecting
/// and sorting every match of a common text ("level": every level) took over a second.
const MAX_TRIGRAM_MATCHES: i64 = 200;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrowseQuery {
    /// newest (default), plays, rating, hardest, easiest.
    #[serde(default)]
    sort: Option<String>,
    /// Part of the level's or its author's name.
    #[serde(default)]
    q: Option<String>,
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    offset: Option<i64>,
}

/// The orders a browse page can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowseOrder {
    Newest,
    Plays,
    Rating,
    Hardest,
    Easiest,
}

impl BrowseOrder {
    #[cfg(test)]
    pub const ALL: [BrowseOrder; 5] = [
        BrowseOrder::Newest,
        BrowseOrder::Plays,
        BrowseOrder::Rating,
        BrowseOrder::Hardest,
        BrowseOrder::Easiest,
    ];

    fn parse(name: &str) -> Option<BrowseOrder> {
        Some(match name {
            "newest" => BrowseOrder::Newest,
            "plays" => BrowseOrder::Plays,
            "rating" => BrowseOrder::Rating,
            "hardest" => BrowseOrder::Hardest,
            "easiest" => BrowseOrder::Easiest,
            _ => return None,
        })
    }

    /// The ORDER BY, ties broken by hash. The ratio expressions are migration 4's indexes'
    /// own, text for text: SQLite uses an index on an expression only for the same expression.
    /// Both engines divide the same way (a level with no ratings or plays counts as 0).
    fn order_by_sql(self) -> &'static str {
        match self {
            BrowseOrder::Newest => "l.created_ms DESC, l.hash",
            BrowseOrder::Plays => "l.plays DESC, l.hash",
            BrowseOrder::Rating => {
                "(l.rating_sum * 1.0 / (CASE WHEN l.rating_count = 0 THEN 1 ELSE l.rating_count END)) \
                 DESC, l.hash"
            }
            BrowseOrder::Hardest => {
                "(l.finishes * 1.0 / (CASE WHEN l.plays = 0 THEN 1 ELSE l.plays END)), l.hash"
            }
            BrowseOrder::Easiest => {
                "(l.finishes * 1.0 / (CASE WHEN l.plays = 0 THEN 1 ELSE l.plays END)) DESC, l.hash"
            }
        }
    }
}

/// How a browse request filters by name, and the pattern it binds as $3 (none: no filter).
#[derive(Debug, PartialEq, Eq)]
pub enum NameFilter {
    /// No search text: every level.
    Everything,
    /// `LIKE '%text%'` (the pattern) on each level read along the order's index. On PostgreSQL
    /// always: both names are columns of `levels` there, each with a trigram index, and the
    /// planner takes those for a rare text itself. On SQLite for a text too short for trigrams
    /// or so common that a page fills within the first few thousand levels read.
    Like(String),
    /// SQLite: the levels whose names `level_search`'s trigrams find (the GLOB pattern).
    Trigrams(String),
}

impl NameFilter {
    /// The filter for `search` (any case) on PostgreSQL, or SQLite's before it is known
    /// whether the text is rare (`sqlite_trigrams` makes the indexed one).
    pub fn new(search: &str) -> NameFilter {
        let folded = search.to_lowercase();
        if folded.is_empty() {
            NameFilter::Everything
        } else {
            NameFilter::Like(like_pattern(&folded))
        }
    }

    /// SQLite's indexed filter for `search` if it is long enough to have trigrams.
    pub fn sqlite_trigrams(search: &str) -> Option<NameFilter> {
        let folded = search.to_lowercase();
        (folded.chars().count() >= MIN_TRIGRAM_SEARCH_CHARS)
            .then(|| NameFilter::Trigrams(glob_pattern(&folded)))
    }

    fn pattern(&self) -> Option<&str> {
        match self {
            NameFilter::Everything => None,
            NameFilter::Like(pattern) | NameFilter::Trigrams(pattern) => Some(pattern),
        }
    }

    /// The WHERE clause's name condition ("" for none), on the rows `l` (level) and `p`
    /// (its author, or NULLs).
    fn where_sql(&self, sqlite: bool) -> &'static str {
        match (self, sqlite) {
            (NameFilter::Everything, _) => "",
            (NameFilter::Like(_), true) => {
                "AND (l.name_folded LIKE $3 ESCAPE '\\' OR p.name_folded LIKE $3 ESCAPE '\\')"
            }
            (NameFilter::Like(_), false) => {
                "AND (l.name_folded LIKE $3 ESCAPE '\\' OR l.author_folded LIKE $3 ESCAPE '\\')"
            }
            // FTS5 serves GLOB from a case-sensitive trigram index, but not LIKE ... ESCAPE;
            // each column's match alone, so each is a lookup.
            (NameFilter::Trigrams(_), _) => {
                "AND l.hash IN (SELECT hash FROM level_search WHERE name_folded GLOB $3 \
                 UNION SELECT hash FROM level_search WHERE author_folded GLOB $3)"
            }
        }
    }
}

/// SQLite's filter for `search`: the trigram index for a rare text, else `LIKE` along the
/// order's index. Rare: fewer than `MAX_TRIGRAM_MATCHES` levels match by name and as many by
/// author (counting stops there, so the count costs at most that many index rows).
async fn sqlite_name_filter(db: &crate::db::Db, search: &str) -> ApiResult<NameFilter> {
    let Some(trigrams) = NameFilter::sqlite_trigrams(search) else {
        return Ok(NameFilter::new(search));
    };
    // The authors are counted only if the names leave room (CASE is evaluated lazily): a
    // column's count reads that column's trigram lists, which a common text makes long.
    let matches: i64 = sqlx::query_scalar(
        "SELECT CASE WHEN names.n >= $2 THEN names.n ELSE names.n + (SELECT COUNT(*) FROM \
         (SELECT 1 FROM level_search WHERE author_folded GLOB $1 LIMIT $2)) END FROM \
         (SELECT COUNT(*) AS n FROM (SELECT 1 FROM level_search WHERE name_folded GLOB $1 \
         LIMIT $2)) names",
    )
    .bind(trigrams.pattern().unwrap_or_default().to_string())
    .bind(MAX_TRIGRAM_MATCHES)
    .fetch_one(db)
    .await?;
    Ok(if matches < MAX_TRIGRAM_MATCHES {
        trigrams
    } else {
        NameFilter::new(search)
    })
}

/// The browse query: visible levels of visible (or no) authors, filtered by name, in `order`,
/// the page's limit and offset bound as $1 and $2 (and a name pattern as $3).
pub fn browse_sql(order: BrowseOrder, filter: &NameFilter, sqlite: bool) -> String {
    format!(
        "SELECT {LEVEL_COLUMNS} FROM levels l LEFT JOIN players p ON p.key = l.author_key \
         WHERE l.hidden = 0 AND (p.hidden IS NULL OR p.hidden = 0) {} \
         ORDER BY {} LIMIT $1 OFFSET $2",
        filter.where_sql(sqlite),
        order.order_by_sql()
    )
}

/// `GET /api/v1/levels`: a page of levels, sorted and filtered.
pub async fn browse(
    State(app): State<AppState>,
    Query(query): Query<BrowseQuery>,
) -> ApiResult<Json<LevelList>> {
    let order = BrowseOrder::parse(query.sort.as_deref().unwrap_or("newest")).ok_or_else(|| {
        ApiError::bad_request(
            "bad_query",
            "sort is newest, plays, rating, hardest or easiest",
        )
    })?;
    let search = query.q.unwrap_or_default();
    if search.chars().count() > MAX_SEARCH_CHARS || search.contains('\0') {
        return Err(ApiError::bad_request(
            "bad_query",
            "the search text is too long or holds a NUL",
        ));
    }
    let sqlite = crate::db::is_sqlite(&app.reads);
    let filter = if sqlite {
        sqlite_name_filter(&app.reads, &search).await?
    } else {
        NameFilter::new(&search)
    };
    let sql = browse_sql(order, &filter, sqlite);
    let mut rows = sqlx::query(&sql)
        .bind(query.limit.unwrap_or(20).clamp(0, MAX_BROWSE_LEVELS))
        .bind(query.offset.unwrap_or(0).max(0));
    if let Some(pattern) = filter.pattern() {
        rows = rows.bind(pattern.to_string());
    }
    let rows = rows.fetch_all(&app.reads).await?;
    let levels = rows.iter().map(level_info).collect::<Result<Vec<_>, _>>()?;
    Ok(Json(LevelList { levels }))
}

/// `%text%` for LIKE ... ESCAPE '\': `%`, `_` and `\` in the text match themselves.
fn like_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// `*text*` for GLOB: `*`, `?` and `[` in the text match themselves (as one-character classes;
/// `]` outside a class is already itself). GLOB is case-sensitive: the text is folded already.
fn glob_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('*');
    for c in text.chars() {
        match c {
            '*' | '?' | '[' => {
                out.push('[');
                out.push(c);
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    out.push('*');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{migrator, Engine};
    use sqlx::any::AnyPoolOptions;
    use sqlx::Row;

    /// A SQLite database in memory with the whole schema, and levels named `names` (each by
    /// its index's author, player `a{index}` named by `authors`).
    async fn sqlite_with(names: &[&str], authors: &[&str]) -> crate::db::Db {
        sqlx::any::install_default_drivers();
        let db = AnyPoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .expect("in-memory SQLite");
        migrator(Engine::Sqlite)
            .await
            .expect("migrations")
            .run(&db)
            .await
            .expect("migrated");
        for (index, author) in authors.iter().enumerate() {
            sqlx::query(
                "INSERT INTO players (key, name, name_folded, created_ms) VALUES ($1, $2, $3, 0)",
            )
            .bind(format!("a{index}"))
            .bind(*author)
            .bind(author.to_lowercase())
            .execute(&db)
            .await
            .expect("player");
        }
        for (index, name) in names.iter().enumerate() {
            sqlx::query(
                "INSERT INTO levels (hash, name, name_folded, author_key, text, author_ticks, \
                 campaign, created_ms) VALUES ($1, $2, $3, $4, '', 1, 0, $5)",
            )
            .bind(format!("h{index:03}"))
            .bind(*name)
            .bind(name.to_lowercase())
            .bind(format!("a{}", index % authors.len().max(1)))
            .bind(index as i64)
            .execute(&db)
            .await
            .expect("level");
        }
        db
    }

    async fn hashes(db: &crate::db::Db, filter: &NameFilter) -> Vec<String> {
        let sql = browse_sql(BrowseOrder::Newest, filter, true);
        let mut query = sqlx::query(&sql).bind(MAX_BROWSE_LEVELS).bind(0_i64);
        if let Some(pattern) = filter.pattern() {
            query = query.bind(pattern.to_string());
        }
        let mut found: Vec<String> = query
            .fetch_all(db)
            .await
            .expect("browse")
            .iter()
            .map(|row| row.get(0))
            .collect();
        found.sort();
        found
    }

    #[test]
    fn patterns_match_their_special_characters_as_themselves() {
        assert_eq!(like_pattern("50%_a\\b"), "%50\\%\\_a\\\\b%");
        assert_eq!(glob_pattern("a*b?[c]"), "*a[*]b[?][[]c]*");
        assert_eq!(NameFilter::new(""), NameFilter::Everything);
        assert_eq!(NameFilter::sqlite_trigrams("Ab"), None);
        assert_eq!(
            NameFilter::sqlite_trigrams("ABC"),
            Some(NameFilter::Trigrams("*abc*".into()))
        );
    }

    /// The trigram form finds exactly the levels the LIKE form finds: by level name or author
    /// name, any case, parts of words, across spaces, and wildcard characters as themselves.
    #[tokio::test]
    async fn the_trigram_search_finds_exactly_what_like_finds() {
        let names = [
            "Swing Low",
            "The SWINGER",
            "wing",
            "50% off",
            "a_b*c?d[e]f",
            "Ünïcode Swing",
            "aaaa",
            "rope",
            "Level 4242",
            "level 42420",
        ];
        let db = sqlite_with(&names, &["Maker", "Bob Swings", "x*y"]).await;
        for search in [
            "swing",
            "SWING",
            "ing l",
            "wing",
            "50%",
            "% o",
            "_b*",
            "*c?",
            "[e]",
            "ünï",
            "aaaaa",
            "maker",
            "bob s",
            "x*y",
            "level 4242",
            "no such",
            "rop",
        ] {
            let like = hashes(&db, &NameFilter::new(search)).await;
            let trigrams = NameFilter::sqlite_trigrams(search).expect("three characters or more");
            assert_eq!(hashes(&db, &trigrams).await, like, "search {search:?}");
        }
        // And the LIKE form is the matching the game's searches were written against.
        let found = hashes(&db, &NameFilter::new("SWING")).await;
        assert_eq!(
            found,
            ["h000", "h001", "h004", "h005", "h007"],
            "by name or author"
        );
        assert_eq!(
            hashes(&db, &NameFilter::new("aaaaa")).await,
            Vec::<String>::new()
        );
    }

    async fn plan(db: &crate::db::Db, sql: &str, pattern: Option<&str>) -> String {
        let mut query = sqlx::query(sql).bind(20_i64).bind(0_i64);
        if let Some(pattern) = pattern {
            query = query.bind(pattern.to_string());
        }
        let rows = query.fetch_all(db).await.expect("plan");
        let lines: Vec<String> = rows.iter().map(|row| row.get::<String, _>(3)).collect();
        lines.join("\n")
    }

    /// Every order reads an index in order (no sort of every level: at most the hash
    /// tie-break among equal created_ms or plays), and a rare search is looked up by trigram.
    #[tokio::test]
    async fn every_order_reads_its_index_and_a_rare_search_its_trigrams() {
        let db = sqlite_with(&["Swing"], &["Maker"]).await;
        for order in BrowseOrder::ALL {
            let sql = format!(
                "EXPLAIN QUERY PLAN {}",
                browse_sql(order, &NameFilter::Everything, true)
            );
            let plan = plan(&db, &sql, None).await;
            assert!(
                plan.contains("SCAN l USING INDEX") && !plan.contains("TEMP B-TREE FOR ORDER BY"),
                "{order:?}: {plan}"
            );
        }
        let rare = sqlite_name_filter(&db, "swing").await.expect("filter");
        assert_eq!(rare, NameFilter::Trigrams("*swing*".into()));
        let sql = format!(
            "EXPLAIN QUERY PLAN {}",
            browse_sql(BrowseOrder::Rating, &rare, true)
        );
        let plan = plan(&db, &sql, rare.pattern()).await;
        assert_eq!(plan.matches("VIRTUAL TABLE INDEX 0:G").count(), 2, "{plan}");
    }

    /// A text matching many levels reads the order's index (a page fills quickly) instead of
    /// collecting every match.
    #[tokio::test]
    async fn a_common_search_reads_the_orders_index() {
        let names: Vec<String> = (0..MAX_TRIGRAM_MATCHES)
            .map(|n| format!("Level {n}"))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let db = sqlite_with(&names, &["Maker"]).await;
        let filter = sqlite_name_filter(&db, "level").await.expect("filter");
        assert_eq!(filter, NameFilter::Like("%level%".into()));
        assert_eq!(hashes(&db, &filter).await.len() as i64, MAX_BROWSE_LEVELS);
    }
}
