#!/usr/bin/env bash
# On a machine with NVIDIA GPUs (not run by CI): each GPU's NVLink fabric registration as the agent reads it
# through the real NVML, beside `nvidia-smi -q` on the same machine, both read by rackscope-cli nvlink. For
# every GPU nvidia-smi prints a Fabric section for, the agent must state the same State and Status, and, where
# nvidia-smi prints them, the same CliqueId, ClusterUUID and health summary; the verdicts must agree. Where
# nvidia-smi prints no Fabric section (a GPU without NVLink fabric), the agent must not invent a registration.
# Each NVLink nvidia-smi nvlink --status lists must be in the agent's list, in the same state and at the same speed.
#   tests/gpu/check_nvlink_fabric.sh [build/release]
set -euo pipefail
build=${1:-build/release}
out=$(mktemp -d /tmp/rackscope-nvlink.XXXXXX)
nvidia-smi -q > "$out/q.txt"
nvidia-smi nvlink --status > "$out/status.txt" 2>/dev/null || true
"$build/remote_agent/rackscope-agent" collect > "$out/snapshot.json"
cli="$build/app/cli/rackscope-cli"
"$cli" nvlink --host here="$out/snapshot.json" --json > "$out/agent.json" || [ $? -eq 1 ]
if grep -q '^ *Fabric *$' "$out/q.txt"; then
    "$cli" nvlink --host here="$out/q.txt" --json > "$out/smi.json" || [ $? -eq 1 ]
else
    echo '{"gpus":[],"findings":[]}' > "$out/smi.json"
fi
if grep -q 'Link [0-9]*:' "$out/status.txt"; then
    "$cli" nvlink --host here="$out/status.txt" --json > "$out/links.json" || [ $? -eq 1 ]
else
    echo '{"links":[]}' > "$out/links.json"
fi
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
agent = json.load(open(out + '/agent.json'))
smi = json.load(open(out + '/smi.json'))
links = json.load(open(out + '/links.json'))
by_bus = {g['bus_id']: g for g in agent['gpus']}
problems = []
for s in smi['gpus']:
    a = by_bus.get(s['bus_id'])
    if a is None:
        problems.append('%s: nvidia-smi states a fabric registration, the agent none' % s['bus_id'])
        continue
    for key in ('state', 'status', 'clique_id', 'cluster_uuid', 'health'):
        if s[key] is not None and s[key] != a[key]:
            problems.append('%s %s: nvidia-smi %r, agent %r' % (s['bus_id'], key, s[key], a[key]))
if not smi['gpus'] and agent['gpus']:
    problems.append('nvidia-smi prints no Fabric section, yet the agent states %d registrations' % len(agent['gpus']))
codes = lambda doc: sorted(f['code'] for f in doc['findings'] if f['code'].startswith('nvlink-fabric'))
if smi['gpus'] and codes(smi) != codes(agent):
    problems.append('verdicts differ: nvidia-smi %s, agent %s' % (codes(smi), codes(agent)))
agent_links = {(l['gpu'], l['link']): l for l in agent['links']}
for l in links['links']:
    got = agent_links.get((l['gpu'], l['link']), {})
    if got.get('state') != l['state']:
        problems.append('%s link %d: nvidia-smi %s, agent %s' % (l['gpu'], l['link'], l['state'], got.get('state')))
    elif l['gb_per_s'] is not None and got.get('gb_per_s') is not None and abs(l['gb_per_s'] - got['gb_per_s']) > 0.01:
        problems.append('%s link %d: nvidia-smi %.3f GB/s, agent %.3f GB/s' % (l['gpu'], l['link'], l['gb_per_s'], got['gb_per_s']))
print('GPUs with a fabric registration: %d (nvidia-smi), %d (agent); NVLinks: %d listed, %d read by the agent'
      % (len(smi['gpus']), len(agent['gpus']), len(links['links']), len(agent_links)))
for p in problems:
    print('MISMATCH', p)
sys.exit(1 if problems else 0)
PY
echo "check_nvlink_fabric: the agent agrees with nvidia-smi ($out)"
