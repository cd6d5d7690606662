#!/usr/bin/env bash
# Renders the README's screenshots into docs/screenshots: the main window's
# states (welcome, a chat with tool cards and a diff, an ask in its tool card,
# dark theme, settings) under Xvfb, with a real engine on a fake provider.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
[ -f build/debug/CMakeCache.txt ] || cmake --preset debug
cmake --build --preset debug --target qcode_screenshots --parallel "$(nproc 2>/dev/null || echo 2)"
if command -v xvfb-run >/dev/null 2>&1; then
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" build/debug/tests/screenshots/qcode_screenshots docs/screenshots
else
    echo "qcode: xvfb-run is not installed (apt install xvfb xauth); rendering offscreen instead" >&2
    QT_QPA_PLATFORM=offscreen build/debug/tests/screenshots/qcode_screenshots docs/screenshots
fi
