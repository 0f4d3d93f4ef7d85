#!/usr/bin/env bash
# On a machine with NVIDIA GPUs (not run by CI): the agent's NVML section must
# list every GPU nvidia-smi lists, with the same PCI bus ids and names.
#   tests/gpu/check_agent_nvml.sh path/to/rackscope-agent
set -euo pipefail
agent=${1:-build/release/remote_agent/rackscope-agent}
"$agent" collect > /tmp/rackscope-snapshot.json
nvidia-smi --query-gpu=pci.bus_id,name --format=csv,noheader > /tmp/rackscope-nvsmi.csv
python3 - <<'PY'
import csv, json
snap = json.load(open('/tmp/rackscope-snapshot.json'))
gpus = snap['gpus']
assert gpus['available'], gpus
ours = {g['pci'].lower(): g['name'] for g in gpus['gpus']}
theirs = {}
for bus, name in csv.reader(open('/tmp/rackscope-nvsmi.csv'), skipinitialspace=True):
    d, b, rest = bus.lower().split(':')            # 00000000:18:00.0 -> 0000:18:00.0
    theirs['%04x:%s:%s' % (int(d, 16), b, rest)] = name
assert ours == theirs, (ours, theirs)
for g in gpus['gpus']:
    assert g['pcie']['max_gen'] is not None and g['uuid'].startswith('GPU-'), g
print('check_agent_nvml: %d GPUs agree with nvidia-smi; driver %s' % (len(ours), gpus['driver_version']))
PY
