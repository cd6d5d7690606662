#!/usr/bin/env bash
# Redraws the application icon's other forms from its SVG:
#   ./scripts/render-icons.sh
# PNGs at every hicolor size (Linux packages, the window icon), qcode.ico
# (the Windows executable and installer) and qcode.icns (the macOS bundle).
# They are committed, so building qcode never needs this script, nor
# rsvg-convert (Debian package librsvg2-bin) or python3; run it after
# editing packaging/icons/dev.qcode.QCode.svg.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
icons="$here/packaging/icons"
source_svg="$icons/dev.qcode.QCode.svg"
sizes=(16 24 32 48 64 128 256 512)

for tool in rsvg-convert python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "render-icons: $tool is missing; install librsvg2-bin and python3 (apt-get install librsvg2-bin python3)." >&2
        exit 1
    fi
done

for size in "${sizes[@]}"; do
    mkdir -p "$icons/${size}x${size}"
    target="$icons/${size}x${size}/dev.qcode.QCode.png"
    # Written beside the target and renamed, so a failed render never
    # leaves a half-written PNG in the tree.
    rsvg-convert --width "$size" --height "$size" --format png --output "$target.tmp" "$source_svg"
    mv "$target.tmp" "$target"
    echo "render-icons: $target"
done

# Both containers hold the PNGs as they are: Windows Vista and later read
# PNG entries in .ico files, and .icns has PNG types for every size.
python3 - "$icons" "$here/packaging/windows/qcode.ico" "$here/packaging/macos/qcode.icns" <<'PY'
import os
import struct
import sys

icons, ico_path, icns_path = sys.argv[1:4]

def png(size):
    with open(os.path.join(icons, f"{size}x{size}", "dev.qcode.QCode.png"), "rb") as f:
        return f.read()

def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    print(f"render-icons: {path}")

# .ico: a header, one 16-byte entry per image, then the images. A width or
# height of 0 means 256.
ico_sizes = [16, 24, 32, 48, 64, 128, 256]
images = [png(s) for s in ico_sizes]
offset = 6 + 16 * len(images)
entries = b""
for size, image in zip(ico_sizes, images):
    side = 0 if size == 256 else size
    entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(image), offset)
    offset += len(image)
write(ico_path, struct.pack("<HHH", 0, 1, len(images)) + entries + b"".join(images))

# .icns: big-endian, each element a four-letter type, its length with the
# 8-byte header, and a PNG. The @2x types reuse the double-size PNG.
icns_types = [
    (b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256), (b"ic09", 512),
    (b"ic11", 32), (b"ic12", 64), (b"ic13", 256), (b"ic14", 512),
]
body = b"".join(kind + struct.pack(">I", 8 + len(png(size))) + png(size) for kind, size in icns_types)
write(icns_path, b"icns" + struct.pack(">I", 8 + len(body)) + body)
PY
