#!/usr/bin/env bash
# Regenerates docs/screenshot.png: the real window under Xvfb on a real fixture.
#   scripts/screenshot.sh [build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
fixture=${RACKSCOPE_FIXTURES_DIR:-../shared/fixtures/real}/hwloc-32em64t-2n8c2t-pci-wholeio.xml
if command -v xvfb-run >/dev/null; then
    xvfb-run -a -s "-screen 0 1280x800x24" "$build/app/gui/rackscope" --screenshot docs/screenshot.png "$fixture"
else
    QT_QPA_PLATFORM=offscreen "$build/app/gui/rackscope" --screenshot docs/screenshot.png "$fixture"
fi
echo "wrote docs/screenshot.png"
