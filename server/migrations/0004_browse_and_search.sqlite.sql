-- Browse and search at 100,000 levels (server/src/api/browse.rs). Each browse order has an
-- index on its own sort expression, then the hash (the order's tie-break), so a page is the
-- first rows of one index that pass the filters, not a sort of every level. The expressions are
-- browse.rs's `BrowseOrder::order_by_sql`, text for text: SQLite uses an index on an expression
-- only for the same expression (a test reads the plans).
CREATE INDEX levels_by_rating ON levels (
    (rating_sum * 1.0 / (CASE WHEN rating_count = 0 THEN 1 ELSE rating_count END)) DESC, hash);
CREATE INDEX levels_hardest ON levels (
    (finishes * 1.0 / (CASE WHEN plays = 0 THEN 1 ELSE plays END)), hash);
CREATE INDEX levels_easiest ON levels (
    (finishes * 1.0 / (CASE WHEN plays = 0 THEN 1 ELSE plays END)) DESC, hash);
-- A search matches the level's folded name or its author's. `level_search` holds both per level
-- by trigram (FTS5's trigram tokenizer, in the SQLite sqlx bundles), for a search's GLOB
-- '*text*': the index finds the levels holding the text's trigrams and SQLite checks the GLOB
-- on those, so the answer is exactly LIKE '%text%''s. case_sensitive 1: the names are folded
-- already, and FTS5 serves GLOB (not LIKE ... ESCAPE) only from a case-sensitive index.
-- Names never change and rows are never deleted, so a trigger on a level's insert keeps it (a
-- rename would need one here too); `tether-server integrity` checks it against the tables.
CREATE VIRTUAL TABLE level_search USING fts5 (
    hash UNINDEXED, name_folded, author_folded, tokenize = 'trigram case_sensitive 1');
INSERT INTO level_search (hash, name_folded, author_folded)
SELECT l.hash, l.name_folded, p.name_folded FROM levels l LEFT JOIN players p ON p.key = l.author_key;
CREATE TRIGGER level_search_follows_levels AFTER INSERT ON levels BEGIN
    INSERT INTO level_search (hash, name_folded, author_folded)
    VALUES (NEW.hash, NEW.name_folded, (SELECT name_folded FROM players WHERE key = NEW.author_key));
END;
