#!/usr/bin/env bash
# Tether Online through the real screens under Xvfb, against a real tether-server on a free
# loopback port with a fresh SQLite folder (killed at the end, pass or fail). A fresh player
# turns online on in the title's Online settings and names themselves on the name-entry
# screen (a menu script's Type:NAME), plays level 1 from the title by its solution
# (--autoplay): the complete screen's online line reaches "on the board at rank 1 of 1" and
# the complete screen's Board shows them at rank 1, and her recovery code goes on the clipboard
# (read back). A second player on another device first
# tries the taken name (asked again with the server's reason), sets the ghost menu to "the run
# just ahead of mine", plays level 1 by the same solution after a second of idle ticks (slower
# in ticks, so rank 2 is earned by time), ranks 2 of 2, and on a retry races the first player's
# run. A gamepad player names themselves on the character picker.
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

# The title's items: Play, Level select, Ghost, Controls, Assists, My levels, Online levels,
# Online, Quit. From Play, two MenuUp reach Online; its first item turns online on, which
# opens the name entry for a player without a name.
NAME_ONLINE="MenuUp,MenuUp,MenuConfirm,MenuConfirm"
# Back on the title (at Online): the Ghost item is five up; three presses from "your best
# run" reach "the run just ahead of mine"; two up again is Play.
GHOST_AHEAD="MenuUp,MenuUp,MenuUp,MenuUp,MenuUp,MenuConfirm,MenuConfirm,MenuConfirm,MenuUp,MenuUp"
# On the complete screen (Next, Retry, Level select, Board): up to Board, open it, back.
BOARD="MenuUp,MenuConfirm,MenuBack"

# Bob's autoplay waits this many ticks before level 1's solution: the same path, finished later.
BOB_IDLE_TICKS=60

run_player() {
    local name=$1 script=$2 idle_ticks=${3:-0}
    XDG_CONFIG_HOME="$out/$name" LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 timeout 180 \
        xvfb-run -a -s "-screen 0 1280x720x24" "$BIN" --server "$url" \
        --menu-script "$script" --autoplay --autoplay-idle-ticks "$idle_ticks" \
        --screenshot "$out/$name.png" 2>&1 | tee "$out/$name.log"
}

run_player Ada "$NAME_ONLINE,Type:Ada,MenuBack,MenuDown,MenuDown,MenuConfirm,$BOARD"
grep -q '^online: as Ada$' "$out/Ada.log" || fail "Ada did not name herself on the name-entry screen"
grep -q "^online: on the board at rank 1 of 1" "$out/Ada.log" \
    || fail "Ada's run is not on the board at rank 1: $(grep '^online' "$out/Ada.log" | tr '\n' '|')"
grep -q "^board: 01_first_swing.ron: .*you: rank 1 of 1 .*> #1 Ada " "$out/Ada.log" \
    || fail "the complete screen's board does not show Ada at rank 1: $(grep '^board' "$out/Ada.log")"
echo "ok: Ada named herself, her run is on the board at rank 1 of 1 and her board says so"

# Bob tries the taken name first, then his own; after his first finish he retries (Board is
# left on Retry two up) and races the run just ahead of his.
run_player Bob "$NAME_ONLINE,Type:Ada,Type:Bob,MenuBack,$GHOST_AHEAD,MenuConfirm,$BOARD,MenuUp,MenuUp,MenuConfirm" \
    "$BOB_IDLE_TICKS"
grep -q '^online: name "Ada" refused: ' "$out/Bob.log" || fail "the taken name Ada was not refused for Bob"
grep -q '^online: as Bob$' "$out/Bob.log" || fail "Bob was not asked again after the taken name"
grep -q "^online: on the board at rank 2 of 2" "$out/Bob.log" \
    || fail "Bob's run is not on the board at rank 2: $(grep '^online' "$out/Bob.log" | tr '\n' '|')"
grep -q "^board: 01_first_swing.ron: .*you: rank 2 of 2 .*> #2 Bob " "$out/Bob.log" \
    || fail "Bob's board does not show him at rank 2: $(grep '^board' "$out/Bob.log")"
grep -q "^ghost: racing ahead (01_first_swing.ron): Ada's run " "$out/Bob.log" \
    || fail "Bob's retry does not race Ada's run: $(grep '^ghost' "$out/Bob.log" | tr '\n' '|')"
echo "ok: Bob ranks 2 of 2 and races the run just ahead of his: Ada's"

hash=$(sha256sum levels/01_first_swing.ron | cut -d' ' -f1)
python3 - "$url" "$hash" "$BOB_IDLE_TICKS" <<'PY' || fail "the board is not Ada then Bob, Bob slower than Ada"
import json, sys, urllib.request
url, level, bob_idle_ticks = sys.argv[1], sys.argv[2], int(sys.argv[3])
board = json.load(urllib.request.urlopen(f"{url}/api/v1/levels/{level}/board?limit=10"))
names = [(e["rank"], e["name"]) for e in board["entries"]]
assert names == [(1, "Ada"), (2, "Bob")], names
ada_ticks, bob_ticks = (e["ticks"] for e in board["entries"])
# Rank 2 earned by time: Bob's run is slower than Ada's, not only sent second.
assert ada_ticks < bob_ticks, (ada_ticks, bob_ticks)
print(f"ok: Ada {ada_ticks} ticks, Bob {bob_ticks} ticks ({bob_idle_ticks} idle ticks first)")
bob = board["entries"][1]["player"]
place = json.load(urllib.request.urlopen(f"{url}/api/v1/levels/{level}/board/{bob}?around=1"))
ahead = [e for e in place["around"] if e["rank"] == place["rank"] - 1]
assert ahead and ahead[0]["name"] == "Ada", place
print("ok: board", names, "- the run just ahead of Bob's is Ada's, run", ahead[0]["run"])
PY

# Ada's recovery code, from the Online settings: the desktop says "copied" only when the
# clipboard reads the code back (Xvfb has a clipboard, so anything else is a failure here).
cp -r "$out/Ada" "$out/AdaCode"
run_player AdaCode "MenuUp,MenuUp,MenuConfirm,MenuDown,MenuDown,MenuDown,MenuConfirm" >/dev/null
grep -q '^online: recovery code copied to the clipboard$' "$out/AdaCode.log" \
    || fail "Ada's recovery code did not go on the clipboard: $(grep '^online' "$out/AdaCode.log" | tr '\n' '|')"
echo "ok: Ada's recovery code is on the clipboard, read back"

# A gamepad player names themselves on the name entry's character picker: A types the "A" the
# grid starts on, right and A type "B", Start sends "AB".
run_player Pad "MenuUp,MenuUp,MenuConfirm,MenuConfirm,Pad:MenuConfirm,Pad:MenuRight,Pad:MenuConfirm,Pad:Pause" >/dev/null
grep -q '^online: as AB$' "$out/Pad.log" \
    || fail "the gamepad did not name its player AB: $(grep '^online' "$out/Pad.log" | tr '\n' '|')"
echo "ok: a gamepad typed the name AB on the picker and went online with it"
