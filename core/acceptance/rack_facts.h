#pragma once
// The facts of one server that a rack's servers should share (counts, models, link rates, MTUs, QoS,
// versions), read from what its source stated: an agent's snapshot, else its topology file. A fact the
// source did not give is absent, and why is kept by check.
#include "analysis/host_analysis.h"

#include <QJsonObject>
#include <map>
#include <vector>

namespace rackscope {

class Workspace;

struct Fact {
    QString check;      // the check it belongs to (check_result.h)
    QString key;        // stable: "version.nvidia_driver", "mtu.eth0", "port.rate"
    QStringList values; // one per device (in device order), or one for the server
    // The distinct values, sorted: "200 Gb/sec (2X NDR), 400 Gb/sec (4X NDR)". How many devices there are is
    // a fact of its own (gpu.count, nic.count), so one device fewer moves only its count.
    QString text() const;
};

struct HostFacts {
    QString host;
    QString source; // where the facts came from: "agent snapshot (ssh://node3)", "hwloc-xml a.xml"
    bool fromAgent = false;
    std::vector<Fact> facts;
    // Why the source says nothing of what a check needs, by check id ("NVML: no NVIDIA driver").
    std::map<QString, QString> silent;
    const Fact* find(const QString& key) const;
};

// `snapshot`: the agent's collect answer the host was read from, or empty for a topology file.
HostFacts factsOf(const InspectedHost& host, const QJsonObject& snapshot);

// The check a fact key belongs to, and the phrase that says a server has it, with %1 for the value:
// "run NVIDIA driver %1", "have MTU %1 on eth0". Empty check: not a key of rackscope's.
struct FactKind {
    QString check;
    QString phrase;
};
FactKind factKind(const QString& key);

} // namespace rackscope
