#!/usr/bin/env bash
# Hot reload under Xvfb: `tether play FILE` runs while this script rewrites FILE; each change is
# seen by its effect in the game's log (the level's new contents, whether the player was kept),
# never by a sleep alone: a good edit reloads keeping the player, a syntax error and a semantic
# error are reported (FILE:LINE:COL, the object) while the last good version runs on, and an
# edit that puts a solid where the player stands respawns them.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CARGO_TARGET_DIR:-target}/release/tether
[ -x "$BIN" ] || cargo build --release
out=$(mktemp -d)
game_pid=
xvfb_pid=
cleanup() {
    if [ -n "$game_pid" ]; then kill "$game_pid" 2>/dev/null || true; fi
    if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi
    rm -rf "$out"
}
trap cleanup EXIT
export XDG_CONFIG_HOME="$out/config"
fail() {
    echo "hot reload test FAILED: $*" >&2
    echo "--- game log" >&2
    cat "$out/game.log" >&2 || true
    exit 1
}
level="$out/level.ron"
write_level() { # $1: floor centre y, $2: spawn y, $3: extra solids
    cat >"$level.tmp" <<RON
Level(
    name: "Reloading",
    spawn: (0.0, $2),
    goal: (min: (40.0, 0.0), max: (42.0, 3.0)),
    solids: [
        (shape: Box(center: (0.0, $1), half_extents: (50.0, 1.0))),$3
    ],
)
RON
    mv "$level.tmp" "$level"
}
# Waits (up to 60 s) for a line matching $1 after line $2 of the log; prints its line number.
wait_for() {
    local pattern=$1 after=$2
    for _ in $(seq 600); do
        local n
        n=$(tail -n +"$((after + 1))" "$out/game.log" | grep -n -m1 -E "$pattern" | cut -d: -f1 || true)
        if [ -n "$n" ]; then echo $((after + n)); return 0; fi
        kill -0 "$game_pid" 2>/dev/null || fail "the game stopped while waiting for: $pattern"
        sleep 0.1
    done
    fail "no line matching: $pattern"
}

write_level -1.0 1.0 ""
# The X server is ours and the game this script's own child, with no wrapper between (no
# xvfb-run, timeout or setsid): `wait` then reads the game's own status, so a crash at any moment
# — even just after the last reload line — is told apart from the end our signal asks for.
# Xvfb picks a free display and writes its number when it is ready to take clients.
Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp 3>"$out/display" 2>"$out/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$out/display" ] && break; sleep 0.1; done
[ -s "$out/display" ] || fail "Xvfb did not start: $(cat "$out/xvfb.log")"
export DISPLAY=":$(head -n1 "$out/display")"
LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 TETHER_AUDIO=off "$BIN" play "$level" >"$out/game.log" 2>&1 &
game_pid=$!
at=$(wait_for "^screen: playing level.ron" 0)
echo "ok: playing the file"

# A wall far away: reloads, the player stays where they are.
write_level -1.0 1.0 "
        (shape: Box(center: (20.0, 3.0), half_extents: (0.5, 3.0))),"
at=$(wait_for "^reload: .*level.ron: ok: 2 solids, .*player kept" "$at")
echo "ok: $(sed -n "${at}p" "$out/game.log")"

# A syntax error: reported with its line and column; play goes on with the last good level.
printf 'Level(\n    name: "Reloading",\n    spawn: (0.0, 1.0,\n' >"$level"
at=$(wait_for "^reload: .*level.ron:[0-9]+:[0-9]+: " "$at")
echo "ok: $(sed -n "${at}p" "$out/game.log")"

# A semantic error: the object is named.
write_level -1.0 1.0 "
        (shape: Circle(center: (5.0, 5.0), radius: 0.0)),"
at=$(wait_for "^reload: .*solids\[1\]" "$at")
echo "ok: $(sed -n "${at}p" "$out/game.log")"

# The floor raised through the player (and the spawn above it): reloads, the player respawns.
write_level 0.5 6.0 ""
at=$(wait_for "^reload: .*level.ron: ok: 1 solids, .*player respawned" "$at")
echo "ok: $(sed -n "${at}p" "$out/game.log")"

# The floor back down: the game reloads again, so it lived through the respawn.
write_level -1.0 1.0 ""
at=$(wait_for "^reload: .*level.ron: ok: 1 solids, " "$at")
echo "ok: $(sed -n "${at}p" "$out/game.log")"

# Stopped by us, the game must end by our signal and nothing else: a crash (a signal, an abort,
# a non-zero exit) fails here even when it printed no "panicked", and even when it lands between
# the last reload line and our signal, because the status is the game's own.
kill -TERM "$game_pid" 2>/dev/null || true
status=0
wait "$game_pid" || status=$?
game_pid=
# 143 = 128 + SIGTERM: ended by our signal (the game has no quit command while playing a file).
[ "$status" -eq 143 ] || fail "the game ended with status $status, not by our SIGTERM (143)"
if grep -qi "panick" "$out/game.log"; then fail "the game panicked"; fi
echo "ok: hot reload test passed"
