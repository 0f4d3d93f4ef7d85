#!/usr/bin/env bash
# rackscope quick start on Debian 12: installs what the build needs, builds,
# then either runs rackscope (run) or the whole test suite (test).
#   scripts/quickstart.sh run    GUI with a display; this machine's topology report without one
#   scripts/quickstart.sh test   ASan+UBSan build and tests, then an optimised build, its tests and benchmarks
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
if [ -z "${RACKSCOPE_SKIP_APT:-}" ]; then
    $sudo apt-get update
    # shellcheck disable=SC2046
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends \
        $(grep -v '^#' packaging/debian-build-deps.txt)
fi

jobs=$(nproc)
case "$mode" in
run)
    cmake --preset release -DRACKSCOPE_BUILD_TESTS=OFF
    cmake --build --preset release -j "$jobs"
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        exec build/release/app/gui/rackscope "${@:2}"
    fi
    echo "No display found: printing this machine's topology report (rackscope-cli inspect --local)."
    exec build/release/app/cli/rackscope-cli inspect --local
    ;;
test)
    bash scripts/check-format.sh # the tree matches .clang-format
    cmake --preset asan
    cmake --build --preset asan -j "$jobs"
    ctest --preset asan -j "$jobs"
    cmake --preset release -DRACKSCOPE_BUILD_TESTS=ON
    cmake --build --preset release -j "$jobs"
    ctest --preset release -LE bench -j "$jobs"
    ctest --preset release -L bench --verbose # the benchmarks print their figures beside their references
    ;;
*)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
