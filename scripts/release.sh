# shellcheck shell=bash
# Release archives and the cross-platform check. Sourced by build.sh (which provides log,
# need_debs, need_rust, ROOT and scripts/web.sh's web_build, and runs with `set -euo pipefail`);
# defines only functions.
#   dist_build   ./build.sh dist        every archive, named with the version, into dist-release/
#   crosscheck   ./build.sh crosscheck  every solution replay gives the native outcome and hash
#                                       from the Windows .exe under Wine and the arm64 build
#                                       under qemu-user
#   web_zip_test (./build.sh test)      the browser zip on a static host, from a subfolder URL
# Cross builds share cargo's target folder (CARGO_TARGET_DIR or target/; each target has its own
# subfolder); TETHER_CROSS_TARGET_DIR puts them elsewhere. They run under `nice` so a shared
# machine stays usable.

RELEASE_OUT=dist-release
WINDOWS_TARGET=x86_64-pc-windows-gnu
ARM64_TARGET=aarch64-unknown-linux-gnu
# The arm64 libraries' pkg-config files, from Debian's multiarch packages (libasound2-dev:arm64,
# libudev-dev:arm64); the libraries sit at their usual multiarch paths, so no sysroot prefix.
ARM64_PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
# What a Linux archive's binary may link (checked with readelf; everything else is a -dev
# package the player would not have). X11 and GL are loaded at run time by miniquad.
LINUX_ALLOWED_LIBS="libasound.so.2 libudev.so.1 libgcc_s.so.1 libm.so.6 libc.so.6 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1"
# What the .exe may import: DLLs every Windows 10/11 has.
WINDOWS_ALLOWED_DLLS="api-ms-win-core-winrt-l1-1-0.dll api-ms-win-shcore-scaling-l1-1-1.dll kernel32.dll ntdll.dll user32.dll gdi32.dll opengl32.dll ole32.dll oleaut32.dll advapi32.dll ws2_32.dll bcryptprimitives.dll shell32.dll winmm.dll xinput1_4.dll hid.dll setupapi.dll api-ms-win-core-synch-l1-2-0.dll combase.dll propsys.dll dwmapi.dll uxtheme.dll imm32.dll userenv.dll msvcrt.dll cfgmgr32.dll"

release_version() {
    sed -n 's/^version = "\(.*\)"$/\1/p' "$ROOT/Cargo.toml" | head -n 1
}

# cargo_target_dir: cargo's target folder (CARGO_TARGET_DIR, cargo's config, or target/).
cargo_target_dir() {
    cargo metadata --format-version 1 --no-deps | python3 -c \
        'import json, sys; print(json.load(sys.stdin)["target_directory"])'
}

# cross_target_dir: where cross builds go (TETHER_CROSS_TARGET_DIR, else cargo's target folder).
cross_target_dir() {
    if [ -n "${TETHER_CROSS_TARGET_DIR:-}" ]; then
        echo "$TETHER_CROSS_TARGET_DIR"
    else
        cargo_target_dir
    fi
}

# native_binary: builds the game for this machine (release); prints its path.
native_binary() {
    # `|| return`: callers run this in $(...), where bash does not apply `set -e`.
    cargo build --release --bin tether >&2 || return 1
    echo "$(cargo_target_dir)/release/tether"
}

# The Debian packages and Rust targets every cross build needs (arm64 multiarch included):
# linkers and binutils (objdump, readelf) for Windows and arm64, the arm64 C library to link
# against, and the arm64 ALSA and udev libraries with their pkg-config files; python3 reads
# cargo's target folder, binutils' readelf checks the Linux binary.
cross_deps() {
    native_deps
    need_debs python3 binutils gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 gcc-aarch64-linux-gnu \
        libc6-dev-arm64-cross binutils-aarch64-linux-gnu
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        log "adding Debian's arm64 architecture (multiarch) for the arm64 libraries"
        as_root dpkg --add-architecture arm64
        APT_UPDATED=0
    fi
    need_debs libasound2-dev:arm64 libudev-dev:arm64
    local target
    for target in "$WINDOWS_TARGET" "$ARM64_TARGET"; do
        rustup target list --installed 2>/dev/null | grep -qx "$target" && continue
        rustup target add "$target" || {
            echo "error: could not add the Rust target $target. Run:  rustup target add $target" >&2
            return 1
        }
    done
}

# build_for TARGET...: the release game (`--bin tether` only: no tests, no other binaries) for
# every TARGET in one cargo run, under nice; prints each binary's path, one a line. One run
# rather than one per target lets cargo keep both cores busy across the targets' crates. The
# pkg-config settings point at the arm64 multiarch libraries; no other target asks pkg-config.
build_for() {
    local dir target
    local -a target_args=()
    dir=$(cross_target_dir)
    for target in "$@"; do target_args+=(--target "$target"); done
    log "building for $*" >&2
    PKG_CONFIG_ALLOW_CROSS=1 PKG_CONFIG_SYSROOT_DIR=/ PKG_CONFIG_LIBDIR=$ARM64_PKG_CONFIG_LIBDIR \
        CARGO_TARGET_DIR=$dir nice -n 10 cargo build --release "${target_args[@]}" --bin tether >&2 \
        || return 1
    for target in "$@"; do
        case "$target" in
            *windows*) echo "$dir/$target/release/tether.exe" ;;
            *) echo "$dir/$target/release/tether" ;;
        esac
    done
}

# stage_game BINARY FOLDER: the game and its data, as a player unpacks it, in FOLDER.
stage_game() {
    local binary=$1 folder=$2
    rm -rf "$folder"
    mkdir -p "$folder"
    cp "$binary" "$folder/"
    cp -r "$ROOT/assets" "$ROOT/levels" "$folder/"
    cp "$ROOT/scripts/release_readme.txt" "$folder/README.txt"
}

# check_linux_libs BINARY READELF: fails when BINARY needs a shared library outside
# LINUX_ALLOWED_LIBS; prints the ones it needs.
check_linux_libs() {
    local binary=$1 readelf=$2 lib bad=0 needed
    needed=$("$readelf" -d "$binary" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
    echo "  $(basename "$(dirname "$(dirname "$binary")")"): needs $(echo "$needed" | tr '\n' ' ')"
    for lib in $needed; do
        case " $LINUX_ALLOWED_LIBS " in
            *" $lib "*) ;;
            *) echo "error: $binary needs $lib, which a stock desktop may not have" >&2; bad=1 ;;
        esac
    done
    return $bad
}

# check_windows_dlls EXE: fails when EXE imports a DLL outside WINDOWS_ALLOWED_DLLS (a mingw
# runtime DLL would be missing on a player's Windows).
check_windows_dlls() {
    local exe=$1 dll bad=0 imported
    imported=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z')
    echo "  windows: imports $(echo "$imported" | tr '\n' ' ')"
    for dll in $imported; do
        case " $WINDOWS_ALLOWED_DLLS " in
            *" $dll "*) ;;
            *) echo "error: $exe imports $dll, which Windows does not have" >&2; bad=1 ;;
        esac
    done
    return $bad
}

# check_windows_gui EXE: fails unless EXE is a GUI-subsystem program (src/main.rs's
# windows_subsystem): a console-subsystem one opens a console window beside the game when a
# player double-clicks it.
check_windows_gui() {
    local subsystem
    subsystem=$(x86_64-w64-mingw32-objdump -p "$1" | sed -n 's/^Subsystem[[:space:]]*//p')
    case "$subsystem" in
        *"(Windows GUI)"*) echo "  windows: GUI subsystem, no console window on a double-click" ;;
        *)
            echo "error: $1 is not a GUI-subsystem program (Subsystem ${subsystem:-unknown}):" \
                "a double-click would open a console window beside the game" >&2
            return 1
            ;;
    esac
}

# archive_tar FOLDER: FOLDER.tar.gz beside it, FOLDER's name as its one top folder.
archive_tar() {
    tar -C "$(dirname "$1")" -czf "$1.tar.gz" "$(basename "$1")"
    rm -rf "$1"
}

archive_zip() {
    (cd "$(dirname "$1")" && rm -f "$(basename "$1").zip" && zip -qr "$(basename "$1").zip" "$(basename "$1")")
    rm -rf "$1"
}

dist_linux_x86_64() {
    local version=$1 binary folder
    log "building for Linux x86-64"
    binary=$(native_binary)
    check_linux_libs "$binary" readelf
    folder="$ROOT/$RELEASE_OUT/tether-$version-linux-x86_64"
    stage_game "$binary" "$folder"
    archive_tar "$folder"
}

dist_linux_arm64() {
    local version=$1 binary folder
    binary=$(build_for "$ARM64_TARGET")
    check_linux_libs "$binary" aarch64-linux-gnu-readelf
    folder="$ROOT/$RELEASE_OUT/tether-$version-linux-arm64"
    stage_game "$binary" "$folder"
    archive_tar "$folder"
}

dist_windows() {
    local version=$1 exe folder
    exe=$(build_for "$WINDOWS_TARGET")
    check_windows_dlls "$exe"
    check_windows_gui "$exe"
    folder="$ROOT/$RELEASE_OUT/tether-$version-windows-x86_64"
    stage_game "$exe" "$folder"
    archive_zip "$folder"
}

# web_zip OUT: the last browser build (dist/) zipped as OUT (an absolute path) for any static
# host: dist/'s contents at the zip's root, so index.html is there and every path is relative.
web_zip() {
    rm -f "$1"
    (cd "$ROOT/dist" && zip -qr "$1" .)
}

dist_web() {
    local version=$1
    web_build
    log "browser zip"
    web_zip "$ROOT/$RELEASE_OUT/tether-$version-web.zip"
}

# web_zip_test (./build.sh test, after web_test, whose build it zips): the browser zip unpacked
# into a folder with a space in its path, served by `python3 -m http.server` from a subfolder
# URL, played in headless Chromium (scripts/release_web_zip_test.py).
web_zip_test() {
    need_debs zip chromium python3
    local scratch expected rc=0
    [ -f "$ROOT/dist/index.html" ] || web_build
    scratch=$(mktemp -d)
    web_zip "$scratch/tether-web.zip"
    expected=$(web_native_outcome "levels/solutions/$(web_level_file 1)")
    python3 "$ROOT/scripts/release_web_zip_test.py" --zip "$scratch/tether-web.zip" \
        --expected "$expected" || rc=$?
    rm -rf "$scratch"
    return $rc
}

# ./build.sh dist [linux|arm64|windows|web]...: the named archives (default: all).
dist_build() {
    local version kinds kind
    kinds=${*:-linux arm64 windows web}
    # Only the cross builds need the cross toolchains.
    case " $kinds " in
        *" arm64 "* | *" windows "*) cross_deps ;;
        *) native_deps ;;
    esac
    need_debs zip
    version=$(release_version)
    mkdir -p "$ROOT/$RELEASE_OUT"
    for kind in $kinds; do
        case "$kind" in
            linux) dist_linux_x86_64 "$version" ;;
            arm64) dist_linux_arm64 "$version" ;;
            windows) dist_windows "$version" ;;
            web) dist_web "$version" ;;
            *) echo "usage: ./build.sh dist [linux|arm64|windows|web]..." >&2; return 2 ;;
        esac
    done
    log "archives in $RELEASE_OUT/ (macOS: built on a Mac, see README.md)"
    ls -l "$ROOT/$RELEASE_OUT"
}

# The bcryptprimitives.dll stand-in Wine 8.0 lacks (scripts/wine_bcryptprimitives.c); for the
# test only, never shipped.
wine_prng_stub() {
    local out=$1
    x86_64-w64-mingw32-gcc -O2 -shared -o "$out/bcryptprimitives.dll" \
        "$ROOT/scripts/wine_bcryptprimitives.c" "$ROOT/scripts/wine_bcryptprimitives.def" \
        -ladvapi32
}

# replay_outcomes RUNNER...: `RUNNER tether replay levels/solutions/F.ron` for every solution,
# run in the current folder; prints each outcome line without the file name.
replay_outcomes() {
    local replay line
    for replay in levels/solutions/*.ron; do
        # A replay that misses its goal exits 1 but still prints its outcome, which is compared.
        line=$("$@" replay "$replay" 2>/dev/null | tr -d '\r' | sed 's/^[^:]*: //') || true
        echo "${line:-$replay: did not run}"
    done
}

# compare_outcomes NAME EXPECTED ACTUAL: fails and shows the difference when they differ.
compare_outcomes() {
    if [ "$2" = "$3" ]; then
        echo "  $1: all $(wc -l <<<"$3") solutions give the native outcome and hash"
    else
        echo "error: $1 differs from the native build:" >&2
        diff <(echo "$2") <(echo "$3") >&2 || true
        return 1
    fi
}

# ./build.sh crosscheck. After `./build.sh test` (as in CI) the native game is already built;
# only the two cross builds of the game binary are new work.
crosscheck() {
    cross_deps
    # wine64 runs the 64-bit .exe (no i386 Wine needed); qemu-user gives qemu-aarch64.
    need_debs wine wine64 qemu-user
    local native exe arm64 stage native_out out failed=0 binaries
    log "native"
    native=$(native_binary)
    native_out=$(cd "$ROOT" && time replay_outcomes "$native")
    binaries=$(build_for "$WINDOWS_TARGET" "$ARM64_TARGET")
    exe=$(sed -n 1p <<<"$binaries")
    arm64=$(sed -n 2p <<<"$binaries")
    check_windows_gui "$exe" || failed=1
    stage=$(mktemp -d)
    log "Windows .exe under Wine"
    stage_game "$exe" "$stage/windows"
    wine_prng_stub "$stage/windows"
    # A fresh prefix each run; Wine's Mono and Gecko (for .NET and HTML programs) are not
    # needed, so it does not look for them while making the prefix.
    export WINEPREFIX="$stage/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
    out=$(cd "$stage/windows" && time replay_outcomes wine ./tether.exe)
    compare_outcomes "Windows under Wine" "$native_out" "$out" || failed=1
    log "arm64 under qemu-user"
    stage_game "$arm64" "$stage/arm64"
    out=$(cd "$stage/arm64" && time replay_outcomes qemu-aarch64 ./tether)
    compare_outcomes "arm64 under qemu" "$native_out" "$out" || failed=1
    rm -rf "$stage"
    return $failed
}
