#!/usr/bin/env bash
# On a machine with two or more NVIDIA GPUs, CUDA and NCCL 2.24 or later (not run by CI): starts a long
# all_reduce of rackscope-nccl-bench across two processes (mpirun, one GPU each) with NCCL's RAS on, stops
# one process (SIGSTOP), and asks the job's RAS through rackscope-cli nccl-ras, as a user would when a job
# hangs. The verdict must name the stopped process (its pid) as missing, unresponsive or behind; the other is
# well. Exits 77 where the machine has fewer than two GPUs.
#   tests/gpu/check_nccl_ras.sh [BUILD_DIR]     (default build/release; configured if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
gpus=$(nvidia-smi -L | grep -c '^GPU' || true)
if [ "$gpus" -lt 2 ]; then
    echo "check_nccl_ras: needs two GPUs (this machine has $gpus)" >&2
    exit 77
fi
[ -f "$build/CMakeCache.txt" ] || cmake --preset release -DRACKSCOPE_BUILD_TESTS=OFF
cmake --build "$build" --target rackscope-nccl-bench rackscope-cli -j "$(nproc)"
bench=$PWD/$build/remote_agent/nccl_bench/nccl-tests/all_reduce_perf
cli=$build/app/cli/rackscope-cli
out=$(mktemp -d /tmp/rackscope-nccl-ras.XXXXXX)
extra=()
[ "$(id -u)" -ne 0 ] || extra+=(--allow-run-as-root)
echo "check_nccl_ras: results in $out"

NCCL_RAS_ENABLE=1 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,RAS mpirun -np 2 "${extra[@]}" -x NCCL_RAS_ENABLE \
    -x NCCL_DEBUG -x NCCL_DEBUG_SUBSYS "$bench" -b 1M -e 1M -g 1 -n 100000000 -w 1 > "$out/job.log" 2>&1 &
job=$!
trap 'kill -CONT $(pgrep -f "$bench") 2>/dev/null || true; kill $job 2>/dev/null || true; wait $job 2>/dev/null || true' EXIT
for _ in $(seq 120); do # until the job runs and its RAS listens
    grep -q "RAS client listening socket" "$out/job.log" && grep -q "^ *1048576" "$out/job.log" && break
    sleep 1
done
"$cli" nccl-ras --host localhost --json > "$out/before.json" || true
python3 - "$out/before.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert not doc.get('error'), doc.get('error')
assert doc['verdict']['healthy'], doc['verdict']
print('check_nccl_ras: the running job is well: NCCL %s, %s report' % (doc['report']['nccl_version'], doc['report']['format']))
PY
pids=($(pgrep -f "$bench" | sort -n))
stopped=${pids[-1]}
kill -STOP "$stopped"
echo "check_nccl_ras: stopped process $stopped"
for attempt in $(seq 12); do # RAS takes a few seconds to call a process unresponsive
    sleep 5
    "$cli" nccl-ras --host localhost --json --timeout 60 > "$out/after-$attempt.json" || true
    if python3 - "$out/after-$attempt.json" "$stopped" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
pid = int(sys.argv[2])
v = doc.get('verdict')
if not v or v['healthy']:
    sys.exit(1)
named = [r for r in v['ranks'] if r.get('pid') == pid]
assert named, ('the verdict does not name the stopped process', v)
others = [r for r in v['ranks'] if r.get('pid') not in (None, pid) and r.get('severe')]
assert not others, ('a running process is called missing or dead', others)
print('check_nccl_ras: the verdict names process %d: %s' % (pid, v['groups'][0]['text']))
PY
    then
        exit 0
    fi
done
echo "check_nccl_ras: RAS never named the stopped process; see $out" >&2
exit 1
