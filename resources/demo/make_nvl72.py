#!/usr/bin/env python3
"""Writes rackscope's NVL72 demo (run it from this folder; the outputs are committed).

Two GB200 NVL72-style racks of 18 compute trays each, written from public facts about such systems
(NVIDIA's GB200 NVL72 reference design): each tray has two Grace CPUs, each with two Blackwell GPUs reached
over NVLink-C2C and two 400 Gb/s ConnectX-7 NICs; every GPU has 18 NVLinks to the rack's NVLink switch trays.
Each rack is one NVLink domain. Everything in it is made up, names and UUIDs included, and two faults are
planted: tray07's third GPU fell out of its domain (CliqueId 0, ClusterUUID all zeros), and tray24's second
GPU is registered but its fabric health is Unhealthy (a route unhealthy). The NVLink state is written as
`pdsh -w tray[01-36] nvidia-smi -q | grep -A10 Fabric` would print it; each rack's trays are under one leaf
pair and one Slurm block.
"""

NVSWITCH = "ffffffff:ff:ff.0"  # NCCL's name for the NVLink switch outside the node
CLUSTER = ["6d0c3f1e-8a52-4b7e-9c1d-2f4a6b8c0e11", "6d0c3f1e-8a52-4b7e-9c1d-2f4a6b8c0e11"]
CLIQUE = [1, 2]


def tray():
    out = ['<system version="1">\n']
    for cpu in range(2):
        out.append(f'  <cpu numaid="{cpu}" arch="arm64" vendor="NVIDIA">\n')
        for k in range(2):
            g = 2 * cpu + k
            out.append(f'    <pci busid="000{8 + 16 * cpu + k}:06:00.0" class="0x030200" vendor="0x10de" device="0x2941" '
                       f'link_speed="32.0 GT/s PCIe" link_width="16">\n'
                       f'      <gpu dev="{g}" sm="100" rank="{g}" gdr="1">\n'
                       f'        <nvlink target="{NVSWITCH}" count="18" tclass="0x068000"/>\n'
                       f'        <c2c bw="44712" count="5"/>\n'
                       f'      </gpu>\n    </pci>\n')
        for k in range(2):
            n = 2 * cpu + k
            out.append(f'    <pci busid="000{cpu * 2 + k}:01:00.0" class="0x020000" vendor="0x15b3" device="0x1021" '
                       f'link_speed="32.0 GT/s PCIe" link_width="16">\n'
                       f'      <nic>\n        <net name="mlx5_{n}" dev="{n}" speed="400000" port="1" latency="0.000000" '
                       f'guid="0x{0xa088c20300b10000 + n:016x}" maxconn="131072" gdr="1"/>\n      </nic>\n    </pci>\n')
        out.append('  </cpu>\n')
    out.append('</system>\n')
    return "".join(out)


def fabric_block(clique, uuid, health="Healthy", route_unhealthy="False"):
    return ["    Fabric",
            "        State                             : Completed",
            "        Status                            : Success",
            f"        CliqueId                          : {clique}",
            f"        ClusterUUID                       : {uuid}",
            "        Health",
            "            Bandwidth                     : Full",
            "            Route Recovery in progress    : False",
            f"            Route Unhealthy               : {route_unhealthy}",
            "            Access Timeout Recovery       : False",
            f"            Summary                       : {health}",
            "--"]


def write(name, text):
    with open(name, "w") as f:
        f.write(text)


trays = [f"tray{t:02d}" for t in range(1, 37)]
write("gb200-tray.xml", tray())
state = []
for t, name in enumerate(trays, start=1):
    rack = 0 if t <= 18 else 1
    for g in range(4):
        if name == "tray07" and g == 2:
            block = fabric_block(0, "00000000-0000-0000-0000-000000000000")
        elif name == "tray24" and g == 1:
            block = fabric_block(CLIQUE[rack], CLUSTER[rack], "Unhealthy", "True")
        else:
            block = fabric_block(CLIQUE[rack], CLUSTER[rack])
        state += [f"{name}: {line}" for line in block]
write("nvl72-fabric-state.txt", "\n".join(state) + "\n")
write("nvl72-topology.conf",
      "# Two NVL72 racks: each under its own leaf, each one Slurm block (topology/block).\n"
      "SwitchName=spine Switches=leaf1,leaf2\n"
      "SwitchName=leaf1 Nodes=tray[01-18]\n"
      "SwitchName=leaf2 Nodes=tray[19-36]\n"
      "BlockName=rack1 Nodes=tray[01-18]\n"
      "BlockName=rack2 Nodes=tray[19-36]\n")
write("nvl72.cluster", "rackscope-cluster 1\n# Two NVL72 racks: each tray and its topology, the fabric, and the NVLink state.\n"
      + "".join(f"host {h} gb200-tray.xml\n" for h in trays)
      + "fabric nvl72-topology.conf\nnvlink nvl72-fabric-state.txt\n")
