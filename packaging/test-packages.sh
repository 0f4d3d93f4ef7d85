#!/usr/bin/env bash
# Builds the .deb packages, runs lintian on them, then installs them with apt
# into a freshly debootstrapped minimal Debian 12 and runs them there.
# Needs root and Debian's package mirror; takes a few minutes, so it is its
# own command rather than part of .ci/run.
#   bash packaging/test-packages.sh
set -euo pipefail
cd "$(dirname "$0")/.."
fixtures=$(realpath "${RACKSCOPE_FIXTURES_DIR:-../shared/fixtures/real}")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

[ "$(id -u)" -eq 0 ] || { echo "test-packages: needs root (debootstrap, chroot)" >&2; exit 2; }
[ -n "${RACKSCOPE_SKIP_APT:-}" ] || {
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        $(grep -v '^#' packaging/debian-build-deps.txt) debootstrap lintian dpkg-dev fakeroot file
}

cmake --preset release -DRACKSCOPE_BUILD_TESTS=OFF
cmake --build --preset release -j "$(nproc)"
rm -rf build/release/packages
(cd build/release && cpack)
debs=(build/release/packages/*.deb)
echo "== lintian"
# initial-upload-closes-no-bugs: these packages are not uploads to Debian's archive.
lintian --fail-on error --suppress-tags initial-upload-closes-no-bugs "${debs[@]}"

root=$(mktemp -d /tmp/rackscope-debootstrap.XXXXXX)
cleanup() {
    for m in "$root/proc" "$root/sys" "$root/dev"; do mountpoint -q "$m" && umount -l "$m"; done
    rm -rf "$root"
}
trap cleanup EXIT
echo "== debootstrap bookworm (minbase) into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
mkdir -p "$root/tmp/rackscope"
cp "${debs[@]}" "$root/tmp/rackscope/"
cp "$fixtures/hwloc-nvidiaDGX2.xml" "$fixtures/topo-m-8xH200-12nic-dgx.txt" "$root/tmp/rackscope/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
passed=0
check() { # check NAME COMMAND...: runs it inside the new system, counts it, stops at the first failure
    local name=$1; shift
    if in_root sh -c "$*"; then passed=$((passed + 1)); echo "ok: $name"; else echo "FAILED: $name"; echo "test-packages: $passed passed, 1 failed"; exit 1; fi
}
echo "== apt install of the packages (their declared dependencies resolve from the mirror)"
in_root apt-get update -q
check "apt installs both packages" "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/rackscope/*.deb"
echo "== run"
check "rackscope-cli --version" "rackscope-cli --version | grep -q '^rackscope-cli '"
check "rackscope-agent --version" "rackscope-agent --version | grep -q '^rackscope-agent '"
check "inspect a topo -m fixture" "rackscope-cli inspect /tmp/rackscope/topo-m-8xH200-12nic-dgx.txt | grep -q 'NIC11 mlx5_11'"
check "inspect --json an hwloc fixture" "rackscope-cli inspect --json /tmp/rackscope/hwloc-nvidiaDGX2.xml | grep -q '\"NV6\"'"
check "rackscope-agent collect" "rackscope-agent collect > /tmp/rackscope/snapshot.json && grep -q '\"type\":\"rackscope-snapshot\"' /tmp/rackscope/snapshot.json"
check "inspect the agent's snapshot" "rackscope-cli inspect /tmp/rackscope/snapshot.json >/dev/null"
check "inspect --local finds the packaged agent" "rackscope-cli inspect --local --json | grep -q agent-snapshot"
check "the console carries the agent" "test -x /usr/lib/rackscope/rackscope-agent"
check "the console carries the hwloc reader" "test -x /usr/lib/rackscope/rackscope-hwloc-reader"
# hwloc 2.9 crashes on a Machine without its complete_cpuset: the packaged reader takes the crash.
check "a file that crashes libhwloc is an error" "sed '0,/ complete_cpuset=\"[^\"]*\"/s///' /tmp/rackscope/hwloc-nvidiaDGX2.xml > /tmp/rackscope/broken.xml; rackscope-cli inspect /tmp/rackscope/broken.xml 2>&1 | grep -q 'crashed on this input'"
check "the GUI starts (offscreen)" "QT_QPA_PLATFORM=offscreen timeout 5 rackscope /tmp/rackscope/topo-m-8xH200-12nic-dgx.txt 2>/dev/null; test \$? -eq 124"
echo "test-packages: $passed passed, 0 failed"
