#!/usr/bin/env bash
# Render smoke test: plays a solution replay in a real window under Xvfb with Mesa software GL,
# saves a screenshot while the rope is attached, and checks that the rope's and the player's
# colours are on screen. Installs xvfb (and the GL/X libraries) from Debian when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CARGO_TARGET_DIR:-target}/release/tether
[ -x "$BIN" ] || cargo build --release
if ! command -v xvfb-run >/dev/null; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        xvfb xauth libgl1-mesa-dri libgl1 libegl1 libx11-6 libxi6
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Colours come from src/app/palette.rs, so the test follows the palette.
rgb() { grep -E "pub const $1: Rgb" src/app/palette.rs | sed -E 's/.*Rgb\(([0-9]+), ([0-9]+), ([0-9]+)\).*/\1,\2,\3/'; }
ROPE=$(rgb ROPE)
PLAYER=$(rgb PLAYER)
# The tick comes from the replay itself (midway between its first fire and the next release, the
# rule the browser test uses), so a re-recorded solution cannot move the shot off the swing.
REPLAY=levels/solutions/01_first_swing.ron
TICK=$(python3 -c 'import sys; sys.path.insert(0, "scripts"); import web_test
print(web_test.choose_hold_tick(sys.argv[1]))' "$REPLAY")
# An odd tick: a screenshot frame runs two ticks, and the hold must stop on the tick asked for.
TICK=$((TICK | 1))
echo "screenshot of $REPLAY at tick $TICK (mid first swing)"
LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 timeout 120 xvfb-run -a -s "-screen 0 1280x720x24" \
    "$BIN" --replay "$REPLAY" --screenshot "$out/shot.png" --at-tick "$TICK" 2>&1 | tee "$out/game.log"
python3 scripts/png_colors.py "$out/shot.png" "rope=$ROPE:150" "player=$PLAYER:200"
# The game logs where it drew the player and the rope's anchor on the saved frame: the level
# must be drawn, the player there, and the rope's pixels along the line between the two.
LAYOUT=$(grep -m1 "screenshot layout:" "$out/game.log" || true)
if [ -z "$LAYOUT" ]; then
    echo "error: the game logged no screenshot layout" >&2
    exit 1
fi
case "$LAYOUT" in
    *"tick=$TICK "*) ;;
    *) echo "error: asked for tick $TICK, the screenshot shows: $LAYOUT" >&2; exit 1 ;;
esac
python3 -c 'import sys; sys.path.insert(0, "scripts"); import web_test
try:
    print("ok:", web_test.check_shot(sys.argv[1], web_test.read_palette("src/app/palette.rs"), sys.argv[2]))
except web_test.TestFailure as err:
    sys.exit(f"render smoke test FAILED: {err}")' "$out/shot.png" "$LAYOUT"
if [ -n "${TETHER_KEEP_SCREENSHOT:-}" ]; then cp "$out/shot.png" "$TETHER_KEEP_SCREENSHOT"; fi
