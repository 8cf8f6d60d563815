#!/usr/bin/env bash
# Tether Online through the real screens under Xvfb, against a real tether-server on a free
# loopback port with a fresh SQLite folder (killed at the end, pass or fail). A fresh player
# goes online under a name (--online-name), plays level 1 from the title by its solution
# (--autoplay): the complete screen's online line reaches "on the board at rank 1 of 1" and
# the board names them. A second player on another device plays it too and ranks 2 of 2, and
# the first player's run is the one just ahead of theirs.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
BIN=$TARGET/release/tether
SERVER=$TARGET/release/tether-server
[ -x "$BIN" ] || cargo build --release --bin tether
[ -x "$SERVER" ] || cargo build --release -p tether-server
out=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$out"
}
trap cleanup EXIT
fail() { echo "online test FAILED: $*" >&2; exit 1; }

mkfifo "$out/server.out"
TETHER_PORT=0 TETHER_DATA_DIR="$out/data" TETHER_LEVELS_DIR=levels TETHER_DIST_DIR="$out/no-dist" \
    "$SERVER" >"$out/server.out" 2>"$out/server.err" &
server_pid=$!
exec 3<"$out/server.out"
read -r first <&3 || fail "the server printed nothing"
url=${first##*listening on }
url=${url%% *}
# Keep draining the server's stdout so it never blocks on a full pipe.
cat <&3 >/dev/null &
case "$url" in http://127.0.0.1:*) echo "ok: server at $url" ;; *) fail "server said: $first" ;; esac

run_player() {
    local name=$1
    XDG_CONFIG_HOME="$out/$name" LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 timeout 180 \
        xvfb-run -a -s "-screen 0 1280x720x24" "$BIN" --server "$url" --online-name "$name" \
        --menu-script MenuDown,MenuConfirm,MenuConfirm --autoplay \
        --screenshot "$out/$name.png" 2>&1 | tee "$out/$name.log"
}

run_player Ada
grep -q "^online: on the board at rank 1 of 1" "$out/Ada.log" \
    || fail "Ada's run is not on the board at rank 1: $(grep '^online' "$out/Ada.log" | tr '\n' '|')"
echo "ok: Ada's run is on the board at rank 1 of 1"
run_player Bob
grep -q "^online: on the board at rank 2 of 2" "$out/Bob.log" \
    || fail "Bob's run is not on the board at rank 2: $(grep '^online' "$out/Bob.log" | tr '\n' '|')"
echo "ok: Bob's run is on the board at rank 2 of 2"

hash=$(sha256sum levels/01_first_swing.ron | cut -d' ' -f1)
python3 - "$url" "$hash" <<'PY' || fail "the board is not Ada then Bob"
import json, sys, urllib.request
url, level = sys.argv[1], sys.argv[2]
board = json.load(urllib.request.urlopen(f"{url}/api/v1/levels/{level}/board?limit=10"))
names = [(e["rank"], e["name"]) for e in board["entries"]]
assert names == [(1, "Ada"), (2, "Bob")], names
bob = board["entries"][1]["player"]
place = json.load(urllib.request.urlopen(f"{url}/api/v1/levels/{level}/board/{bob}?around=1"))
ahead = [e for e in place["around"] if e["rank"] == place["rank"] - 1]
assert ahead and ahead[0]["name"] == "Ada", place
print("ok: board", names, "- the run just ahead of Bob's is Ada's, run", ahead[0]["run"])
PY
