#pragma once
#include "model/host_topology.h"

#include <QStringList>
#include <map>
#include <optional>

namespace rackscope::cli {
// rackscope-cli parse-nccl-tests FILE [--json]
int runParseNcclTests(const QStringList& args);

// --topology HOST=FILE, repeated: each host's topology (any format inspect reads), or nullopt after saying
// on stderr what is wrong, as `command` ("parse-nccl-tests").
std::optional<std::map<QString, HostTopology>> topologiesByHost(const QStringList& pairs,
                                                                const char* command);
} // namespace rackscope::cli
