#pragma once
#include "model/host_topology.h"

#include <QString>
#include <optional>
#include <vector>

namespace rackscope {

// What an importer returns: a host, or one line saying what is wrong.
struct ImportResult {
    std::optional<HostTopology> host;
    std::vector<HostTopology> moreHosts; // a file of several hosts (a fused NCCL dump): those after `host`
    QString error;

    static ImportResult fail(QString message) { return {std::nullopt, {}, std::move(message)}; }
    static ImportResult ok(HostTopology h) { return {std::move(h), {}, {}}; }
};

// A server that could not be inspected: the stage that failed (connect, host-key, deploy, ...) and why.
struct UnreachableServer {
    QString name;     // as the person gave it
    QString location; // "ssh://name"
    QString stage;
    QString message;
};

// An input that could not be read, and why.
struct FailedInput {
    QString input; // file path or host name
    QString message;
};

} // namespace rackscope
