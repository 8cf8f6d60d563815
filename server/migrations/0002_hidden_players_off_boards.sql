-- Since migration 2 a hidden player has no rows in best_runs (hiding them deletes their rows,
-- and no verdict or upload puts them back), so a rank is a count over best_runs_rank alone,
-- with no join to players. This carries rows of players hidden before it off the boards.
DELETE FROM best_runs WHERE player_key IN (SELECT key FROM players WHERE hidden <> 0);
-- A player's boards by key: their medals, and the boards to clear when they are hidden.
CREATE INDEX best_runs_by_player ON best_runs (player_key);
