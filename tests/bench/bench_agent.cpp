// One full `rackscope-agent collect` beside `lstopo-no-graphics --of xml` on
// this machine, in one run, on every core and pinned to one: wall time (goal:
// ratio <= 1.0 both ways) and peak RSS (goal: under 20 MB); then the agent's
// CPU use while it samples counters once a second (goal: under 0.5 % of a
// core).
#include "proc_cpu.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

struct Run {
    double ms = -1;
    long maxRssKb = 0;
};

// fork/exec with output to /dev/null; wait4 gives the child's own peak RSS. `oneCore`: on the first CPU only.
Run runOnce(const std::vector<std::string>& argv, bool oneCore) {
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        if (oneCore) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(0, &one);
            sched_setaffinity(0, sizeof one, &one);
        }
        const int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, STDOUT_FILENO);
        dup2(devnull, STDERR_FILENO);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    Run r;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        r.maxRssKb = usage.ru_maxrss;
    }
    return r;
}

Run median(const std::vector<std::string>& argv, int runs, bool oneCore) {
    std::vector<Run> all;
    for (int i = 0; i < runs; ++i) {
        all.push_back(runOnce(argv, oneCore));
        if (all.back().ms < 0)
            return {};
    }
    std::sort(all.begin(), all.end(), [](const Run& a, const Run& b) { return a.ms < b.ms; });
    Run m = all[all.size() / 2];
    for (const Run& r : all)
        m.maxRssKb = std::max(m.maxRssKb, r.maxRssKb);
    return m;
}

// The agent serving --stdio, asked to sample once a second; CPU over `seconds`.
double idleSamplingCpuPercent(const std::string& agent, int seconds) {
    int in[2];
    if (pipe(in) != 0)
        return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        close(in[1]);
        const int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, STDOUT_FILENO);
        execl(agent.c_str(), agent.c_str(), "--stdio", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]);
    const char request[] =
        "{\"id\":1,\"method\":\"sample\",\"params\":{\"interval_ms\":1000,\"count\":100000}}\n";
    if (write(in[1], request, sizeof request - 1) < 0)
        return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(1500)); // past start-up and the first reading
    const double before = rackscope::bench::processCpuSeconds(pid);
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    const double after = rackscope::bench::processCpuSeconds(pid);
    close(in[1]); // EOF: the agent exits
    int status = 0;
    waitpid(pid, &status, 0);
    return before < 0 || after < 0 ? -1 : 100.0 * (after - before) / seconds;
}

} // namespace

int main() {
    const std::string agent = RACKSCOPE_AGENT;
    const int runs = 21;
    std::printf("bench_agent: one full collection on this machine, median of %d runs\n", runs);
    for (const bool oneCore : {false, true}) {
        const Run theirs = median({"lstopo-no-graphics", "--of", "xml"}, runs, oneCore);
        const Run ours = median({agent, "collect"}, runs, oneCore);
        if (ours.ms < 0 || theirs.ms < 0) {
            std::fprintf(stderr, "bench_agent: a run failed (agent %.1f ms, lstopo %.1f ms)\n", ours.ms,
                         theirs.ms);
            return 1;
        }
        std::printf("  %s (%ld online)\n", oneCore ? "pinned to one core" : "on every core",
                    sysconf(_SC_NPROCESSORS_ONLN));
        std::printf("    lstopo-no-graphics --of xml   %8.2f ms  %6.1f MB peak RSS   (reference)\n",
                    theirs.ms, double(theirs.maxRssKb) / 1024.0);
        std::printf(
            "    rackscope-agent collect       %8.2f ms  %6.1f MB peak RSS   ratio %.2f (goal <= 1.0); "
            "RSS goal < 20 MB\n",
            ours.ms, double(ours.maxRssKb) / 1024.0, ours.ms / theirs.ms);
    }
    const double cpu = idleSamplingCpuPercent(agent, 10);
    std::printf("  sampling once a second        %8.3f %% of one core over 10 s   (goal < 0.5 %%)\n", cpu);
    return cpu < 0 ? 1 : 0;
}
