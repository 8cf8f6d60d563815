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
CREATE TRIGGER board_times_count_in AFTER INSERT ON best_runs BEGIN
    INSERT INTO board_times (level_hash, sim_version, assisted, width_ticks, start_ticks, players)
    VALUES (NEW.level_hash, NEW.sim_version, NEW.assisted, 1, NEW.ticks, 1),
           (NEW.level_hash, NEW.sim_version, NEW.assisted, 256, NEW.ticks / 256 * 256, 1)
    ON CONFLICT (level_hash, sim_version, assisted, width_ticks, start_ticks)
    DO UPDATE SET players = board_times.players + 1;
END;
CREATE TRIGGER board_times_count_out AFTER DELETE ON best_runs BEGIN
    UPDATE board_times SET players = players - 1
    WHERE level_hash = OLD.level_hash AND sim_version = OLD.sim_version
    AND assisted = OLD.assisted AND ((width_ticks = 1 AND start_ticks = OLD.ticks)
    OR (width_ticks = 256 AND start_ticks = OLD.ticks / 256 * 256));
END;
CREATE TRIGGER board_times_count_moved AFTER UPDATE OF ticks ON best_runs BEGIN
    UPDATE board_times SET players = players - 1
    WHERE level_hash = OLD.level_hash AND sim_version = OLD.sim_version
    AND assisted = OLD.assisted AND ((width_ticks = 1 AND start_ticks = OLD.ticks)
    OR (width_ticks = 256 AND start_ticks = OLD.ticks / 256 * 256));
    INSERT INTO board_times (level_hash, sim_version, assisted, width_ticks, start_ticks, players)
    VALUES (NEW.level_hash, NEW.sim_version, NEW.assisted, 1, NEW.ticks, 1),
           (NEW.level_hash, NEW.sim_version, NEW.assisted, 256, NEW.ticks / 256 * 256, 1)
    ON CONFLICT (level_hash, sim_version, assisted, width_ticks, start_ticks)
    DO UPDATE SET players = board_times.players + 1;
END;
