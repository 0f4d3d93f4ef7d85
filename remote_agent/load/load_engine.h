#pragma once
// The load generator: one thread, one event loop, any number of HTTP/1.1
// keep-alive streams with no connection cap (http_transport.h: Boost.Beast on
// Asio for plain http, libcurl's multi interface for https and proxies), each
// response's server-sent events parsed as they arrive and timed on arrival. It runs inside rackscope-agent
// (the "load" method) and in-process in tests and benchmarks.
#include "load_model/request_record.h"
#include "load_model/server_metrics.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace rsload {

struct LoadProgress {
    double elapsedS = 0;
    int64_t sent = 0, completed = 0, failed = 0;
    int64_t inFlight = 0;
    bool warmup = false;
};

struct LoadCallbacks {
    std::function<void(const RequestRecord&)> onRecord;  // every request, as it ends
    std::function<void(const LoadProgress&)> onProgress; // every progressIntervalS, and at the end
    double progressIntervalS = 0.25;
    // With spec.metricsUrl: each scrape of the server's metrics, at the next progress report (warm-up's
    // when the measured phase starts, with negative times), and the last one at the end.
    std::function<void(const ServerSample&)> onServerSample;
};

struct LoadOutcome {
    std::string error; // the run could not start, or broke: why
    bool cancelled = false;
    int64_t records = 0;    // records handed out (warm-up included)
    std::string httpClient; // the library that carried the requests, and its version
    int fdLimit = 0;        // the open-file limit the run had: a concurrency above it cannot be reached
    std::chrono::steady_clock::time_point origin; // t = 0 of the measured records' times (sentS, scheduledS)
};

class LoadEngine {
public:
    LoadEngine(LoadSpec spec, LoadCallbacks callbacks);
    ~LoadEngine();
    LoadEngine(const LoadEngine&) = delete;
    LoadEngine& operator=(const LoadEngine&) = delete;

    LoadOutcome run(); // blocks until the run ends
    void cancel();     // from any thread; in-flight requests end as "cancelled"

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace rsload
