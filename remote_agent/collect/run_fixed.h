#pragma once
// Runs one of the agent's own fixed commands (never anything a request
// supplies): argv is exec'd directly, no shell, with a time and output bound.
#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace rsagent {

struct FixedRun {
    int exitCode = -1; // -1 when it could not run or was killed
    std::string out;
    std::string failure; // why it did not run to completion
};

struct FixedRunOptions {
    bool mergeStderr = false;                  // a program that says why it failed on stderr (perftest)
    const std::atomic<bool>* cancel = nullptr; // looked at ten times a second; set: the program is killed
};

FixedRun runFixed(const std::vector<std::string>& argv, int timeoutMs, size_t maxOutput,
                  const FixedRunOptions& options = {});
// The program's path, from PATH and the sbin directories, or empty.
std::string findProgram(const std::string& name);

} // namespace rsagent
