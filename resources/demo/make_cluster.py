#!/usr/bin/env python3
"""Writes a large made-up cluster for trying rackscope at scale (and for its scale tests and benchmarks).

    make_cluster.py [--servers 1024] [--units 4] [--out DIR]

Every server is the demo's 8-GPU, 8-NIC H100 server (h100-8gpu-node.xml, referred to where it lies, beside
this script). The fabric is rail-optimised in scalable units: in each unit, NIC k of every server goes to a
leaf of rail k, one leaf per rail for each 32 servers; every leaf has one uplink to each spine. Writes
DIR/cluster-N.cluster and DIR/cluster-N.fabric; open the .cluster file.
"""
import argparse
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RAILS = 8
SERVERS_PER_LEAF = 32


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1024)
    parser.add_argument("--units", type=int, default=4)
    parser.add_argument("--spines", type=int, default=32)
    parser.add_argument("--out", default=".")
    a = parser.parse_args()
    per_unit = -(-a.servers // a.units)
    groups = -(-per_unit // SERVERS_PER_LEAF)  # leaves per rail in a unit
    name = "cluster-%d" % a.servers
    fabric = ["rackscope-fabric 1", "# %d servers in %d scalable units, made up by make_cluster.py" % (a.servers, a.units),
              "expect width=4x speed=NDR"]
    for s in range(1, a.spines + 1):
        fabric.append("switch spine-%02d tier=spine ports=%d" % (s, max(64, a.units * groups * RAILS)))
    for u in range(a.units):
        for g in range(groups):
            for r in range(RAILS):
                leaf = "su%d-leaf-r%d-%d" % (u + 1, r, g + 1)
                fabric.append("switch %s tier=leaf ports=64" % leaf)
                for s in range(1, a.spines + 1):
                    fabric.append("link %s:%d spine-%02d:%d" % (leaf, 33 + s - 1, s, 1 + (u * groups + g) * RAILS + r))
    cluster = ["rackscope-cluster 1", "# made up by make_cluster.py"]
    node = os.path.join(HERE, "h100-8gpu-node.xml")
    for n in range(a.servers):
        u, i = divmod(n, per_unit)
        host = "su%d-node%04d" % (u + 1, n + 1)
        cluster.append("host %s %s" % (host, node))
        for r in range(RAILS):
            fabric.append("link %s/mlx5_%d:1 su%d-leaf-r%d-%d:%d" % (host, r, u + 1, r, i // SERVERS_PER_LEAF + 1,
                                                                    i % SERVERS_PER_LEAF + 1))
    cluster.append("fabric %s.fabric" % name)
    os.makedirs(a.out, exist_ok=True)
    for ext, lines in (("fabric", fabric), ("cluster", cluster)):
        with open(os.path.join(a.out, "%s.%s" % (name, ext)), "w") as f:
            f.write("\n".join(lines) + "\n")
    print(os.path.join(a.out, name + ".cluster"))


if __name__ == "__main__":
    main()
