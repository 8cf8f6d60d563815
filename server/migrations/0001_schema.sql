{first_line}
-- the two differ only in how a run's id is generated. Times are Unix milliseconds, flags 0/1
-- integers (the `Any` driver decodes those the same way from both databases).
CREATE TABLE players (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_folded TEXT NOT NULL UNIQUE,
    created_ms BIGINT NOT NULL,
    hidden BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE nonces (
    nonce TEXT PRIMARY KEY,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX nonces_expiry ON nonces (expires_ms);
CREATE TABLE levels (
    hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_folded TEXT NOT NULL,
    author_key TEXT,
    text TEXT NOT NULL,
    author_ticks BIGINT NOT NULL,
    campaign BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    hidden BIGINT NOT NULL DEFAULT 0,
    plays BIGINT NOT NULL DEFAULT 0,
    finishes BIGINT NOT NULL DEFAULT 0,
    rating_sum BIGINT NOT NULL DEFAULT 0,
    rating_count BIGINT NOT NULL DEFAULT 0,
    difficulty_sum BIGINT NOT NULL DEFAULT 0,
    difficulty_count BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX levels_newest ON levels (created_ms);
CREATE INDEX levels_plays ON levels (plays);
CREATE TABLE sessions (
    token TEXT PRIMARY KEY,
    player_key TEXT NOT NULL,
    level_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE runs (
    id {run_id_column},
    player_key TEXT NOT NULL,
    level_hash TEXT NOT NULL,
    sim_version BIGINT NOT NULL,
    assisted BIGINT NOT NULL,
    ticks BIGINT NOT NULL,
    replay TEXT NOT NULL,
    submitted_ms BIGINT NOT NULL,
    wall_clock_ms BIGINT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    flagged BIGINT NOT NULL DEFAULT 0,
    claimed_until_ms BIGINT NOT NULL DEFAULT 0,
    hidden BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX runs_queue ON runs (status, id);
CREATE INDEX runs_by_player ON runs (level_hash, player_key);
CREATE TABLE best_runs (
    level_hash TEXT NOT NULL,
    sim_version BIGINT NOT NULL,
    assisted BIGINT NOT NULL,
    player_key TEXT NOT NULL,
    ticks BIGINT NOT NULL,
    run_id BIGINT NOT NULL,
    PRIMARY KEY (level_hash, sim_version, assisted, player_key)
);
CREATE INDEX best_runs_rank ON best_runs (level_hash, sim_version, assisted, ticks, run_id);
CREATE TABLE ratings (
    level_hash TEXT NOT NULL,
    player_key TEXT NOT NULL,
    rating BIGINT NOT NULL,
    difficulty BIGINT NOT NULL,
    PRIMARY KEY (level_hash, player_key)
);
