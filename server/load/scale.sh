#!/bin/sh
# At scale (docs/online.md, "At scale"): one board of 1,000,000 players and 100,000 shared
# levels, then the server's board and browse reads timed through the HTTP server with the board
# cache off (so every answer is the database's), and the query plans of the board queries.
# The 1,000,000 players, their best times and the 100,000 levels are BULK SQL ROWS: made-up
# rows with no replay or level file behind them, NOT re-verifiable and never for a live server
# (`reverify` would fail them; the ghosts of their runs do not exist). Only `seed`'s 1,000
# players and runs underneath are real.
#   server/load/scale.sh OUT_DIR                       SQLite in OUT_DIR/data
#   pg_virtualenv server/load/scale.sh OUT_DIR         a throw-away PostgreSQL
# Run from the checkout, after `cargo build --release -p tether-server`. PORT (default 18788)
# moves the server, so two checkouts can run it at once.
set -eu
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
PLAYERS=${PLAYERS:-1000000}
LEVELS=${LEVELS:-100000}
BIN=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/tether-server
PORT=${PORT:-18788}
export TETHER_DATA_DIR="$OUT/data" TETHER_PORT=$PORT TETHER_LEVELS_DIR="$(pwd)/levels"
export TETHER_DIST_DIR="$OUT/no-dist" TETHER_BOARD_CACHE_MS=0 TETHER_VERIFIERS=0
export TETHER_RATE_PER_ADDR=1000000
rm -rf "$OUT/data"
if [ -n "${PGHOST:-}" ]; then
    createdb tether_scale
    export DATABASE_URL="postgres://$PGUSER:$PGPASSWORD@$PGHOST:${PGPORT:-5432}/tether_scale"
    sql() { psql -qtA -d tether_scale -c "$1"; }
    numbers() { echo "generate_series(1, $1) AS n(i)"; }
    hex64() { echo "lpad(to_hex($1), 64, '0')"; }
    explain="EXPLAIN"
else
    sql() { sqlite3 "$OUT/data/tether.db" "$1"; }
    numbers() { echo "(WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $1) SELECT i FROM c) AS n"; }
    hex64() { echo "printf('%064x', $1)"; }
    explain="EXPLAIN QUERY PLAN"
fi
echo "== seed (real, re-verifiable): 1000 players, 10 levels, 1000 runs"
"$BIN" seed 1000 10 1000 > /dev/null
# The big board is a seeded level's (it keeps its real seeded runs too).
LEVEL=$(sql "SELECT hash FROM levels WHERE campaign = 0 ORDER BY hash LIMIT 1")
# The simulation version seed's runs were verified under: the one the server's boards show.
VERSION=$(sql "SELECT MAX(sim_version) FROM runs")
echo "== bulk rows (NOT re-verifiable): $PLAYERS players on level $LEVEL's board, $LEVELS levels"
START=$(date +%s)
sql "INSERT INTO players (key, name, name_folded, created_ms, hidden) \
     SELECT $(hex64 n.i), 'Bulk ' || n.i, 'bulk ' || n.i, n.i, 0 FROM $(numbers "$PLAYERS")"
# Times spread over 177..100176 ticks; run ids far above the real ones (no such runs exist).
# On PostgreSQL board_times' trigger (a PL/pgSQL call per row) is held off for the bulk rows
# and their counts are added as migration 3 fills them: the same rows, in a minute instead of
# a quarter of an hour on the loaded machine. `tether-server integrity` below checks them.
if [ -n "${PGHOST:-}" ]; then sql "ALTER TABLE best_runs DISABLE TRIGGER board_times_follow_best_runs"; fi
sql "INSERT INTO best_runs (level_hash, sim_version, assisted, player_key, ticks, run_id) \
     SELECT '$LEVEL', $VERSION, 0, $(hex64 n.i), 177 + (n.i % 100000) * 7919 % 100000, 1000000000 + n.i \
     FROM $(numbers "$PLAYERS")"
if [ -n "${PGHOST:-}" ]; then
    for WIDTH in 1 256; do
        sql "INSERT INTO board_times (level_hash, sim_version, assisted, width_ticks, start_ticks, players) \
             SELECT level_hash, sim_version, assisted, $WIDTH, ticks / $WIDTH * $WIDTH, COUNT(*) \
             FROM best_runs WHERE run_id > 1000000000 GROUP BY level_hash, sim_version, assisted, ticks / $WIDTH * $WIDTH \
             ON CONFLICT (level_hash, sim_version, assisted, width_ticks, start_ticks) \
             DO UPDATE SET players = board_times.players + excluded.players"
    done
    sql "ALTER TABLE best_runs ENABLE TRIGGER board_times_follow_best_runs"
fi
sql "INSERT INTO levels (hash, name, name_folded, author_key, text, author_ticks, campaign, \
     created_ms, hidden, plays, finishes, rating_sum, rating_count, difficulty_sum, difficulty_count) \
     SELECT $(hex64 "n.i + 4000000000"), 'Bulk level ' || n.i, 'bulk level ' || n.i, NULL, \
     'not a level: bulk row', 1000 + n.i % 5000, 0, n.i, 0, n.i % 997, n.i % 389, \
     3 * (n.i % 50), n.i % 50, 2 * (n.i % 40), n.i % 40 FROM $(numbers "$LEVELS")"
# PostgreSQL: VACUUM too, as autovacuum does to a live table after inserts: its visibility map
# is what lets a count read the index alone.
if [ -n "${PGHOST:-}" ]; then sql "VACUUM ANALYZE" > /dev/null; else sql "ANALYZE" > /dev/null; fi
echo "bulk insert and ANALYZE: $(( $(date +%s) - START )) s"
echo "== rows: players $(sql "SELECT COUNT(*) FROM players"), levels $(sql "SELECT COUNT(*) FROM levels"), \
on the big board $(sql "SELECT COUNT(*) FROM best_runs WHERE level_hash = '$LEVEL' AND sim_version = $VERSION")"
"$BIN" > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
until grep -q listening "$OUT/server.log"; do sleep 0.2; done
BASE=http://127.0.0.1:$PORT/api/v1
# Median and worst of 3 requests' total time (curl's own clock), after one warm-up request
# (a place on a million-row board took 15-20 s on SQLite on the loaded machine: keep it short).
timed() {
    STATUS=$(curl -s -o /dev/null -w '%{http_code}' "$BASE$2")
    [ "$STATUS" = 200 ] || { echo "$1: HTTP $STATUS for $2"; exit 1; }
    for _ in 1 2 3; do curl -s -o /dev/null -w '%{time_total}\n' "$BASE$2"; done \
        | sort -n | awk -v what="$1" '{ t[NR] = $1 * 1000 } END {
            printf "%-34s median %8.1f ms, max %8.1f ms\n", what, t[2], t[3] }'
}
player_at() { sql "SELECT player_key FROM best_runs WHERE level_hash = '$LEVEL' AND sim_version = $VERSION ORDER BY ticks, run_id LIMIT 1 OFFSET $1"; }
echo "== load average before the reads: $(cat /proc/loadavg)"
timed "board top 10" "/levels/$LEVEL/board?limit=10"
timed "board page at offset 500000" "/levels/$LEVEL/board?limit=10&offset=500000"
timed "place of rank 1 (around 5)" "/levels/$LEVEL/board/$(player_at 0)"
timed "place of rank 500000 (around 5)" "/levels/$LEVEL/board/$(player_at 499999)"
timed "place of the last rank" "/levels/$LEVEL/board/$(player_at $((PLAYERS - 1)))"
echo "(the place of rank 500000 says: $(curl -s "$BASE/levels/$LEVEL/board/$(player_at 499999)?around=0" | head -c 300))"
timed "player medals (1 board)" "/players/$(player_at 499999)/medals"
for sort in newest plays rating hardest easiest; do timed "browse $sort (of $LEVELS)" "/levels?sort=$sort&limit=20"; done
timed "browse rating, offset 1000" "/levels?sort=rating&limit=20&offset=1000"
timed "search \"level 4242\" (11 levels)" "/levels?q=level%204242"
timed "search \"bulk\" (every level)" "/levels?q=bulk"
timed "search \"42\" (2 characters)" "/levels?q=42"
echo "== load average after the reads: $(cat /proc/loadavg)"
echo "== plans"
echo "-- browse by rating (migration 4: along levels_by_rating):"
sql "$explain SELECT l.hash FROM levels l LEFT JOIN players p ON p.key = l.author_key \
     WHERE l.hidden = 0 AND (p.hidden IS NULL OR p.hidden = 0) ORDER BY \
     (l.rating_sum * 1.0 / (CASE WHEN l.rating_count = 0 THEN 1 ELSE l.rating_count END)) DESC, l.hash LIMIT 20"
BOARD="level_hash = '$LEVEL' AND sim_version = $VERSION AND assisted = 0"
echo "-- a deep page, from the time board_times gives its first row (only the page is named):"
sql "$explain SELECT b.player_key, p.name, b.ticks, b.run_id FROM (SELECT player_key, ticks, run_id \
     FROM best_runs WHERE $BOARD AND ticks >= 50167 ORDER BY ticks, run_id LIMIT 10 OFFSET 3) b \
     JOIN players p ON p.key = b.player_key ORDER BY b.ticks, b.run_id"
echo "-- a place: the player's row, the players ahead and the board's size (from board_times):"
SPAN="b.ticks / 256 * 256"
SUM="SELECT CAST(COALESCE(SUM(players), 0) AS BIGINT) FROM board_times"
sql "$explain SELECT l.author_ticks, b.ticks, b.run_id, \
     (($SUM WHERE $BOARD AND width_ticks = 256 AND start_ticks < $SPAN) \
      + ($SUM WHERE $BOARD AND width_ticks = 1 AND start_ticks >= $SPAN AND start_ticks < b.ticks) \
      + (SELECT COUNT(*) FROM best_runs a WHERE $BOARD AND a.ticks = b.ticks AND a.run_id < b.run_id)), \
     ($SUM WHERE $BOARD AND width_ticks = 256) \
     FROM levels l LEFT JOIN best_runs b ON b.level_hash = l.hash AND b.sim_version = $VERSION \
     AND b.assisted = 0 AND b.player_key = '$(player_at 0)' WHERE l.hash = '$LEVEL' AND l.hidden = 0"
echo "-- board_times rows of the big board (spans of 256 ticks, exact times):"
sql "SELECT width_ticks, COUNT(*) FROM board_times WHERE $BOARD GROUP BY width_ticks"
echo "-- a place's neighbours (two seeks from the player's (ticks, run)):"
sql "$explain SELECT n.player_key, p.name, n.ticks, n.run_id FROM ( \
     SELECT * FROM (SELECT player_key, ticks, run_id FROM best_runs WHERE $BOARD AND ticks <= 50000 \
       AND (ticks < 50000 OR run_id < 5) ORDER BY ticks DESC, run_id DESC LIMIT 5) ahead UNION ALL \
     SELECT * FROM (SELECT player_key, ticks, run_id FROM best_runs WHERE $BOARD AND ticks >= 50000 \
       AND (ticks > 50000 OR run_id >= 5) ORDER BY ticks, run_id LIMIT 11) behind \
     ) n JOIN players p ON p.key = n.player_key ORDER BY n.ticks, n.run_id"
grep -E 'VmHWM' /proc/$SERVER/status
echo "== integrity (board_times against best_runs):"
"$BIN" integrity | grep -E 'board_times|integrity_check'

