#pragma once
// The "load" method's run: the load engine on a thread of its own, so the
// protocol loop keeps reading (a cancel, the client's EOF) while it runs.
// Its records and progress reach the loop through a queue and an eventfd.
#include "collect/json.h"
#include "load/load_engine.h"

#include <deque>
#include <mutex>
#include <thread>

namespace rsagent {

class LoadJob {
public:
    LoadJob(int64_t id, rsload::LoadSpec spec);
    ~LoadJob(); // cancels and joins

    int64_t id() const { return id_; }
    int notifyFd() const { return notify_; } // readable when messages are waiting
    // The protocol lines to send now, in order; `finished` once the result is among them.
    std::vector<Json> take(bool* finished);
    void cancel();

private:
    void push(Json message, bool last = false);

    int64_t id_;
    int notify_ = -1;
    rsload::LoadEngine engine_;
    std::mutex mutex_;
    std::deque<Json> queue_;
    bool finished_ = false;
    std::thread thread_;
};

} // namespace rsagent
