#!/usr/bin/env bash
# Regenerates the README's screenshot with the game's own screenshot mode: a solution replay
# played under Xvfb with Mesa software GL, captured at a fixed tick (the simulation, animation
# and effects all advance on ticks, so the same tick gives the same picture).
# Usage: scripts/screenshots.sh   (or ./build.sh screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CARGO_TARGET_DIR:-target}/release/tether
cargo build --release
mkdir -p docs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shot() { # replay tick output
    LIBGL_ALWAYS_SOFTWARE=1 TETHER_LOW_DPI=1 TETHER_AUDIO=off timeout 120 \
        xvfb-run -a -s "-screen 0 1280x720x24" \
        "$BIN" --replay "levels/solutions/$1.ron" --screenshot "$work/shot.png" --at-tick "$2" \
        | grep screenshot
    # The same pixels without the alpha channel and at zlib's best: half the bytes to commit.
    python3 scripts/thumbnail.py "$work/shot.png" "$3" 1
}
# The README's first picture: swinging between the rings of level 3 over the spikes.
shot 03_chain 300 docs/screenshot.png
