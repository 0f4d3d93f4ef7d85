#!/usr/bin/env bash
# Regenerates the README's pictures from the real window under Xvfb:
#   docs/screenshot.png         the demo cluster at Fit, its servers as cards
#   docs/screenshot-topo-m.png  one server from `nvidia-smi topo -m`, GPU0 selected (its NIC and path lit)
#   scripts/screenshot.sh [build/release] [fixtures/real]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
fixtures=${2:-../shared/fixtures/real}
shoot() {
    if command -v xvfb-run >/dev/null; then
        xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/gui/rackscope" "$@"
    else
        QT_QPA_PLATFORM=offscreen "$build/app/gui/rackscope" "$@"
    fi
}
shoot --screenshot docs/screenshot.png --demo
shoot --screenshot docs/screenshot-topo-m.png "$fixtures/topo-m-8xH200-12nic-dgx.txt" \
    --select topo-m-8xH200-12nic-dgx/GPU0
echo "wrote docs/screenshot.png and docs/screenshot-topo-m.png"
