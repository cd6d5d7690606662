#!/usr/bin/env bash
# Builds qcode as an AppImage, one file that runs on Linux distributions as
# old as the build machine's or newer:
#   ./scripts/appimage.sh
# Writes build/release/packages/qcode-<version>-<arch>.AppImage.
#
# Needs linuxdeploy and linuxdeploy-plugin-qt, which no distribution
# packages: download linuxdeploy-<arch>.AppImage from
#   https://github.com/linuxdeploy/linuxdeploy/releases
# and linuxdeploy-plugin-qt-<arch>.AppImage from
#   https://github.com/linuxdeploy/linuxdeploy-plugin-qt/releases
# make both executable, and put them on PATH or in build/tools/. The
# AppImage output plugin comes inside linuxdeploy's own AppImage.
# Build on the oldest system the AppImage should run on: it bundles Qt and
# the other libraries, but uses the host's C library.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

preset=release
build="build/$preset"
appdir="$here/$build/AppDir"
packages="$here/$build/packages"
arch=$(uname -m)

# linuxdeploy finds its plugins on PATH, so build/tools joins it.
export PATH="$here/build/tools:$PATH"

find_tool() {
    local name=$1 candidate
    for candidate in "$name" "$name-$arch.AppImage" "$name.AppImage"; do
        if command -v "$candidate" >/dev/null 2>&1; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

missing=0
linuxdeploy=$(find_tool linuxdeploy) || {
    echo "appimage: linuxdeploy is missing: get linuxdeploy-$arch.AppImage from https://github.com/linuxdeploy/linuxdeploy/releases" >&2
    missing=1
}
find_tool linuxdeploy-plugin-qt >/dev/null || {
    echo "appimage: linuxdeploy-plugin-qt is missing: get linuxdeploy-plugin-qt-$arch.AppImage from https://github.com/linuxdeploy/linuxdeploy-plugin-qt/releases" >&2
    missing=1
}
if [ "$missing" -ne 0 ]; then
    echo "appimage: make them executable (chmod +x) and put them on PATH or in $here/build/tools/" >&2
    exit 1
fi

# The plugin asks qmake where Qt's plugins and translations are; Debian
# and Ubuntu name Qt 6's qmake6.
if [ -z "${QMAKE:-}" ]; then
    QMAKE=$(command -v qmake6 || command -v qmake || true)
fi
[ -n "$QMAKE" ] || { echo "appimage: qmake6 is missing (Debian package qt6-base-dev-tools); or set QMAKE" >&2; exit 1; }
export QMAKE

[ -f "$build/CMakeCache.txt" ] || cmake --preset "$preset"
cmake --build --preset "$preset" --target qcode --parallel "$(nproc 2>/dev/null || echo 2)"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")

# The AppDir is the package's /usr tree: program, desktop entry, metadata
# and icons, exactly as the DEB installs them.
rm -rf "$appdir"
DESTDIR="$appdir" cmake --install "$build" --prefix /usr --strip

# xcb is always deployed; Wayland sessions get their native plugin where
# the build machine has it (Debian package qt6-wayland).
plugins=$("$QMAKE" -query QT_INSTALL_PLUGINS)
wayland=()
for plugin in libqwayland-generic.so libqwayland-egl.so; do
    [ -f "$plugins/platforms/$plugin" ] && wayland+=("$plugin")
done
if [ ${#wayland[@]} -gt 0 ]; then
    EXTRA_PLATFORM_PLUGINS=$(IFS=';'; echo "${wayland[*]}")
    export EXTRA_PLATFORM_PLUGINS
fi

mkdir -p "$packages"
output="$packages/qcode-$version-$arch.AppImage"
# Older AppImage plugins read OUTPUT, newer ones LDAI_OUTPUT.
export OUTPUT="$output" LDAI_OUTPUT="$output"
"$linuxdeploy" --appdir "$appdir" \
    --executable "$appdir/usr/bin/qcode" \
    --desktop-file "$appdir/usr/share/applications/dev.qcode.QCode.desktop" \
    --plugin qt \
    --output appimage

[ -f "$output" ] || { echo "appimage: linuxdeploy finished but $output is not there" >&2; exit 1; }
echo "appimage: $output"
