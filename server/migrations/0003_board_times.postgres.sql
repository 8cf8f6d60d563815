-- Each board's players counted by time, kept by triggers on best_runs, so a rank and a board's
-- size are sums over a few hundred rows, not counts over a million index entries. Two
-- resolutions: width_ticks 256 (spans of 256 ticks, start_ticks a multiple of 256) and
-- width_ticks 1 (one exact time). The rows ahead of a time t: the spans wholly before t's span,
-- then the exact times in t's span before t (server/src/api/boards.rs, BOARD_SPAN_TICKS).
CREATE TABLE board_times (
    level_hash TEXT NOT NULL,
    sim_version BIGINT NOT NULL,
    assisted BIGINT NOT NULL,
    width_ticks BIGINT NOT NULL,
    start_ticks BIGINT NOT NULL,
    players BIGINT NOT NULL,
    PRIMARY KEY (level_hash, sim_version, assisted, width_ticks, start_ticks)
);
INSERT INTO board_times (level_hash, sim_version, assisted, width_ticks, start_ticks, players)
SELECT level_hash, sim_version, assisted, 1, ticks, COUNT(*) FROM best_runs
GROUP BY level_hash, sim_version, assisted, ticks;
INSERT INTO board_times (level_hash, sim_version, assisted, width_ticks, start_ticks, players)
SELECT level_hash, sim_version, assisted, 256, ticks / 256 * 256, COUNT(*) FROM best_runs
GROUP BY level_hash, sim_version, assisted, ticks / 256 * 256;
-- One trigger function for inserts, moves and deletes: its one statement takes the rows it
-- changes in (width_ticks, start_ticks) order, so two verdicts on one board cannot deadlock.
CREATE FUNCTION board_times_follow_best_runs() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    board best_runs%ROWTYPE;
    added_ticks BIGINT;
    removed_ticks BIGINT;
BEGIN
    IF TG_OP = 'DELETE' THEN
        board := OLD;
    ELSE
        board := NEW;
        added_ticks := NEW.ticks;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        removed_ticks := OLD.ticks;
    END IF;
    INSERT INTO board_times (level_hash, sim_version, assisted, width_ticks, start_ticks, players)
    SELECT board.level_hash, board.sim_version, board.assisted, d.width_ticks, d.start_ticks,
        SUM(d.players)
    FROM (VALUES (1::BIGINT, added_ticks, 1::BIGINT), (256, added_ticks / 256 * 256, 1),
                 (1, removed_ticks, -1), (256, removed_ticks / 256 * 256, -1))
        AS d (width_ticks, start_ticks, players)
    WHERE d.start_ticks IS NOT NULL
    GROUP BY d.width_ticks, d.start_ticks
    ORDER BY d.width_ticks, d.start_ticks
    ON CONFLICT (level_hash, sim_version, assisted, width_ticks, start_ticks)
    DO UPDATE SET players = board_times.players + excluded.players;
    RETURN NULL;
END
$$;
CREATE TRIGGER board_times_follow_best_runs AFTER INSERT OR DELETE OR UPDATE OF ticks
ON best_runs FOR EACH ROW EXECUTE FUNCTION board_times_follow_best_runs();
