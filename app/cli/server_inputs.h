#pragma once
// The servers a command names, read into a workspace: topology files, this machine's agent (--local) and
// servers over SSH (--hosts), the way `inspect` and `check` both take them.
#include "remote_hosts.h"
#include "workspace/workspace.h"

namespace rackscope::cli {

struct ServerInputs {
    std::vector<FailedInput> failed; // inputs that could not be read (each said on stderr)
    QString error;                   // the options are wrong: nothing was read
};

ServerInputs readServers(const QCommandLineParser& parser, const RemoteOptions& remote,
                         const QStringList& files, bool local, Workspace& ws);

} // namespace rackscope::cli
