#!/usr/bin/env bash
# On a machine with NVIDIA GPUs (not run by CI): what the agent's `sample` with
# "gpus" reads through the real NVML, the way a load run's --workers reads it,
# beside nvidia-smi --query-gpu read at the same moments. The GPUs, their names,
# UUIDs and memory sizes must agree exactly; memory in use within 1 % or
# 64 MiB; utilisation 0-100; the SM clock within the GPU's maximum; power
# within its limit (or both unknown); and a field nvidia-smi cannot give
# ([N/A], [Not Supported]) must be null in the agent's reading, never 0.
#   tests/gpu/check_agent_gpu_sampling.sh [path/to/rackscope-agent]
set -euo pipefail
agent=${1:-build/release/remote_agent/rackscope-agent}
out=$(mktemp -d /tmp/rackscope-gpu-sampling.XXXXXX)
fields=index,uuid,name,memory.total,memory.used,utilization.gpu,clocks.sm,clocks.max.sm,power.draw,power.limit
# Six readings half a second apart; nvidia-smi beside each.
( printf '%s\n' '{"id":1,"method":"sample","params":{"interval_ms":500,"count":6,"counters":false,"gpus":true}}'
  sleep 3.5 ) | "$agent" --stdio > "$out/agent.jsonl" &
for i in 1 2 3 4 5 6; do
    nvidia-smi --query-gpu=$fields --format=csv,noheader,nounits >> "$out/nvsmi.csv"
    sleep 0.5
done
wait
python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
samples = [json.loads(l)['data'] for l in open(out + '/agent.jsonl') if '"event"' in l]
assert len(samples) == 6, 'the agent sent %d readings, not 6' % len(samples)
smi = {}
for row in csv.reader(open(out + '/nvsmi.csv'), skipinitialspace=True):
    smi.setdefault(int(row[0]), []).append(row)
def number(text):
    try:
        return float(text)
    except ValueError:
        return None  # [N/A], [Not Supported]
for s in samples:
    gpus = s['gpus']
    assert gpus['available'], gpus
    assert sorted(g['index'] for g in gpus['gpus']) == sorted(smi), (gpus, sorted(smi))
    for g in gpus['gpus']:
        row = smi[g['index']][0]
        idx, uuid, name, total, used, util, sm, smmax, power, limit = row
        assert g['uuid'] == uuid and g['name'] == name, (g, row)
        assert abs(g['mem_total_mib'] - float(total)) <= 1, (g, row)   # nvidia-smi rounds to MiB
        for r in smi[g['index']]:                                     # one of the moments agrees on memory
            if abs(g['mem_used_mib'] - float(r[4])) <= max(64, 0.01 * float(total)):
                break
        else:
            raise AssertionError('memory in use %s MiB is none of nvidia-smi\'s %s' % (g['mem_used_mib'], [r[4] for r in smi[g['index']]]))
        assert g['util_pct'] is not None and 0 <= g['util_pct'] <= 100, g
        if number(sm) is None:
            assert g['sm_clock_mhz'] is None, (g, row)
        else:
            assert 0 < g['sm_clock_mhz'] <= (number(smmax) or 1e9), (g, row)
        if number(power) is None:
            assert g['power_w'] is None, (g, row)
        else:
            assert 0 < g['power_w'] <= 1.2 * (number(limit) or 1e9), (g, row)
print('check_agent_gpu_sampling: %d GPUs, 6 readings each, agree with nvidia-smi' % len(smi))
PY
