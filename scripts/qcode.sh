#!/usr/bin/env bash
# The project's two set-up commands:
#   ./scripts/qcode.sh run [qcode arguments]   build (release) and start qcode
#   ./scripts/qcode.sh test [ctest arguments]  build (debug) and run every test;
#                                             benchmarks build and run optimized,
#                                             and the Debian package is built and
#                                             checked (scripts/check-package.sh)
# Each installs missing Debian/Ubuntu packages first (apt-get, as root or via
# sudo), configures with a CMake preset, builds incrementally, then runs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

# Packages the build cannot do without.
required=(
    cmake ninja-build g++ pkg-config git
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libqt6sql6-sqlite qcoro-qt6-dev qtkeychain-qt6-dev
    # The bash tool's permission checker parses lines with tree-sitter.
    libtree-sitter-dev
    # Agent and command front matter is YAML, read by yaml-cpp.
    libyaml-cpp-dev
    # The package check: dpkg-shlibdeps computes the DEB's dependencies;
    # the validators check the desktop entry and the AppStream metadata.
    dpkg-dev file desktop-file-utils appstream
)
# Packages that make qcode better where the distribution has them.
# lld links the test programs faster and far smaller (cmake/CompilerOptions.cmake).
# tinyproxy, nghttpx (nghttp2-proxy) and openssl let the network tests run a
# real proxy and an HTTP/2 TLS front end; without them those tests skip.
# qt6-translations-l10n: Qt's own words (dialog buttons, context menus) in
# the language chosen.
optional=(libkf6syntaxhighlighting-dev libsource-highlight-dev ripgrep lld tinyproxy nghttp2-proxy openssl
    qt6-translations-l10n)
# scripts/screenshots.sh renders under Xvfb when it is there (not the tests).

usage() {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "qcode: need root to run: $*" >&2
        echo "qcode: run this script as root, or install sudo." >&2
        exit 1
    fi
}

install_dependencies() {
    if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        echo "qcode: not a Debian/Ubuntu system; skipping package installation (see README.md for other systems)." >&2
        return
    fi
    local missing=() pkg
    for pkg in "${required[@]}"; do
        is_installed "$pkg" || missing+=("$pkg")
    done
    # Optional packages count only where the package lists know them, so a
    # distribution without one does not trigger an update on every run.
    local optional_missing=()
    for pkg in "${optional[@]}"; do
        is_installed "$pkg" || ! apt-cache show "$pkg" >/dev/null 2>&1 || optional_missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && [ ${#optional_missing[@]} -eq 0 ] && return

    echo "qcode: updating the package lists"
    as_root apt-get update -q
    if [ ${#missing[@]} -gt 0 ]; then
        echo "qcode: installing ${missing[*]}"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
    for pkg in "${optional[@]}"; do
        is_installed "$pkg" && continue
        if apt-cache show "$pkg" >/dev/null 2>&1; then
            echo "qcode: installing optional $pkg"
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$pkg" \
                || echo "qcode: optional $pkg could not be installed; continuing without it" >&2
        else
            echo "qcode: optional $pkg is not packaged here; continuing without it"
        fi
    done
}

# build PRESET [TARGET…]: configures once, then builds the targets named
# (everything when none is).
build() {
    local preset=$1
    shift
    if [ ! -f "build/$preset/CMakeCache.txt" ]; then
        cmake --preset "$preset"
    fi
    local targets=()
    [ $# -gt 0 ] && targets=(--target "$@")
    cmake --build --preset "$preset" "${targets[@]}" --parallel "$(nproc 2>/dev/null || echo 2)"
}

command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
    run)
        install_dependencies
        build release qcode # the program only: the tests build under `test`
        exec "build/release/src/app/qcode" "$@"
        ;;
    test)
        install_dependencies
        build debug
        export QT_QPA_PLATFORM=offscreen
        if [ $# -gt 0 ]; then
            exec ctest --preset debug "$@"
        fi
        # Benchmarks measure optimized code: only they are built in the
        # release tree. They run first and verbose, so their figures are in
        # the log; every other test follows, and its summary closes the run.
        [ -f build/release/CMakeCache.txt ] || cmake --preset release
        cmake --build --preset release --target benchmarks --parallel "$(nproc 2>/dev/null || echo 2)"
        ctest --preset release -L bench --verbose
        # The package is built from the same release tree. Its verdict is
        # kept until the tests have run, so their summary still closes the run.
        package_status=0
        ./scripts/check-package.sh || package_status=$?
        ctest --preset debug -LE bench
        if [ "$package_status" -ne 0 ]; then
            echo "qcode: the package check failed (scripts/check-package.sh, above)" >&2
            exit "$package_status"
        fi
        ;;
    -h|--help|help)
        usage
        ;;
    *)
        usage >&2
        exit 2
        ;;
esac
