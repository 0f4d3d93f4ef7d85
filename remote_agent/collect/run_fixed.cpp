#include "run_fixed.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace rsagent {

std::string findProgram(const std::string& name) {
    if (name.find('/') != std::string::npos)
        return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
    std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    path += ":/usr/sbin:/sbin:/usr/local/sbin";
    std::istringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
        if (!dir.empty() && ::access((dir + "/" + name).c_str(), X_OK) == 0)
            return dir + "/" + name;
    return {};
}

FixedRun runFixed(const std::vector<std::string>& argv, int timeoutMs, size_t maxOutput,
                  const FixedRunOptions& options) {
    FixedRun r;
    int fds[2];
    if (argv.empty() || ::pipe2(fds, O_CLOEXEC) != 0) {
        r.failure = "cannot create a pipe";
        return r;
    }
    // Made before the fork: the child of a process with other threads calls only what is async-signal-safe.
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        r.failure = "cannot fork";
        return r;
    }
    if (pid == 0) {
        ::dup2(fds[1], STDOUT_FILENO);
        const int devnull = ::open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            ::dup2(devnull, STDIN_FILENO);
            ::dup2(options.mergeStderr ? fds[1] : devnull, STDERR_FILENO);
        }
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    char buf[65536];
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                .count();
        if (left <= 0) {
            r.failure = "timed out after " + std::to_string(timeoutMs) + " ms";
            break;
        }
        if (options.cancel && options.cancel->load()) {
            r.failure = "cancelled";
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, options.cancel && left > 100 ? 100 : int(left));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            continue;
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (r.out.size() + size_t(n) > maxOutput) {
            r.failure = "output over " + std::to_string(maxOutput) + " bytes";
            break;
        }
        r.out.append(buf, size_t(n));
    }
    ::close(fds[0]);
    if (!r.failure.empty())
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (r.failure.empty()) {
        if (WIFEXITED(status))
            r.exitCode = WEXITSTATUS(status);
        else
            r.failure = "killed by signal " + std::to_string(WTERMSIG(status));
    }
    return r;
}

} // namespace rsagent
