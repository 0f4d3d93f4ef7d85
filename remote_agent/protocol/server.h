#pragma once
// The agent's side of the protocol: newline-delimited JSON on two file
// descriptors, one request at a time plus any number of streaming samples,
// in one thread driven by poll(); a load run's engine has a thread of its own.
#include "collect/counters.h"
#include "collect/gpu_telemetry.h"
#include "collect/snapshot.h"
#include "line_reader.h"
#include "load_job.h"
#include "rdma_bw_job.h"

#include <chrono>
#include <map>
#include <memory>
#include <unistd.h>

namespace rsagent {

class Server {
public:
    Server(int inFd, int outFd, CollectOptions options);
    // Serves until the client closes its end; returns the exit status.
    int run();

    Json hello() const;

private:
    using Clock = std::chrono::steady_clock;
    static constexpr int kParentCheckMs = 1000;
    struct SampleJob {
        int64_t intervalMs = 1000;
        int64_t remaining = 0;
        int64_t sent = 0;
        Clock::time_point next;
        Clock::time_point last;
        bool counters = true;
        CounterReading previous;
        std::unique_ptr<GpuTelemetry> gpus; // when asked for
    };

    void handleLine(const std::string& line);
    void handleRequest(const Json& id, const std::string& method, const Json& params);
    void startSample(int64_t id, const Json& params);
    void tick(Clock::time_point now);
    void startLoad(const Json& id, const Json& params);
    void forwardLoad();
    void startRdmaBw(const Json& id, const Json& params);
    int msUntilNextSample(Clock::time_point now) const;

    void send(const Json& message);
    void sendError(const Json& id, const char* code, const std::string& message);

    int in_, out_;
    pid_t parent_ = ::getppid(); // the console (or the sshd session) that started us
    CollectOptions options_;
    LineReader reader_;
    std::map<int64_t, SampleJob> jobs_;
    std::unique_ptr<LoadJob> load_; // one load run at a time
    std::map<int64_t, std::unique_ptr<RdmaBwJob>> rdmaBw_;
    bool outputBroken_ = false;
};

} // namespace rsagent
