#!/usr/bin/env bash
# A new player's path: the Linux release archive unpacked into a fresh folder whose path has a
# space and a non-ASCII letter, with a fresh HOME, started under Xvfb from another working
# folder. Checks that it knows its version, that the title screen shows (screenshot: the title's
# colours), that level 1's solution plays to the level-complete screen, and that the progress is
# saved in the per-user folder under that HOME (and nothing is written beside the game).
#   scripts/new_player_test.sh [ARCHIVE]   (default: made now with `./build.sh dist linux`, so
#                                           it holds the checkout's game and data)
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKOUT=$(pwd)
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
ARCHIVE=${1:-}
if [ -z "$ARCHIVE" ]; then
    ./build.sh dist linux
    ARCHIVE=dist-release/tether-$VERSION-linux-x86_64.tar.gz
fi
ARCHIVE=$(realpath "$ARCHIVE")
fail() { echo "new player test FAILED: $*" >&2; exit 1; }
rgb() { grep -E "pub const $1: Rgb" src/app/palette.rs | sed -E 's/.*Rgb\(([0-9]+), ([0-9]+), ([0-9]+)\).*/\1,\2,\3/'; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
games="$out/My gämes"
mkdir -p "$games" "$out/home" "$out/elsewhere"
tar -C "$games" -xzf "$ARCHIVE"
game="$games/tether-$VERSION-linux-x86_64"
[ -x "$game/tether" ] || fail "the archive has no tether-$VERSION-linux-x86_64/tether"
before=$(cd "$game" && find . | sort)

# A fresh player: their own HOME and nothing else of ours in the environment.
run_game() {
    (cd "$out/elsewhere" && env -u XDG_CONFIG_HOME -u CARGO_TARGET_DIR HOME="$out/home" \
        LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 timeout 180 \
        xvfb-run -a -s "-screen 0 1280x720x24" "$game/tether" "$@" 2>&1)
}

expected_version="tether $VERSION (simulation version $(sed -n 's/^pub const SIM_VERSION: u32 = \([0-9]*\);/\1/p' sim/src/lib.rs))"
got_version=$(cd "$out/elsewhere" && "$game/tether" --version)
[ "$got_version" = "$expected_version" ] || fail "--version printed \"$got_version\", not \"$expected_version\""
echo "ok: $got_version"

# The title screen: the rope-coloured title and ring on the dusk backdrop.
run_game --menu-script MenuDown --screenshot "$out/title.png" | tee "$out/title.log"
grep -q "^screen: title" "$out/title.log" || fail "the title screen did not show"
# Its own data, not the checkout's it was built from (which the game falls back to).
grep -qxF "data folder: $game" "$out/title.log" \
    || fail "the game did not use the data beside it: $(grep "^data folder:" "$out/title.log")"
python3 "$CHECKOUT/scripts/png_colors.py" "$out/title.png" "title=$(rgb ROPE):400"

# Play, level select, level 1 played by its solution to the level-complete screen (the
# screenshot there ends the run).
run_game --menu-script MenuDown,MenuConfirm,MenuConfirm --autoplay --screenshot "$out/complete.png" \
    | tee "$out/play.log"
grep -q "^screen: complete 01_first_swing.ron ticks=" "$out/play.log" \
    || fail "level 1's solution did not reach the level-complete screen"
save="$out/home/.config/tether/progress.ron"
[ -f "$save" ] || fail "no progress saved at $save"
grep -q '"01_first_swing.ron"' "$save" || fail "the save does not hold level 1: $(cat "$save")"
echo "ok: progress saved in $save"
after=$(cd "$game" && find . | sort)
[ "$before" = "$after" ] || fail "the game wrote beside itself: $(diff <(echo "$before") <(echo "$after"))"
echo "ok: nothing written in the game's folder"
if [ -n "${TETHER_KEEP_SCREENSHOT:-}" ]; then cp "$out/title.png" "$TETHER_KEEP_SCREENSHOT"; fi
echo "new player test passed"
