#!/usr/bin/env bash
# Builds qcode's Linux packages from the release tree and checks the Debian
# one the way a user meets it:
#   ./scripts/check-package.sh [preset]     (default: release)
# cpack writes the DEB and the TGZ (and the RPM where rpmbuild is installed)
# to build/<preset>/packages. The DEB must carry computed dependencies and
# exactly the program, its desktop entry, metadata and icons (no test, no
# static library); unpacked with dpkg -x into a temporary root, its qcode
# must answer --version and `run --help`. Any failure ends the script with a
# non-zero status. Needs dpkg-dev (dpkg-shlibdeps) and file.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

preset=${1:-release}
build="build/$preset"
packages="$build/packages"

fail() {
    echo "check-package: FAILED: $*" >&2
    exit 1
}

for tool in cpack dpkg-deb dpkg-shlibdeps file; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (Debian packages: cmake, dpkg-dev, file)"
done

[ -f "$build/CMakeCache.txt" ] || cmake --preset "$preset"
cmake --build --preset "$preset" --target qcode --parallel "$(nproc 2>/dev/null || echo 2)"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || fail "no project version in $build/CMakeCache.txt"

generators="DEB;TGZ"
if command -v rpmbuild >/dev/null 2>&1; then
    generators="$generators;RPM"
fi
rm -rf "$packages"
cpack --config "$build/CPackConfig.cmake" -G "$generators" -B "$packages"
rm -rf "$packages/_CPack_Packages"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The Debian package: its fields, then its files.
debs=("$packages"/qcode_"$version"-*_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one qcode_${version}-*.deb in $packages"
deb=${debs[0]}
echo "check-package: $deb"
dpkg-deb --field "$deb" Package Version Architecture Section Depends Recommends
depends=$(dpkg-deb --field "$deb" Depends)
for needed in libc6 libqt6core6 libqt6widgets6 libqt6network6 libqt6sql6 libqt6sql6-sqlite; do
    [[ ",$depends," =~ [,\ ]$needed[\ ,] ]] || fail "Depends lacks $needed: $depends"
done
[[ "$(dpkg-deb --field "$deb" Recommends)" == *ripgrep* ]] || fail "Recommends lacks ripgrep"

contents=$(dpkg-deb --contents "$deb" | awk '{print $NF}' | grep -v '/$')
allowed='^\./usr/bin/qcode$'
allowed+='|^\./usr/share/applications/dev\.qcode\.QCode\.desktop$'
allowed+='|^\./usr/share/metainfo/dev\.qcode\.QCode\.metainfo\.xml$'
allowed+='|^\./usr/share/icons/hicolor/(scalable|[0-9]+x[0-9]+)/apps/dev\.qcode\.QCode\.(svg|png)$'
unexpected=$(grep -Ev "$allowed" <<<"$contents" || true)
[ -z "$unexpected" ] || fail "the package holds files it should not: $unexpected"
icons=$(grep -c '/icons/hicolor/' <<<"$contents" || true)
[ "$icons" -eq 9 ] || fail "expected 9 icons (scalable and 8 sizes), found $icons"
for wanted in ./usr/bin/qcode ./usr/share/applications/dev.qcode.QCode.desktop \
              ./usr/share/metainfo/dev.qcode.QCode.metainfo.xml; do
    grep -qx "$wanted" <<<"$contents" || fail "the package lacks $wanted"
done

# Installed into a temporary root: the program runs from there, in a home
# of its own so nothing of the user's is read or written.
root="$work/root"
dpkg -x "$deb" "$root"
qcode="$root/usr/bin/qcode"
file "$qcode" | grep -q 'ELF.*executable.*, stripped' || fail "$qcode is not a stripped executable: $(file -b "$qcode")"
mkdir -p "$work/home"
run_installed() {
    env HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
        XDG_CACHE_HOME="$work/home/.cache" QT_QPA_PLATFORM=offscreen "$qcode" "$@"
}
printed=$(run_installed --version) || fail "qcode --version exited with $?"
echo "check-package: qcode --version: $printed"
[ "$printed" = "qcode $version" ] || fail "qcode --version printed '$printed', not 'qcode $version'"
help=$(run_installed run --help) || fail "qcode run --help exited with $?"
grep -q -- '--auto-approve' <<<"$help" || fail "qcode run --help does not describe qcode run: $help"
echo "check-package: qcode run --help: $(wc -l <<<"$help") lines"

# The archive: one top folder holding the same tree.
tgz="$packages/qcode-$version-Linux-$(uname -m).tar.gz"
[ -f "$tgz" ] || fail "missing $tgz"
tar -tzf "$tgz" | grep -qx "qcode-$version-Linux-$(uname -m)/bin/qcode" || fail "$tgz lacks bin/qcode"
echo "check-package: $tgz"

rpms=("$packages"/qcode-"$version"-*.rpm)
if [ -f "${rpms[0]}" ]; then
    echo "check-package: ${rpms[0]}"
    rpm -qp --requires "${rpms[0]}" 2>/dev/null | grep -q 'libQt6Widgets\.so\.6' \
        || fail "the RPM's computed Requires lack libQt6Widgets.so.6"
fi

echo "check-package: packages in $packages passed"
