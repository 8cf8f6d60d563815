#!/usr/bin/env bash
# Regenerates docs/levels.md and its thumbnails: every campaign level's solution replay played
# under Xvfb with the game's own screenshot mode, captured halfway through, shrunk to 320×180.
# Usage: scripts/thumbnails.sh   (or ./build.sh thumbnails)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CARGO_TARGET_DIR:-target}/release/tether
cargo build --release --bin tether --example levels_table
mkdir -p docs/levels
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=$(python3 -c '
import re
t = re.sub(r"//[^\n]*", "", open("levels/index.ron", encoding="utf-8").read())
print(" ".join(re.findall(r"file:\s*\"([^\"]+)\"", t)))')
for file in $files; do
    stem=${file%.ron}
    ticks=$("$BIN" replay "levels/solutions/$file" 2>/dev/null | sed -E 's/.*ticks=([0-9]+).*/\1/')
    LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 TETHER_AUDIO=off timeout 120 \
        xvfb-run -a -s "-screen 0 1280x720x24" \
        "$BIN" --replay "levels/solutions/$file" --screenshot "$work/$stem.png" \
        --at-tick $((ticks / 2)) | grep "^screenshot at"
    python3 scripts/thumbnail.py "$work/$stem.png" "docs/levels/$stem.png" 4
done
"${CARGO_TARGET_DIR:-target}/release/examples/levels_table" >docs/levels.md
echo "docs/levels.md and docs/levels/*.png regenerated"
