#!/usr/bin/env bash
# On a machine with NVIDIA GPUs, CUDA and NCCL (not run by CI): builds
# rackscope-nccl-bench, runs every operation on all local GPUs through the same
# pipeline a user runs (rackscope-cli nccl: mpirun, one process per GPU,
# output parsed as it streams), then once more with every data type and
# reduction, and with all GPUs in one process (-g). Checks what the parser
# read: every row validated with no wrong element, algbw = size / time and
# busbw = algbw x nccl-tests' factor for the rank count.
#   tests/gpu/check_nccl_bench.sh [BUILD_DIR]     (default build/release; configured if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
[ -f "$build/CMakeCache.txt" ] || cmake --preset release -DRACKSCOPE_BUILD_TESTS=OFF
cmake --build "$build" --target rackscope-nccl-bench rackscope-cli -j "$(nproc)"
bench_dir=$PWD/$build/remote_agent/nccl_bench/nccl-tests
cli=$build/app/cli/rackscope-cli
gpus=$(nvidia-smi -L | grep -c '^GPU')
out=$(mktemp -d /tmp/rackscope-nccl-bench.XXXXXX)
extra=()
[ "$(id -u)" -ne 0 ] || extra+=(--launcher-arg=--allow-run-as-root)
echo "check_nccl_bench: $gpus GPUs; results in $out"

run() { # NAME ARGS...: one rackscope-cli nccl run on this host, its JSON kept
    local name=$1
    shift
    "$cli" nccl --hosts localhost --binary-dir "$bench_dir" -n 10 -w 2 --no-save --json --timeout 300 "${extra[@]}" "$@" \
        > "$out/$name.json" 2> "$out/$name.log" || { cat "$out/$name.log" >&2; echo "check_nccl_bench: $name failed" >&2; exit 1; }
}
for op in all_reduce all_gather reduce_scatter alltoall broadcast reduce sendrecv; do
    run "$op" --op "$op" --ppn "$gpus" -b 8 -e 256M -f 4
done
for type in int8 uint8 int32 uint32 int64 uint64 half float double bfloat16; do
    for redop in sum prod max min avg; do
        run "all_reduce-$type-$redop" --op all_reduce --ppn "$gpus" -b 1K -e 4M -f 8 -d "$type" -o "$redop"
    done
done
run all_reduce-one-process --op all_reduce --ppn 1 -g "$gpus" -b 8 -e 64M -f 8

python3 - "$out" "$gpus" <<'PY'
import glob, json, os, sys
out, gpus = sys.argv[1], int(sys.argv[2])
factor = {'all_reduce': lambda n: 2 * (n - 1) / n, 'all_gather': lambda n: (n - 1) / n, 'reduce_scatter': lambda n: (n - 1) / n,
          'alltoall': lambda n: (n - 1) / n, 'broadcast': lambda n: 1, 'reduce': lambda n: 1, 'sendrecv': lambda n: 1}
not_validated_in_place = {'alltoall', 'sendrecv'}
checked = 0
for path in sorted(glob.glob(os.path.join(out, '*.json'))):
    name = os.path.basename(path)[:-5]
    op = name.split('-')[0]
    doc = json.load(open(path))
    assert doc['exit_status'] == 0 and not doc.get('error'), (name, doc.get('error'))
    ranks = len(doc['ranks'])
    assert ranks == gpus, (name, ranks)
    assert doc['rows'], name
    assert doc['out_of_bounds'] == 0 and doc['wrong_total'] == 0, name
    for row in doc['rows']:
        for half in ('oop', 'ip'):
            p = row[half]
            if half == 'ip' and op in not_validated_in_place:
                assert p['wrong'] is None, (name, row)
            else:
                assert p['wrong'] == 0, (name, row)
            if p['time_us'] <= 0:
                continue
            resolution = 0.5 if p['time_us'] >= 10000 else 0.05 if p['time_us'] >= 100 else 0.005
            slack = resolution / p['time_us'] * 1.001
            algbw = row['size'] / 1e9 / (p['time_us'] * 1e-6)
            assert abs(algbw - p['algbw']) <= 0.005 + algbw * slack, (name, row, algbw)
            busbw = algbw * factor[op](ranks)
            assert abs(busbw - p['busbw']) <= 0.005 + busbw * slack, (name, row, busbw)
            checked += 1
    print('%-28s %2d ranks %3d rows  avg busbw %s GB/s' % (name, ranks, len(doc['rows']), doc['avg_busbw']))
print('check_nccl_bench: %d results checked, none wrong, bandwidth consistent with time' % checked)
PY
