-- Browse and search at 100,000 levels (server/src/api/browse.rs). Each browse order has an
-- index on its own sort expression, then the hash (the order's tie-break), so a page is the
-- first rows of one index that pass the filters, not a sort of every level. The expressions are
-- browse.rs's `BrowseOrder::order_by_sql` (a test reads the plans).
CREATE INDEX levels_by_rating ON levels (
    (rating_sum * 1.0 / (CASE WHEN rating_count = 0 THEN 1 ELSE rating_count END)) DESC, hash);
CREATE INDEX levels_hardest ON levels (
    (finishes * 1.0 / (CASE WHEN plays = 0 THEN 1 ELSE plays END)), hash);
CREATE INDEX levels_easiest ON levels (
    (finishes * 1.0 / (CASE WHEN plays = 0 THEN 1 ELSE plays END)) DESC, hash);
-- A search matches the level's folded name or its author's: the author's is kept on the level
-- row (names never change; a trigger fills it as a level is stored), so both are conditions on
-- one table, each with its trigram index (pg_trgm: in Debian's postgresql package, and a
-- trusted extension, so the database's owner may create it). The planner then chooses: the
-- trigram indexes for a rare text, the order's index for a common one. `tether-server
-- integrity` checks the copies against players.
ALTER TABLE levels ADD COLUMN author_folded TEXT;
UPDATE levels SET author_folded = p.name_folded FROM players p WHERE p.key = levels.author_key;
CREATE FUNCTION levels_author_folded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.author_folded := (SELECT name_folded FROM players WHERE key = NEW.author_key);
    RETURN NEW;
END
$$;
CREATE TRIGGER levels_author_folded BEFORE INSERT ON levels
FOR EACH ROW EXECUTE FUNCTION levels_author_folded();
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX levels_name_trigrams ON levels USING gin (name_folded gin_trgm_ops);
CREATE INDEX levels_author_trigrams ON levels USING gin (author_folded gin_trgm_ops);
