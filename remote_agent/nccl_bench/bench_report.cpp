#include "bench_report.h"

#include <algorithm>
#include <cstdio>

namespace rackscope::bench {
namespace {

template <typename... Args> std::string format(const char* pattern, Args... args) {
    char buffer[512];
    const int n = std::snprintf(buffer, sizeof buffer, pattern, args...);
    return std::string(buffer,
                       n < 0 ? 0 : std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buffer - 1));
}

} // namespace

std::string parameterLine(const Options& o) {
    const bool factor = o.stepFactor > 1;
    return format("# nThread %d nGpus %d minBytes %zu maxBytes %zu step: %zu(%s) warmup iters: %d iters: %d "
                  "agg iters: %d "
                  "validation: %d graph: %d\n",
                  o.threads, o.gpus, o.minBytes, o.maxBytes, factor ? o.stepFactor : o.stepBytes,
                  factor ? "factor" : "bytes", o.warmupIters, o.iters, o.aggIters, o.check,
                  o.cudaGraphLaunches);
}

std::string deviceLine(const DeviceLine& d) {
    return format("#  Rank %2d Group %2d Pid %6ld on %10s device %2d [%04x:%02x:%02x] %s\n", d.rank, d.group,
                  d.pid, d.host.c_str(), d.device, d.pciDomain, d.pciBus, d.pciDevice, d.name.c_str());
}

std::string devicesBlock(const std::string& deviceLines) {
    return "#\n# Using devices\n" + deviceLines + "#\n";
}

std::string tableHeader() {
    return format("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place         "
                  " \n",
                  "", "", "", "", "") +
           format("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s\n", "size", "count",
                  "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
                  "#wrong") +
           format("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s\n", "(B)",
                  "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
}

std::string rowStart(std::size_t bytes, std::size_t count, const char* type, const char* redop, int root) {
    return format("%12zu  %12zu  %8s  %6s  %6d", bytes, count, type, redop, root);
}

std::string formatTime(double us) {
    return format(us >= 10000.0 ? "%7.0f" : us >= 100.0 ? "%7.1f" : "%7.2f", us);
}

std::string rowResult(double seconds, double algbw, double busbw, long long wrong) {
    const std::string wrongText = wrong < 0 ? std::string("N/A") : std::to_string(wrong);
    return format("  %7s  %6.2f  %6.2f  %5s", formatTime(seconds * 1e6).c_str(), algbw, busbw,
                  wrongText.c_str());
}

std::string footer(const Totals& t) {
    return format("# Out of bounds values : %d %s\n", t.failedResults, t.failedResults ? "FAILED" : "OK") +
           format("# Avg bus bandwidth    : %g \n", t.results ? t.busbwSum / t.results : 0.0) + "#\n";
}

} // namespace rackscope::bench
