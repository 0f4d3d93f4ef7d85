#!/usr/bin/env python3
"""Writes rackscope's demo cluster (run it from this folder; the outputs are committed).

A rail-optimised rack of eight 8-GPU servers under two tiers of InfiniBand
switches, written from public facts about such systems (NVIDIA's DGX H100 and
HGX H100 reference designs): two CPU sockets, four PCIe Gen5 switches, each
with two H100 SXM GPUs and two single-port 400 Gb/s ConnectX-7 NICs; NVLink
through four NVSwitches (18 links per GPU); one NIC per GPU on its own rail
leaf, the leaves under four spines. Everything in it is made up, names and
addresses included, and a few faults are planted so every highlight shows:
node07 lost the two NICs of one PCIe switch (GPUs 6 and 7 reach a NIC only
over NVLink through a peer, NCCL's PXN), node08 is a PCIe server of H100 NVL
cards bridged in pairs, built with all its NICs on the first socket (GPUs 4-7
across the socket, without GPUDirect RDMA: no NVLink peer near a NIC to relay
for them), and node05 has two rail cables swapped.
"""

CPU_AFFINITY = ["0000ffff,ffffffff,ffffffff", "ffffffff,ffff0000,00000000,00000000"]
SWITCH_BUS = [0x18, 0x3a, 0x9a, 0xba]  # PCIe switch upstream ports, two per socket
NVSWITCHES = ["0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0"]


def pci(bus, cls, vendor, device, body, indent):
    pad = "  " * indent
    return (f'{pad}<pci busid="0000:{bus:02x}:00.0" class="{cls}" vendor="{vendor}" device="{device}" '
            f'link_speed="32.0 GT/s PCIe" link_width="16">\n{body}{pad}</pci>\n')


def gpu(bus, dev, indent, peer_bus=None):
    """An H100 SXM on the NVSwitches, or (peer_bus) an H100 NVL card bridged to its pair: 12 links."""
    if peer_bus is None:
        links = "".join(f'{"  " * (indent + 2)}<nvlink target="{t}" count="{5 if i < 2 else 4}" tclass="0x068000"/>\n'
                        for i, t in enumerate(NVSWITCHES))
    else:
        links = f'{"  " * (indent + 2)}<nvlink target="0000:{peer_bus:02x}:00.0" count="12" tclass="0x030200"/>\n'
    inner = f'{"  " * (indent + 1)}<gpu dev="{dev}" sm="90" rank="{dev}" gdr="1">\n{links}{"  " * (indent + 1)}</gpu>\n'
    return pci(bus, "0x030200", "0x10de", "0x2330" if peer_bus is None else "0x2321", inner, indent)


def nic(bus, name, guid, indent):
    inner = (f'{"  " * (indent + 1)}<nic>\n{"  " * (indent + 2)}<net name="{name}" dev="{name[5:]}" speed="400000" port="1" '
             f'latency="0.000000" guid="0x{guid:016x}" maxconn="131072" gdr="1"/>\n{"  " * (indent + 1)}</nic>\n')
    return pci(bus, "0x020000", "0x15b3", "0x1021", inner, indent)


def node(nics_on_switch, bridged_pairs=False):
    """nics_on_switch[s]: which switch's NIC slots are filled (None: that switch has none)."""
    out = ['<system version="1">\n']
    for cpu in range(2):
        out.append(f'  <cpu numaid="{cpu}" affinity="{CPU_AFFINITY[cpu]}" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="143">\n')
        for s in (2 * cpu, 2 * cpu + 1):
            body = ""
            up = SWITCH_BUS[s]
            for k in range(2):  # two GPUs, each behind its own downstream port
                g = 2 * s + k
                peer = up + 3 + (1 - k) if bridged_pairs else None
                body += pci(up + 1 + k, "0x060400", "0x1000", "0xc030", gpu(up + 3 + k, g, 4, peer), 3)
            for k, n in enumerate(nics_on_switch.get(s, [])):  # each NIC behind its own downstream port too
                body += pci(up + 5 + 2 * k, "0x060400", "0x1000", "0xc030", nic(up + 6 + 2 * k, f"mlx5_{n}", 0xb83fd20300a10000 + n, 4), 3)
            out.append(pci(up, "0x060400", "0x1000", "0xc030", body, 2))
        out.append("  </cpu>\n")
    out.append("</system>\n")
    return "".join(out)


def write(name, text):
    with open(name, "w") as f:
        f.write(text)


full = {s: [2 * s, 2 * s + 1] for s in range(4)}
lost = {0: [0, 1], 1: [2, 3], 2: [4, 5]}                  # switch 3's NICs missing
one_socket = {0: [0, 1, 4, 5], 1: [2, 3, 6, 7]}           # every NIC on socket 0's switches
write("h100-8gpu-node.xml", node(full))
write("h100-8gpu-node-two-nics-missing.xml", node(lost))
write("h100-8gpu-node-nics-on-one-socket.xml", node(one_socket, bridged_pairs=True))

hosts = {f"node{i:02d}": "h100-8gpu-node.xml" for i in range(1, 9)}
hosts["node07"] = "h100-8gpu-node-two-nics-missing.xml"
hosts["node08"] = "h100-8gpu-node-nics-on-one-socket.xml"
write("demo.cluster", "rackscope-cluster 1\n# The demo rack: each server and the topology file it has, then the fabric.\n" + "".join(f"host {h} {t}\n" for h, t in hosts.items()) + "fabric demo-rack.fabric\n")

lines = ["rackscope-fabric 1",
         "# The demo rack: eight rail leaves (one per NIC index) under four spines, 4x NDR everywhere.",
         "expect width=4x speed=NDR"]
lines += [f"switch spine-{s:02d} tier=spine ports=64" for s in range(1, 5)]
lines += [f"switch leaf-rail{r} tier=leaf ports=64" for r in range(8)]
for r in range(8):
    for s in range(1, 5):
        for k in range(2):
            lines.append(f"link leaf-rail{r}:{33 + 2 * (s - 1) + k} spine-{s:02d}:{1 + 2 * r + k}")
present = {h: [n for ns in (lost if t.endswith("missing.xml") else one_socket if t.endswith("socket.xml") else full).values() for n in ns]
           for h, t in hosts.items()}
for i, (h, nics) in enumerate(hosts.items(), start=1):
    for n in sorted(present[h]):
        rail = {2: 3, 3: 2}.get(n, n) if h == "node05" else n  # node05: two cables swapped
        lines.append(f"link {h}/mlx5_{n}:1 leaf-rail{rail}:{i}")
write("demo-rack.fabric", "\n".join(lines) + "\n")
