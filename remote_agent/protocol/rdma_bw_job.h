#pragma once
// One "rdma_bw" run: ib_write_bw on a thread of its own, so the protocol loop keeps serving (a cancel,
// samples, the client's EOF) while a server side waits for its peer. Its one answer reaches the loop
// through an eventfd.
#include "collect/json.h"
#include "perftest/rdma_bw.h"

#include <atomic>
#include <mutex>
#include <thread>

namespace rsagent {

class RdmaBwJob {
public:
    RdmaBwJob(int64_t id, RdmaBwRun run);
    ~RdmaBwJob(); // cancels and joins

    int64_t id() const { return id_; }
    int notifyFd() const { return notify_; } // readable when the answer is ready
    // The answer once the run has ended, else nothing.
    std::optional<Json> take();
    void cancel() { cancel_ = true; }

private:
    int64_t id_;
    int notify_ = -1;
    std::atomic<bool> cancel_{false};
    std::mutex mutex_;
    std::optional<Json> answer_;
    std::thread thread_;
};

} // namespace rsagent
