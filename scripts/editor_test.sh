#!/usr/bin/env bash
# The level editor under Xvfb, driven by editor scripts (the same input path as the mouse and
# keys): builds a level from nothing, saves it and checks it with `tether check`; edits it again
# (the first save keeps FILE.bak); test-plays a copy of level 1 from the editor with its solution
# (--autoplay) and keeps the run as the level's solution, which `tether replay` then proves;
# saves, undoes and saves again; makes a level in "My levels" from the title menu.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CARGO_TARGET_DIR:-target}/release/tether
[ -x "$BIN" ] || cargo build --release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CONFIG_HOME="$out/config"
rgb() { grep -E "pub const $1: Rgb" src/app/palette.rs | sed -E 's/.*Rgb\(([0-9]+), ([0-9]+), ([0-9]+)\).*/\1,\2,\3/'; }
run_game() {
    LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 TETHER_AUDIO=off timeout 180 \
        xvfb-run -a -s "-screen 0 1280x720x24" "$BIN" "$@" 2>&1
}
fail() { echo "editor test FAILED: $*" >&2; exit 1; }

# 1. A new level: the template's floor, plus a solid (dragged up 2 m), two rings (the second
#    undone), a new name typed into the level's panel; saved.
level="$out/made.ron"
run_game edit "$level" --screenshot "$out/editor.png" --editor-script "
    palette solid; click 4 3; drag 4 3 4 5;
    palette ring; click 2 7; palette ring; click 6 7; key undo;
    key escape; field name; type Made By Script; key enter;
    key save" | tee "$out/edit.log"
grep -q "^screen: editor" "$out/edit.log" || fail "the editor did not open"
[ -f "$level" ] || fail "nothing was saved to $level"
check=$("$BIN" check "$level") || fail "the saved level does not pass check: $check"
echo "$check"
case "$check" in
    *'"Made By Script", 2 solids, 0 hazards, 1 grapple points'*) echo "ok: the level has what was made" ;;
    *) fail "the saved level is not what the script made: $check" ;;
esac
grep -q "center: (4.0, 5.0)" "$level" || fail "the dragged solid is not at (4, 5): $(cat "$level")"
[ ! -e "$level.bak" ] || fail "a new file needs no backup"
python3 scripts/png_colors.py "$out/editor.png" "spawn=$(rgb PLAYER):40" "ring=$(rgb GRAPPLE_POINT):20"

# 2. Editing it again: delete the dragged solid (a click selects it), save. The first save
#    keeps the file as it was in FILE.bak.
cp "$level" "$out/before.ron"
run_game edit "$level" --screenshot "$out/editor2.png" --editor-script "
    click 4 5; key delete; key save" | tee "$out/edit2.log"
cmp -s "$level.bak" "$out/before.ron" || fail "FILE.bak is not the file as it was"
check=$("$BIN" check "$level") || fail "the edited level does not pass check: $check"
case "$check" in
    *"1 solids, 0 hazards, 1 grapple points"*) echo "ok: deleted, saved, old file kept as .bak" ;;
    *) fail "after the delete: $check" ;;
esac

# 3. Undo after a save: a ring added and saved, then undone. The editor's level is no longer
#    the file's, so Escape asks (the first Escape only puts the ring tool down); saving again
#    writes the level without the ring; FILE.bak stays the file as it was before the session's
#    first save, not that save's. Every check is made, then all that failed are named.
cp "$level" "$out/before_undo.ron"
rm -f "$level.bak"
run_game edit "$level" --screenshot "$out/undo.png" --editor-script "
    palette ring; click 6 7; key save; key undo; key escape; key escape; key save" \
    | tee "$out/undo.log"
problems=()
[ "$(grep -c '^editor: saved' "$out/undo.log")" -eq 2 ] || problems+=("it did not save twice")
grep -q "^editor: unsaved changes" "$out/undo.log" \
    || problems+=("Escape after a save and an undo did not ask about unsaved changes")
cmp -s "$level.bak" "$out/before_undo.ron" \
    || problems+=("FILE.bak is not the file as it was before the first save")
check=$("$BIN" check "$level") || problems+=("the level saved after the undo does not pass check")
case "$check" in
    *"1 solids, 0 hazards, 1 grapple points"*) ;;
    *) problems+=("the second save did not write the undone level: $check") ;;
esac
[ ${#problems[@]} -eq 0 ] || fail "save, undo, save: $(printf '%s; ' "${problems[@]}")"
echo "ok: save, undo: Escape asks; save again writes the undone level, FILE.bak kept right"

# 4. Proof of play: level 1 copied out, test-played from the editor (its solution drives the
#    player), the run saved as the level's solution from the complete screen.
mkdir -p "$out/proof/solutions"
cp levels/01_first_swing.ron "$out/proof/"
# The shipped solution drives the test play (--autoplay plays the level's solution); dated in
# the past, so its rewrite by the save is seen.
cp levels/solutions/01_first_swing.ron "$out/proof/solutions/"
touch -d "2001-01-01" "$out/proof/solutions/01_first_swing.ron"
run_game edit "$out/proof/01_first_swing.ron" --autoplay --menu-script MenuConfirm \
    --screenshot "$out/proof.png" --editor-script "key test" | tee "$out/proof.log"
grep -q "^screen: complete 01_first_swing.ron" "$out/proof.log" || fail "the test play did not finish"
solution="$out/proof/solutions/01_first_swing.ron"
[ "$solution" -nt "$out/before.ron" ] || fail "the run was not saved as the solution"
grep -q "^editor: .*is the level's solution" "$out/proof.log" || fail "the save was not reported"
[ -f "$out/proof/01_first_swing.ron.bak" ] || fail "the level saved with its proof kept no .bak"
ours=$("$BIN" replay "$solution") || fail "the saved solution does not reach the goal: $ours"
shipped=$("$BIN" replay levels/solutions/01_first_swing.ron)
[ "${ours#*: }" = "${shipped#*: }" ] || fail "the saved run ($ours) differs from the shipped one ($shipped)"
echo "ok: the test play's run is the level's solution: ${ours#*: }"

# 5. "My levels" from the title menu: a new level made and saved there lands in the config
#    folder's levels/, passes check, and Escape (twice: it has unsaved changes after the second
#    solid) leaves the editor for the list, which shows it.
title_to_my_levels="MenuDown,MenuDown,MenuDown,MenuDown,MenuDown,MenuConfirm"
run_game --menu-script "$title_to_my_levels,MenuConfirm" --screenshot "$out/shelf.png" \
    --editor-script "
    palette solid; click 4 3; key escape; field name; type Shelf Made; key enter; key save;
    palette ring; click 2 7; key escape; key escape; key escape; wait 20" | tee "$out/shelf.log"
kept="$XDG_CONFIG_HOME/tether/levels/new_level.ron"
[ -f "$kept" ] || fail "the level made from My levels was not kept in $kept"
check=$("$BIN" check "$kept") || fail "the kept level does not pass check: $check"
case "$check" in
    *'"Shelf Made", 2 solids, 0 hazards, 0 grapple points'*) echo "ok: kept in My levels: $check" ;;
    *) fail "the kept level is not what the script made: $check" ;;
esac
grep -q "^editor: unsaved changes" "$out/shelf.log" || fail "leaving with unsaved changes was not asked"
[ "$(grep -c '^screen: my levels' "$out/shelf.log")" -ge 2 ] || fail "Escape did not go back to My levels"
grep -q "^my levels: 1 kept in .*: new_level$" "$out/shelf.log" || fail "My levels did not list it"
if [ -n "${TETHER_KEEP_SCREENSHOT:-}" ]; then cp "$out/editor.png" "$TETHER_KEEP_SCREENSHOT"; fi
echo "ok: editor test passed"
