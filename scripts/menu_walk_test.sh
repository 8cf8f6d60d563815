#!/usr/bin/env bash
# The campaign's walk-through under Xvfb: from the title screen, through the level select, into
# level 1 (played by its solution replay: --autoplay), to the level-complete screen, with a fresh
# config folder. Checks the screens in the order the game logged them, the saved progress (level 1
# finished with the author medal and its time, the run kept as the best-run ghost), and the
# complete screen's pixels (the author medal's colour on the panel). A second start with a broken
# save checks that it is kept aside and reported, not lost.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CARGO_TARGET_DIR:-target}/release/tether
[ -x "$BIN" ] || cargo build --release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CONFIG_HOME="$out/config"
rgb() { grep -E "pub const $1: Rgb" src/app/palette.rs | sed -E 's/.*Rgb\(([0-9]+), ([0-9]+), ([0-9]+)\).*/\1,\2,\3/'; }
run_game() {
    LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 timeout 180 xvfb-run -a -s "-screen 0 1280x720x24" \
        "$BIN" "$@" 2>&1
}
fail() { echo "menu walk test FAILED: $*" >&2; exit 1; }

# Title: Play is first, Level select second. Down, Enter: the level select; Enter: level 1-1.
run_game --menu-script MenuDown,MenuConfirm,MenuConfirm --autoplay \
    --screenshot "$out/complete.png" | tee "$out/game.log"
screens=$(grep -o "^screen: .*" "$out/game.log" | tr '\n' '|')
expected="screen: title|screen: level select|screen: playing 01_first_swing.ron|screen: complete 01_first_swing.ron ticks="
case "$screens" in
    "$expected"*) echo "ok: screens in order: $screens" ;;
    *) fail "screens were: $screens" ;;
esac
author=$(python3 -c '
import re
t = open("levels/index.ron").read()
print(re.search(r"file:\s*\"01_first_swing.ron\",\s*author_ticks:\s*(\d+)", t).group(1))')
grep -q "screen: complete 01_first_swing.ron ticks=$author medal=author" "$out/game.log" \
    || fail "level 1 did not finish in its author time $author with the author medal"
save="$XDG_CONFIG_HOME/tether/progress.ron"
[ -f "$save" ] || fail "no progress saved at $save"
python3 - "$save" "$author" <<'PY' || fail "the saved progress is not what was played"
import re, sys
text = open(sys.argv[1]).read()
entry = re.search(r'"01_first_swing.ron":\s*\((.*?)\)\s*,?\s*\n\s*[}\)]', text, re.S)
assert entry, text
body = entry.group(1)
assert re.search(r"finished:\s*true", body), body
assert re.search(r"best_ticks:\s*(Some\()?%s" % sys.argv[2], body), body
assert re.search(r"medal:\s*(Some\()?Author", body), body
print("ok: progress saved:", " ".join(body.split()))
PY
[ -s "$XDG_CONFIG_HOME/tether/ghosts/01_first_swing.ron" ] || fail "the best run was not kept as a ghost"
echo "ok: best run kept as the ghost ($(wc -c <"$XDG_CONFIG_HOME/tether/ghosts/01_first_swing.ron") bytes)"
python3 scripts/png_colors.py "$out/complete.png" "author-medal=$(rgb MEDAL_AUTHOR):200"

# A broken save: kept aside, reported on the title screen, play starts fresh.
echo "(version: 1, levels: {" >"$save"
run_game --menu-script MenuDown --screenshot "$out/title.png" | tee "$out/broken.log"
grep -q "^progress: .*progress.ron.corrupt-1" "$out/broken.log" || fail "the broken save was not reported"
[ "$(cat "$save.corrupt-1")" = "(version: 1, levels: {" ] || fail "the broken save was not kept"
python3 scripts/png_colors.py "$out/title.png" "notice=$(rgb ERROR_TEXT):40"
if [ -n "${TETHER_KEEP_SCREENSHOT:-}" ]; then cp "$out/complete.png" "$TETHER_KEEP_SCREENSHOT"; fi
echo "ok: menu walk test passed"
