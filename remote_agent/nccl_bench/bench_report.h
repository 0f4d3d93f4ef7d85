#pragma once
// The text rackscope-nccl-bench prints: nccl-tests' layout, line for line
// (the parameter line, "Using devices", the out-of-place/in-place table with
// #wrong, "Out of bounds values" and "Avg bus bandwidth"), so rackscope's
// parser, scripts written for nccl-tests and people's eyes read it the same.
#include "bench_options.h"

#include <cstddef>
#include <string>
#include <vector>

namespace rackscope::bench {

struct DeviceLine {
    int rank = 0;
    int group = 0;
    long pid = 0;
    std::string host;
    int device = 0;
    int pciDomain = 0, pciBus = 0, pciDevice = 0;
    std::string name;
};

std::string parameterLine(const Options& o); // "# nThread 1 nGpus 1 minBytes ..."
std::string
deviceLine(const DeviceLine& d); // "#  Rank  0 Group  0 Pid ... device  0 [0000:18:00] NVIDIA H100"
std::string devicesBlock(const std::string& deviceLines); // "#\n# Using devices\n" + the lines + "#\n"
std::string tableHeader();
std::string rowStart(std::size_t bytes, std::size_t count, const char* type, const char* redop, int root);
// One half of a row (out-of-place or in-place); wrong < 0 prints "N/A" (not validated).
std::string rowResult(double seconds, double algbw, double busbw, long long wrong);
std::string formatTime(double microseconds); // nccl-tests' three precisions

// What the footer sums up, gathered as results are printed.
struct Totals {
    double busbwSum = 0;
    int results = 0;
    int failedResults = 0; // results with wrong elements
    void add(double busbw, long long wrong) {
        busbwSum += busbw;
        ++results;
        if (wrong > 0)
            ++failedResults;
    }
};
std::string footer(const Totals& t);

} // namespace rackscope::bench
