#pragma once
// Runs one of the agent's own fixed commands (never anything a request
// supplies): argv is exec'd directly, no shell, with a time and output bound.
#include <optional>
#include <string>
#include <vector>

namespace rsagent {

struct FixedRun {
    int exitCode = -1; // -1 when it could not run or was killed
    std::string out;
    std::string failure; // why it did not run to completion
};

FixedRun runFixed(const std::vector<std::string>& argv, int timeoutMs, size_t maxOutput);
// The program's path, from PATH and the sbin directories, or empty.
std::string findProgram(const std::string& name);

} // namespace rsagent
