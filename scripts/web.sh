# shellcheck shell=bash
# The browser build. Sourced by build.sh (which provides log, need_debs, need_rust and ROOT, and
# runs with `set -euo pipefail`); defines only functions.
#   web_build  ./build.sh web    release wasm32 build assembled into dist/
#   web_serve  ./build.sh serve  serve dist/ on http://127.0.0.1:8080 (PORT=... to change)
#   web_test   (./build.sh test) headless Chromium plays level 1's solution and is checked
#   web_online_test (./build.sh test, after web_test: reuses dist/) Tether Online in headless
#              Chromium against a real tether-server serving dist/ (scripts/web_online_test.py)
#              TETHER_WEB_TEST_REPLAY=FILE  use FILE as level 1's solution (served in its place)
#              TETHER_WEB_TEST_HOLD=T       screenshot tick (default: mid first swing)

WEB_TARGET=wasm32-unknown-unknown
# Cargo profile for the browser (Cargo.toml [profile.web]: release, tuned for size).
WEB_PROFILE=web
# The download's budget is on everything a first visit fetches before the title screen,
# gzipped (index.html, the loader and plugins, tether.wasm, the sounds loaded before the
# title): at most 1.0 MB, checked by the browser test (scripts/web_test.py, FIRST_VISIT_MAX_GZ).

# web_cargo_info: prints two lines, the cargo target directory (respects CARGO_TARGET_DIR and
# cargo config) and the folder of the macroquad crate locked in Cargo.lock (its js/ holds the
# loader), as resolved for the wasm target.
web_cargo_info() {
    cargo metadata --format-version 1 --filter-platform "$WEB_TARGET" | python3 -c '
import json, os, sys
meta = json.load(sys.stdin)
by_id = {p["id"]: p for p in meta["packages"]}
root = meta["resolve"]["root"]
node = next(n for n in meta["resolve"]["nodes"] if n["id"] == root)
mq = [by_id[d] for d in node["dependencies"] if by_id[d]["name"] == "macroquad"]
if len(mq) != 1:
    sys.exit("cargo metadata: expected one macroquad dependency, found %d" % len(mq))
print(meta["target_directory"])
print(os.path.dirname(mq[0]["manifest_path"]))
'
}

# web_plugin_tags: one <script> tag per miniquad plugin in web/, in load order: the query
# plugin, then the audio plugin when present, then any other *_plugin.js (alphabetical).
web_plugin_tags() {
    local name seen=" "
    for name in query_plugin.js audio_plugin.js; do
        if [ -f "web/$name" ]; then
            printf '<script src="%s"></script>\n' "$name"
            seen="$seen$name "
        fi
    done
    for path in web/*_plugin.js; do
        [ -f "$path" ] || continue
        name=$(basename "$path")
        case "$seen" in *" $name "*) continue ;; esac
        printf '<script src="%s"></script>\n' "$name"
    done
}

web_build() {
    need_rust
    need_debs gzip python3 binaryen
    if ! rustup target list --installed 2>/dev/null | grep -qx "$WEB_TARGET"; then
        log "adding the Rust target $WEB_TARGET"
        rustup target add "$WEB_TARGET"
    fi
    # One module, the game and the level editor: the editor's page (`?edit`) loads it too.
    log "building the game for the browser ($WEB_TARGET, profile $WEB_PROFILE)"
    cargo build --profile "$WEB_PROFILE" --target "$WEB_TARGET" --bin tether

    web_assemble
    local raw gz
    log "shrinking tether.wasm (wasm-opt -Oz, rustc's wasm32 features only)"
    web_shrink dist/tether.wasm dist/tether.wasm
    raw=$(wc -c <dist/tether.wasm)
    gz=$(gzip -9 -c dist/tether.wasm | wc -c)
    printf 'tether.wasm: %d bytes raw (%.2f MB), %d bytes gzipped (%.2f MB)\n' \
        "$raw" "$(bc_div "$raw")" "$gz" "$(bc_div "$gz")"
    python3 scripts/wasm_imports.py dist/tether.wasm
    log "browser build ready in dist/: ./build.sh serve, then open http://127.0.0.1:8080"
}

# web_shrink IN OUT [WASM-OPT FLAG...]: Binaryen's size pass at -Oz: about 12 % off what rustc and the linker
# leave. Careful with --all-features: at -Oz this Binaryen (108) emitted typed function
# references, which browsers reject ("invalid value type"); enable only rustc's wasm32 features
# (sign-ext, mutable-globals, nontrapping-float-to-int, bulk-memory, multivalue,
# reference-types, and simd128, which .cargo/config.toml turns on). It keeps IEEE float
# semantics (no --fast-math), so replays stay bit-equal; the browser test checks that on every
# level.
web_shrink() {
    local -a oz_features=(--enable-sign-ext --enable-mutable-globals
        --enable-nontrapping-float-to-int --enable-bulk-memory --enable-multivalue
        --enable-reference-types --enable-simd)
    wasm-opt -Oz "${oz_features[@]}" "${@:3}" "$1" -o "$2"
}

# web_online_bytes (./build.sh online-bytes): what Tether Online adds to the browser's
# download, exactly: tether.wasm built as `./build.sh web` builds it (profile web, wasm-opt
# -Oz), with and without the cargo feature `online` (off, nothing of it is reachable, so
# nothing of it is linked), both gzipped -9; prints both and the difference. Leaves the two
# modules in target/online-bytes/ (for twiggy: WEB_KEEP_NAMES=1 keeps the name section).
web_online_bytes() {
    need_rust
    need_debs gzip binaryen
    local target_dir wasm out with without
    target_dir=$(web_cargo_info | sed -n 1p)
    wasm="$target_dir/$WEB_TARGET/$WEB_PROFILE/tether.wasm"
    out="$target_dir/online-bytes"
    mkdir -p "$out"
    local -a keep=()
    if [ -n "${WEB_KEEP_NAMES:-}" ]; then
        export CARGO_PROFILE_WEB_STRIP=false
        keep=(--debuginfo)
    fi
    for features in online none; do
        log "building tether.wasm with online: $features"
        if [ "$features" = online ]; then
            cargo build --profile "$WEB_PROFILE" --target "$WEB_TARGET" --bin tether
        else
            cargo build --profile "$WEB_PROFILE" --target "$WEB_TARGET" --bin tether \
                --no-default-features
        fi
        web_shrink "$wasm" "$out/tether-$features.wasm" ${keep[@]+"${keep[@]}"}
    done
    web_online_left_out "$out/tether-none.wasm" || return 1
    with=$(gzip -9 -c "$out/tether-online.wasm" | wc -c)
    without=$(gzip -9 -c "$out/tether-none.wasm" | wc -c)
    printf 'tether.wasm after wasm-opt -Oz, gzipped -9: %d bytes with online, %d without\n' \
        "$with" "$without"
    printf 'online adds %d bytes gzipped (%.1f KB) to tether.wasm\n' \
        "$((with - without))" "$(python3 -c "print(($with - $without) / 1000)")"
    printf 'web/net_plugin.js (loaded with every page): %d bytes gzipped\n' \
        "$(gzip -9 -c web/net_plugin.js | wc -c)"
}

# web_online_left_out MODULE: fails if the module built without online has sentences only
# online code says, one from each part of it (the run queue, the service's status line, the
# client, the Online levels list and detail, the board, Publish): the figure above is the
# difference of the two modules, so online code linked without online would go uncounted.
web_online_left_out() {
    local sentence found=0
    for sentence in "queued: sending the run" "online: name refused" \
        "not the JSON this request answers" "choose a name for online play first" \
        "cannot list levels" "cannot load its figures" "no runs on this board yet" \
        "published: everyone can find and play it"; do
        if grep -qaF "$sentence" "$1"; then
            echo "error: $1 (built without online) has online's \"$sentence\"" >&2
            found=1
        fi
    done
    return "$found"
}

# web_assemble: (re)creates dist/ from the last wasm build, web/, levels/ and assets/.
web_assemble() {
    local info target_dir macroquad_dir wasm loader
    info=$(web_cargo_info)
    target_dir=$(sed -n 1p <<<"$info")
    macroquad_dir=$(sed -n 2p <<<"$info")
    wasm="$target_dir/$WEB_TARGET/$WEB_PROFILE/tether.wasm"
    loader="$macroquad_dir/js/mq_js_bundle.js"
    [ -f "$wasm" ] || { echo "error: the build did not produce $wasm" >&2; return 1; }
    [ -f "$loader" ] || { echo "error: macroquad's JS loader is missing: $loader" >&2; return 1; }

    log "assembling dist/"
    rm -rf dist
    mkdir -p dist/levels
    # The loader comes from the crate version in Cargo.lock, fresh on every build, so the JS and
    # the wasm always agree.
    cp "$loader" dist/mq_js_bundle.js
    cp "$wasm" dist/tether.wasm
    cp web/*_plugin.js dist/
    local tags
    tags=$(web_plugin_tags)
    TAGS="$tags" python3 -c '
import os, sys
marker = "<!-- tether:plugins"
html = open("web/index.html", encoding="utf-8").read()
start = html.find(marker)
if start < 0:
    sys.exit("web/index.html: the plugin marker <!-- tether:plugins ... --> is missing")
end = html.index("-->", start) + 3
open("dist/index.html", "w", encoding="utf-8").write(html[:start] + os.environ["TAGS"] + html[end:])
'
    cp -R levels/. dist/levels/
    cp -R assets dist/assets
    echo "dist/: loader from $loader"
    echo "dist/index.html loads: mq_js_bundle.js $(tr '\n' ' ' <<<"$tags" | sed 's/<script src="\([^"]*\)"><\/script>/\1/g')then tether.wasm"
}

# bc_div BYTES: bytes as decimal megabytes (no bc on minimal machines).
bc_div() {
    python3 -c "import sys; print(int(sys.argv[1]) / 1e6)" "$1"
}

web_serve() {
    [ -f dist/index.html ] && [ -f dist/tether.wasm ] || web_build
    local port="${PORT:-8080}"
    log "serving dist/ on http://127.0.0.1:$port/ (try ?level=1&replay=1); Ctrl-C stops"
    python3 scripts/web_serve.py dist --bind 127.0.0.1 --port "$port"
}

# web_native_outcome FILE: the outcome line of the native headless replay runner.
web_native_outcome() {
    local target_dir
    target_dir=$(web_cargo_info | sed -n 1p)
    # Built by the earlier test step; a no-op then, a build when run on its own.
    if declare -F native_deps >/dev/null; then native_deps >&2; fi
    cargo build --release --bin tether >&2
    # The run's timing line (stderr) goes to WEB_NATIVE_TIMINGS, for the browser/native ratio.
    local err rc=0
    err=$(mktemp)
    "$target_dir/release/tether" replay "$1" 2>"$err" || rc=$?
    grep '^replay timing: ' "$err" >>"${WEB_NATIVE_TIMINGS:-/dev/null}" || true
    grep -v '^replay timing: ' "$err" >&2 || true
    rm -f "$err"
    return "$rc"
}

# web_level_file N: the file name of the campaign's level N (1-based) in levels/index.ron.
web_level_file() {
    python3 -c '
import re, sys
text = open("levels/index.ron", encoding="utf-8").read()
text = re.sub(r"//[^\n]*", "", text)
print(re.findall(r"file:\s*\"([^\"]+)\"", text)[int(sys.argv[1]) - 1])
' "$1"
}

# web_timing_ratios NATIVE BROWSER: each level's µs per tick in both, and browser / native.
web_timing_ratios() {
    python3 - "$1" "$2" <<'PY'
import re, sys
def read(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"(?:replay timing: )?(\S+): (\d+) ticks, ([\d.]+) µs per tick", line.strip())
        if m:
            out[m.group(1)] = float(m.group(3))
    return out
native, browser = read(sys.argv[1]), read(sys.argv[2])
for level in sorted(browser):
    if level in native and native[level] > 0:
        print(f"browser/native: {level}: {browser[level]:.1f} vs {native[level]:.1f} µs per tick = {browser[level] / native[level]:.2f}×")
PY
}

web_test() {
    need_debs chromium python3
    web_build

    local level_file solution expected
    level_file=$(web_level_file 1)
    solution="levels/solutions/$level_file"
    if [ -n "${TETHER_WEB_TEST_REPLAY:-}" ]; then
        # A stand-in solution (while the level's real one is being written): served in its place.
        echo "browser test: using $TETHER_WEB_TEST_REPLAY as the solution of $level_file"
        solution="$TETHER_WEB_TEST_REPLAY"
        mkdir -p dist/levels/solutions
        cp "$solution" "dist/levels/solutions/$level_file"
    fi
    if [ ! -f "$solution" ]; then
        echo "error: browser test: no solution replay $solution for level 1" >&2
        return 1
    fi
    if ! expected=$(web_native_outcome "$solution"); then
        echo "error: browser test: the native replay of $solution failed: $expected" >&2
        return 1
    fi
    echo "native:  $expected"

    # Every level's solution (level 1's again, played live to its end): the outcome and
    # final-state hash must match.
    local also=() index=0 other other_expected
    local native_timings browser_timings
    native_timings=$(mktemp)
    browser_timings=$(mktemp)
    for other in $(python3 -c '
import re
text = open("levels/index.ron", encoding="utf-8").read()
text = re.sub(r"//[^\n]*", "", text)
print(" ".join(re.findall(r"file:\s*\"([^\"]+)\"", text)))
'); do
        index=$((index + 1))
        if ! other_expected=$(WEB_NATIVE_TIMINGS="$native_timings" web_native_outcome "levels/solutions/$other"); then
            echo "error: browser test: the native replay of $other failed: $other_expected" >&2
            return 1
        fi
        also+=(--also "$index=$other_expected")
    done

    # A level link (the level's text in the URL fragment), made natively by `tether link`, of a
    # level that exists only in the link: the level that uses the most kinds of objects (moving
    # platforms, a switch-driven winch, vines, checkpoints), renamed and with its spawn moved,
    # so that neither the shipped level nor its hash can stand in for it, and padded with a
    # comment of random text to a code just under the 64 KiB a link may be. The page plays
    # level 16's solution on it; natively that replay is pointed at a copy of the level.
    local link_level=16 link_code link_dir link_expected target_dir
    target_dir=$(web_cargo_info | sed -n 1p)
    link_dir=$(mktemp -d "${TMPDIR:-/tmp}/tether-link.XXXXXX")
    mkdir -p "$link_dir/solutions"
    link_code=$(python3 - "levels/$(web_level_file "$link_level")" "$link_dir/linked.ron" \
        "$target_dir/release/tether" <<'PY'
import random, re, subprocess, sys
source, out, tether = sys.argv[1:4]
MAX_CODE = 64 * 1024
text = open(source, encoding="utf-8").read()
text = re.sub(r'name: "[^"]*"', 'name: "Only In The Link"', text, count=1)
text = re.sub(r"spawn: \(([-0-9.]+),", lambda m: f"spawn: ({float(m.group(1)) + 0.5},", text, count=1)
rng = random.Random(16)
alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
def code_with(pad):
    line = "".join(rng.choice(alphabet) for _ in range(pad))
    padded = text + "".join(f"// {line[i:i + 100]}\n" for i in range(0, len(line), 100))
    open(out, "w", encoding="utf-8").write(padded)
    # `tether link` refuses a code over the limit (exit 1), saying how long it would be.
    run = subprocess.run([tether, "link", out], capture_output=True, text=True)
    if run.returncode == 0:
        return run.stdout.strip(), len(run.stdout.strip()) - len("#level=")
    over = re.search(r"would be (\d+) bytes", run.stderr)
    if run.returncode != 1 or over is None:
        sys.exit(f"tether link failed: {run.stderr.strip()}")
    return None, int(over.group(1))
pad = MAX_CODE
for _ in range(20):
    code, size = code_with(pad)
    if code is not None and MAX_CODE - 256 <= size <= MAX_CODE:
        print(code)
        break
    pad += (MAX_CODE - 128 - size) * 95 // 100
else:
    sys.exit(f"no padding gave a code just under {MAX_CODE} bytes (last {size})")
PY
    ) || { echo "error: browser test: no level link just under the limit" >&2; return 1; }
    sed 's/^\([[:space:]]*\)level: "[^"]*",/\1level: "linked.ron",/' \
        "levels/solutions/$(web_level_file "$link_level")" >"$link_dir/solutions/linked.ron"
    # The moved spawn may keep the solution from the goal (`tether replay` exits 1 then): the
    # outcome line is what must match.
    link_expected=$(web_native_outcome "$link_dir/solutions/linked.ron") || true
    if ! grep -Eq 'goal=[a-z-]+ ticks=[0-9]+ deaths=[0-9]+ hash=[0-9a-f]{16}' <<<"$link_expected"; then
        echo "error: browser test: the native replay of the linked level gave no outcome: $link_expected" >&2
        return 1
    fi

    # Issue 10's weather workload (benches/levels/weather.ron, the step bench's level: 30 vines,
    # 4 banners, gusts) in the page and natively in the same run. The page plays level N's
    # solution on a linked level, so both sides play level 7's solution inputs (799 ticks) on
    # the weather level: natively that replay is pointed at a copy of the level.
    local workload_level=7 workload_dir workload_code workload_expected
    workload_dir=$(mktemp -d "${TMPDIR:-/tmp}/tether-weather.XXXXXX")
    mkdir -p "$workload_dir/solutions"
    cp benches/levels/weather.ron "$workload_dir/weather.ron"
    sed 's/^\([[:space:]]*\)level: "[^"]*",/\1level: "weather.ron",/' \
        "levels/solutions/$(web_level_file "$workload_level")" >"$workload_dir/solutions/weather.ron"
    # Level 7's inputs do not reach the weather level's goal, so `tether replay` exits 1 (it
    # exits 0 only at the goal): what must come out is its outcome line. Natively the level's
    # objects step on every core; the page has one thread. Both are timed: on one core (the
    # same work as the page's, for the compiled code's ratio) and on all of them, which must
    # also come to the same bits.
    local workload_all_cores
    workload_expected=$(RAYON_NUM_THREADS=1 WEB_NATIVE_TIMINGS="$workload_dir/timing" \
        web_native_outcome "$workload_dir/solutions/weather.ron") || true
    if ! grep -Eq 'goal=[a-z-]+ ticks=[0-9]+ deaths=[0-9]+ hash=[0-9a-f]{16}' <<<"$workload_expected"; then
        echo "error: browser test: the native weather workload gave no outcome: $workload_expected" >&2
        return 1
    fi
    workload_all_cores=$(WEB_NATIVE_TIMINGS="$workload_dir/timing_all_cores" \
        web_native_outcome "$workload_dir/solutions/weather.ron") || true
    if [ "$workload_all_cores" != "$workload_expected" ]; then
        echo "error: browser test: the weather workload on one core and on all of them differ:" \
            "$workload_expected / $workload_all_cores" >&2
        return 1
    fi
    workload_code=$("$target_dir/release/tether" link "$workload_dir/weather.ron")

    local work port server_pid=""
    work=$(mktemp -d "${TMPDIR:-/tmp}/tether-web-test.XXXXXX")
    # shellcheck disable=SC2064  # expand now: the trap must kill this server, this folder
    trap "web_test_cleanup '$work'" EXIT
    python3 scripts/web_serve.py dist --port 0 --port-file "$work/port" \
        --log "$work/requests.log" --quiet &
    server_pid=$!
    echo "$server_pid" >"$work/server.pid"
    for _ in $(seq 1 100); do
        [ -s "$work/port" ] && break
        kill -0 "$server_pid" 2>/dev/null || { echo "error: the test web server did not start" >&2; return 1; }
        sleep 0.1
    done
    port=$(cat "$work/port")
    python3 scripts/web_test.py --url "http://127.0.0.1:$port/" --work "$work" \
        --expected "$expected" --replay "$solution" --palette src/app/palette.rs \
        --requests "$work/requests.log" ${TETHER_WEB_TEST_HOLD:+--hold "$TETHER_WEB_TEST_HOLD"} \
        --timings "$browser_timings" "${also[@]}" --link "$link_level=$link_code" --link-expected "$link_expected" \
        --workload "$workload_level=$workload_code" --workload-expected "$workload_expected" \
        --workload-native-timing "$(cat "$workload_dir/timing")" \
        --workload-native-timing-all-cores "$(cat "$workload_dir/timing_all_cores")"
    # The simulation's cost per tick in the page against the native build, the same replays
    # (reported, never asserted: timings on shared machines are noise for a test).
    web_timing_ratios "$native_timings" "$browser_timings"
    rm -f "$native_timings" "$browser_timings"
    rm -rf "$workload_dir" "$link_dir"
    web_test_cleanup "$work"
    trap - EXIT
}

# web_online_test: two players go online by name in headless Chromium, play level 1 and reach
# the board; an online level opens from its link; no server, garbage, a 10 MB answer and one that
# never ends each end as a message. The test starts and stops its own tether-server (a free
# loopback port, a fresh data folder) serving dist/ as it is (built by web_test, else here).
web_online_test() {
    need_debs chromium python3
    [ -f dist/index.html ] && [ -f dist/tether.wasm ] || web_build
    local server
    # The server the workspace's tests were built with (build.sh's workspace_executables says
    # why not `cargo build -p tether-server`).
    server=$(workspace_executables server bin tether-server)
    [ -x "$server" ] || { echo "error: cargo built no tether-server" >&2; return 1; }
    python3 scripts/web_online_test.py --server "$server" --dist dist --levels levels
}

# web_test_cleanup DIR: stops the test's web server and removes its folder.
web_test_cleanup() {
    local pid
    if [ -f "$1/server.pid" ]; then
        pid=$(cat "$1/server.pid")
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
    rm -rf "$1"
}
