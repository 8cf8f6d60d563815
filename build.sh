#!/usr/bin/env bash
# Tether's one entry point.
#   ./build.sh run     build (release) and play
#   ./build.sh test    everything CI runs but the crosscheck: lint, unit/integration tests,
#                      replays, render smoke test under Xvfb, the browser tests, the browser zip
#                      on a static host and the MP3 loops in the browser
#   ./build.sh bench   criterion benches and the rope stats table
#   ./build.sh web     build the browser version into dist/
#   ./build.sh online-bytes  what Tether Online adds to the browser's tether.wasm (gzipped),
#                      built both ways (cargo feature `online` on and off)
#   ./build.sh serve   serve dist/ on http://127.0.0.1:8080
#   ./build.sh server  Tether Online (docs/online.md): the API and dist/ on http://127.0.0.1:8787,
#                      SQLite in tether-data/ (DATABASE_URL=postgres://... for PostgreSQL)
#   ./build.sh dist [linux|arm64|windows|web]...
#                      release archives named with the version into dist-release/ (default: all
#                      four; Linux x86-64 and arm64 .tar.gz, Windows .zip, the browser .zip)
#   ./build.sh crosscheck   every solution replay gives the native outcome and hash from the
#                      Windows .exe under Wine and the arm64 build under qemu-user (CI runs it
#                      after `test`; it installs Wine, qemu-user and the cross toolchains)
#   ./build.sh check FILE...   validate level files
#   ./build.sh fuzz [CASES]    the property tests at CASES fresh-seeded cases each (default 500;
#                              minutes, not in CI), printing how many were tried
#   ./build.sh screenshots     regenerate the README's screenshot (a replay under Xvfb)
#   ./build.sh thumbnails      regenerate docs/levels.md and its level thumbnails
# System packages that are missing are installed with apt-get when we may (root or sudo);
# otherwise the exact command to run is printed.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)

# Each step says how long the run has taken so far (bash's SECONDS), so a slow step shows in
# CI's log.
log() { printf '\033[1m==> [%dm%02ds] %s\033[0m\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

# The native game as `cargo build --release` leaves it: cargo's target folder is
# CARGO_TARGET_DIR when set (as in scripts/*.sh), else target/.
NATIVE_BIN="${CARGO_TARGET_DIR:-target}/release/tether"

# as_root CMD...: runs CMD as root, through sudo if needed; fails with advice if neither works.
as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"
    else
        echo "error: this needs root. Run:  sudo $*" >&2
        return 1
    fi
}

APT_UPDATED=0
# need_debs PKG...: installs the Debian packages that are not installed yet.
need_debs() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null; then
        echo "error: missing system packages: ${missing[*]} (install them with your package manager)" >&2
        return 1
    fi
    log "installing ${missing[*]}"
    # A failed install stops here naming the packages and the command that installs them, so a
    # fresh machine (CI's) says what it lacks instead of failing later in a compiler or linker.
    if [ "$APT_UPDATED" = 0 ]; then
        as_root apt-get update -qq || { apt_failed "${missing[@]}"; return 1; }
        APT_UPDATED=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" || { apt_failed "${missing[@]}"; return 1; }
}

# apt_failed PKG...: the error for packages apt-get could not install.
apt_failed() {
    echo "error: could not install the system packages: $*" >&2
    echo "error: install them, then run this again:  sudo apt-get update && sudo apt-get install --no-install-recommends $*" >&2
    case " $* " in
        *":arm64 "*)
            echo "error: (the :arm64 packages need Debian's arm64 architecture: sudo dpkg --add-architecture arm64;" \
                "on Ubuntu, arm64 packages come from ports.ubuntu.com, which sources.list must name)" >&2 ;;
    esac
}

need_rust() {
    if ! command -v cargo >/dev/null; then
        echo "error: Rust is missing. Install rustup (https://rustup.rs), then run this again." >&2
        exit 1
    fi
}

# Native build needs: a C toolchain, pkg-config, ALSA headers (rodio's audio backend) and udev
# headers (gilrs's gamepad backend on Linux).
native_deps() {
    need_rust
    need_debs pkg-config libasound2-dev libudev-dev
}

# Run-time libraries the window needs (X11 + GL are loaded at run time, not linked).
runtime_deps() {
    need_debs libx11-6 libxi6 libgl1 libegl1
}

cmd_run() {
    native_deps
    runtime_deps || true
    cargo build --release
    exec "$NATIVE_BIN" "$@"
}

# The browser build's steps (web_build, web_serve, web_test) live in scripts/web.sh, which only
# defines functions. (Other scripts/*.sh are standalone programs and must not be sourced.)
# It is part of the game: a checkout without it is broken, and says so rather than skipping
# the browser test.
if [ ! -f scripts/web.sh ]; then
    echo "error: scripts/web.sh is missing (the browser build and test live there)" >&2
    exit 1
fi
# shellcheck source=scripts/web.sh
. scripts/web.sh
# The release archives and the cross-platform check (dist_build, crosscheck), likewise.
# shellcheck source=scripts/release.sh
. scripts/release.sh

# As root, pg_virtualenv makes its throw-away cluster in the system's own place, as
# /etc/postgresql/<version>/regress, and refuses to start while one exists. A run killed before
# its clean-up leaves one behind (marked .by_pg_virtualenv), and every later run on that machine
# would then fail. The lock keeps two runs on one machine from sharing the name, so a marked
# cluster found while holding it is always such a left-over, and is dropped.
server_tests_on_throwaway_postgres() {
    (
        flock 9
        local marker version
        for marker in /etc/postgresql/*/regress/.by_pg_virtualenv; do
            [ -f "$marker" ] || continue
            version=$(basename "$(dirname "$(dirname "$marker")")")
            log "dropping the throw-away cluster $version/regress a killed run left behind"
            # The marker goes first, as in pg_virtualenv's own clean-up: pg_dropcluster leaves
            # a folder that still holds a file it does not know.
            rm -f "$marker"
            if [ -f "/etc/postgresql/$version/regress/postgresql.conf" ]; then
                pg_ctlcluster --mode immediate "$version" regress stop 2>/dev/null || true
                pg_dropcluster "$version" regress
            fi
            if [ -d "/etc/postgresql/$version/regress" ]; then
                rmdir "/etc/postgresql/$version/regress"
            fi
        done
        local tests=()
        mapfile -t tests < <(workspace_executables server test)
        if [ ${#tests[@]} -eq 0 ]; then
            echo "error: cargo built no tether-server integration tests" >&2
            return 1
        fi
        # cargo runs a package's tests in the package's folder; so do we.
        (cd server && TETHER_TEST_POSTGRES=1 pg_virtualenv sh -c \
            'for test in "$@"; do echo "running $test"; "$test" || exit 1; done' sh "${tests[@]}")
    ) 9>/tmp/tether-pg_virtualenv.lock
}

# workspace_executables DIR KIND [NAME]: the paths of the programs `cargo test --release
# --workspace` builds (it builds them first if they are not up to date) of the package in DIR
# (relative to the checkout: ., sim, server, proto), of cargo's target KIND (bin, test,
# example) and, if given, named NAME; one a line. Later steps run these rather than ask cargo
# for one package (`-p tether-server`): cargo resolves features for the packages it is asked
# for, so `-p` asked for other features of shared crates (serde, tokio, the sqlx drivers) than
# the workspace build did, and recompiled them, the server and its tests (5 min 51 s of a cold
# run here for the PostgreSQL tests, 1 min 5 s more for the browser's online test).
workspace_executables() {
    cargo test --release --workspace --no-run --quiet --message-format=json \
        | python3 -c '
import json, os, sys
package_dir, kind = sys.argv[1:3]
name = sys.argv[3] if len(sys.argv) > 3 else None
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") != "compiler-artifact" or not message.get("executable"):
        continue
    target = message["target"]
    here = os.path.relpath(os.path.dirname(message["manifest_path"]))
    # A bin is built twice: the program, and its unit tests (a test harness); only the former.
    harness = message["profile"]["test"] and kind != "test"
    if (here == package_dir and target["kind"] == [kind] and name in (None, target["name"])
            and not harness):
        print(message["executable"])
' "$@"
}

cmd_test() {
    native_deps
    log "format and lint"
    rustup component add rustfmt clippy >/dev/null 2>&1 || true
    cargo fmt --all -- --check
    cargo clippy --release --workspace --all-targets -- -D warnings
    rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown \
        || rustup target add wasm32-unknown-unknown
    cargo clippy --release --target wasm32-unknown-unknown --lib --bins -- -D warnings
    log "unit and integration tests (release build, reused below)"
    cargo test --release --workspace
    log "server tests again on PostgreSQL (a throw-away cluster; pg_virtualenv also works as root)"
    need_debs postgresql postgresql-common
    server_tests_on_throwaway_postgres
    log "levels pass check"
    "$NATIVE_BIN" check levels/*.ron
    log "solution replays reach their goals (headless)"
    for replay in levels/solutions/*.ron; do
        "$NATIVE_BIN" replay "$replay"
    done
    log "render smoke test under Xvfb"
    scripts/render_smoke_test.sh
    log "campaign walk-through under Xvfb (title, level select, a level, complete; a broken save)"
    scripts/menu_walk_test.sh
    log "hot reload under Xvfb (a played file rewritten: good, broken, fixed)"
    scripts/hot_reload_test.sh
    log "level editor under Xvfb (a level made, saved and checked; a test play kept as its proof)"
    scripts/editor_test.sh
    log "a new player's path: the Linux archive unpacked elsewhere, a fresh HOME, under Xvfb"
    scripts/new_player_test.sh
    log "Tether Online through the screens under Xvfb (two players on a real tether-server)"
    scripts/online_test.sh
    log "browser test"
    web_test
    log "Tether Online in the browser (headless Chromium on a real tether-server serving dist/)"
    web_online_test
    log "the browser zip on a static host (unpacked, served from a subfolder, played)"
    web_zip_test
    log "the MP3 loops loop without a gap in the browser (gapless tags honoured)"
    python3 scripts/release_audio_loop_test.py --browser chromium
    log "all tests passed"
}

# The property tests of tests/prop_*.rs with more cases and fresh seeds than CI's fixed few.
cmd_fuzz() {
    native_deps
    local cases=${1:-500}
    case "$cases" in ''|*[!0-9]*) echo "usage: ./build.sh fuzz [CASES]" >&2; exit 2 ;; esac
    log "property tests, $cases cases each, fresh seeds"
    # TETHER_DUMP_FAILURE: a failing stream is also written as a replay to watch.
    TETHER_FUZZ_CASES=$cases TETHER_DUMP_FAILURE=${TETHER_DUMP_FAILURE:-fuzz_failure.ron} \
        cargo test --release --no-fail-fast --test prop_sim --test prop_files -- --nocapture
    # Issue 32's figures (rope axis depth, the solver's energy, the fastest player) over about
    # CASES fresh random streams in all: rope_streams plays TETHER_FUZZ_CASES streams per level
    # (TETHER_DUMP_WORST=DIR keeps the worst streams as replays).
    local per_level=$(( (cases + 23) / 24 ))
    log "rope streams, $per_level fresh streams per level"
    TETHER_FUZZ_CASES=$per_level \
        cargo test --release --no-fail-fast --test rope_streams -- --nocapture
}

cmd_bench() {
    native_deps
    log "rope stats (reference vs ours, same run)"
    cargo run --release --example rope_stats
    log "criterion benches (rope: ref-gs80 beside ours; step: one full tick)"
    cargo bench --profile release --bench rope
    cargo bench --profile release --bench step
}

# Tether Online's server (server/): needs no system libraries, only Rust.
cmd_server() {
    need_rust
    cargo build --release -p tether-server
    exec "${CARGO_TARGET_DIR:-target}/release/tether-server" "$@"
}

case "${1:-}" in
    run) shift; cmd_run "$@" ;;
    server) shift; cmd_server "$@" ;;
    test) shift; cmd_test "$@" ;;
    bench) shift; cmd_bench "$@" ;;
    web) shift; web_build "$@" ;;
    online-bytes) shift; web_online_bytes "$@" ;;
    dist) shift; dist_build "$@" ;;
    crosscheck) shift; crosscheck "$@" ;;
    serve) shift; web_serve "$@" ;;
    screenshots) shift; native_deps; scripts/screenshots.sh "$@" ;;
    thumbnails) shift; native_deps; scripts/thumbnails.sh "$@" ;;
    check) shift; native_deps; cargo build --release; "$NATIVE_BIN" check "$@" ;;
    fuzz) shift; cmd_fuzz "$@" ;;
    # The usage is the comment block at the top of this file, all of it.
    *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
esac
