#!/bin/sh
# The mixed load run (docs/online.md, "Load"): seeds a database, serves it, prepares signed
# writes (prepare.py) and drives 200 connections with wrk (mixed.lua, one connection per wrk
# thread so it can time each kind of request apart), then a board-read-only run, and prints the
# load average (sampled every 2 s during each run), the server's peak memory and how the queue
# judged the writes. The server and wrk run at nice -15 when the script may raise priority
# (root), so compilers sharing the machine yield to the measurement.
#   server/load/run.sh OUT_DIR                       SQLite in OUT_DIR/data
#   pg_virtualenv server/load/run.sh OUT_DIR         a throw-away PostgreSQL
# Two mixed runs: one paced at PACED_READS reads and PACED_WRITES signed writes a second (the
# figure for a load of that size: latencies from when each request was due, see mixed.lua),
# one unpaced (the most the server answers). Each gets freshly signed writes (a nonce is single
# use).
# Run from the checkout, after `cargo build --release -p tether-server`.
set -eu
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
WRITES_EACH=${WRITES_EACH:-1500}
SECONDS_EACH=${SECONDS_EACH:-15}
CLIENTS=${CLIENTS:-200}
# 3,100 reads/s are about 2,170 board tops a second (70 % of reads). 100 writes/s (a third
# each valid, forged faster and badly signed) are 2.9 million valid runs a day.
PACED_READS=${PACED_READS:-3100}
PACED_WRITES=${PACED_WRITES:-100}
PRIORITY=""
if [ "$(id -u)" = 0 ]; then PRIORITY="nice -n -15"; fi
BIN=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/tether-server
LOAD=$(pwd)/server/load
export TETHER_DATA_DIR="$OUT/data" TETHER_PORT=18787 TETHER_LEVELS_DIR="$(pwd)/levels"
export TETHER_DIST_DIR="$OUT/no-dist"
# Every client is 127.0.0.1 here: the per-address limit would refuse the load itself.
export TETHER_RATE_PER_ADDR=1000000 TETHER_RATE_PER_KEY=1000
rm -rf "$OUT/data"
if [ -n "${PGHOST:-}" ]; then
    createdb tether_load
    export DATABASE_URL="postgres://$PGUSER:$PGPASSWORD@$PGHOST:${PGPORT:-5432}/tether_load"
    sql() { psql -qtA -d tether_load -c "$1"; }
else
    sql() { sqlite3 "$OUT/data/tether.db" "$1"; }
fi
echo "== seed"; /usr/bin/time -f "seed: %e s, peak %M KB" "$BIN" seed 10000 200 100000
SEEDED_RUNS=$(sql "SELECT MAX(id) FROM runs")
$PRIORITY "$BIN" > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
until grep -q listening "$OUT/server.log"; do sleep 0.2; done
BASE=http://127.0.0.1:18787
cd "$OUT"
prepare() { echo "== prepare"; python3 "$LOAD/prepare.py" "$BASE" "$TETHER_LEVELS_DIR" "$WRITES_EACH" 10000; }
prepare
BOARD=$(awk -F'\t' '$1 == "board" { print $3; exit }' requests.tsv)
# Runs the command after $1 while writing the 1-minute load average to $1 every 2 s; prints
# the range it took.
with_load_samples() {
    SAMPLES=$1; shift
    ( while :; do cut -d' ' -f1 /proc/loadavg; sleep 2; done ) > "$SAMPLES" &
    SAMPLER=$!
    "$@"
    kill $SAMPLER
    echo "== load average during the run: $(sort -n "$SAMPLES" | head -1) to $(sort -n "$SAMPLES" | tail -1)"
}
echo "== $(git -C "$LOAD" rev-parse --short HEAD 2>/dev/null || echo "?"), $(nproc) cores," \
    "board cache TTL ${TETHER_BOARD_CACHE_MS:-1000} ms (TETHER_BOARD_CACHE_MS), $CLIENTS clients," \
    "${SECONDS_EACH} s each, $WRITES_EACH writes of each kind"
echo "== load average before: $(cat /proc/loadavg)"
echo "== mixed, paced at $PACED_READS reads and $PACED_WRITES writes a second: wrk -t$CLIENTS -c$CLIENTS -d${SECONDS_EACH}s --latency -s mixed.lua -- $CLIENTS $PACED_READS $PACED_WRITES"
with_load_samples load-paced.txt $PRIORITY wrk -t"$CLIENTS" -c"$CLIENTS" -d"${SECONDS_EACH}s" \
    --latency -s "$LOAD/mixed.lua" "$BASE" -- "$CLIENTS" "$PACED_READS" "$PACED_WRITES" | tee paced.txt
grep -E 'VmHWM|VmRSS' /proc/$SERVER/status
echo "== waiting for the paced run's queue"
while [ "$(sql "SELECT COUNT(*) FROM runs WHERE status = 'pending'")" != 0 ]; do sleep 1; done
prepare
echo "== mixed, unpaced: wrk -t$CLIENTS -c$CLIENTS -d${SECONDS_EACH}s --latency -s mixed.lua -- $CLIENTS"
with_load_samples load-mixed.txt $PRIORITY wrk -t"$CLIENTS" -c"$CLIENTS" -d"${SECONDS_EACH}s" \
    --latency -s "$LOAD/mixed.lua" "$BASE" -- "$CLIENTS" | tee mixed.txt
grep -E 'VmHWM|VmRSS' /proc/$SERVER/status
echo "== board reads only: wrk -t2 -c$CLIENTS -d${SECONDS_EACH}s --latency $BASE$BOARD"
with_load_samples load-reads.txt $PRIORITY wrk -t2 -c"$CLIENTS" -d"${SECONDS_EACH}s" \
    --latency "$BASE$BOARD" | tee reads.txt
grep -E 'VmHWM|VmRSS' /proc/$SERVER/status
if [ -n "${PGHOST:-}" ]; then
    echo "== the server's PostgreSQL connections, by TLS (t) or not (f):"
    psql -qtA -d tether_load -c "SELECT s.ssl, s.version, COUNT(*) FROM pg_stat_ssl s \
        JOIN pg_stat_activity a USING (pid) WHERE a.datname = 'tether_load' \
        AND a.pid <> pg_backend_pid() GROUP BY s.ssl, s.version"
fi
echo "== waiting for the queue"
while [ "$(sql "SELECT COUNT(*) FROM runs WHERE status = 'pending'")" != 0 ]; do sleep 1; done
echo "== submissions judged (ticks 177 = valid, 150 = forged faster):"
sql "SELECT ticks, status, COUNT(*) FROM runs WHERE id > $SEEDED_RUNS GROUP BY ticks, status ORDER BY ticks"
# The load is only a measurement if the writes were judged as meant: every valid run stored
# and verified, every forged one refused (a valid run refused, say for a stale sim_version,
# would make the writes cheap 400s and the figures meaningless).
MISJUDGED=$(sql "SELECT COUNT(*) FROM runs WHERE id > $SEEDED_RUNS AND \
    ((ticks = 177 AND status <> 'verified') OR (ticks = 150 AND status <> 'refused'))")
STORED=$(sql "SELECT COUNT(*) FROM runs WHERE id > $SEEDED_RUNS")
echo "== writes stored: $STORED, misjudged: $MISJUDGED"
if [ "$STORED" = 0 ] || [ "$MISJUDGED" != 0 ]; then
    echo "the writes were not judged as meant: this run measures nothing" >&2
    exit 1
fi
grep -E 'VmHWM|VmRSS' /proc/$SERVER/status
