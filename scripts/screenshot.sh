#!/usr/bin/env bash
# Regenerates docs/screenshot.png: the real window under Xvfb on the demo cluster.
#   scripts/screenshot.sh [build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
if command -v xvfb-run >/dev/null; then
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/gui/rackscope" --screenshot docs/screenshot.png --demo --select node08/GPU5
else
    QT_QPA_PLATFORM=offscreen "$build/app/gui/rackscope" --screenshot docs/screenshot.png --demo --select node08/GPU5
fi
echo "wrote docs/screenshot.png"
