#include "load_job.h"

#include <sys/eventfd.h>
#include <unistd.h>

namespace rsagent {

LoadJob::LoadJob(int64_t id, rsload::LoadSpec spec)
    : id_(id), notify_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
      engine_(std::move(spec),
              rsload::LoadCallbacks{
                  [this](const rsload::RequestRecord& r) {
                      push(Json{{"id", id_}, {"event", "request"}, {"data", rsload::toJson(r)}});
                  },
                  [this](const rsload::LoadProgress& p) {
                      push(Json{{"id", id_},
                                {"event", "progress"},
                                {"data", Json{{"elapsed_s", p.elapsedS},
                                              {"sent", p.sent},
                                              {"completed", p.completed},
                                              {"failed", p.failed},
                                              {"in_flight", p.inFlight},
                                              {"warmup", p.warmup}}}});
                  },
                  0.25,
                  [this](const rsload::ServerSample& s) {
                      push(Json{{"id", id_}, {"event", "server_metrics"}, {"data", rsload::toJson(s)}});
                  }}) {
    thread_ = std::thread([this] {
        const rsload::LoadOutcome o = engine_.run();
        if (!o.error.empty() && o.records == 0) {
            push(Json{{"id", id_}, {"error", Json{{"code", "load-failed"}, {"message", o.error}}}}, true);
            return;
        }
        push(Json{{"id", id_},
                  {"result", Json{{"records", o.records},
                                  {"cancelled", o.cancelled},
                                  {"error", o.error.empty() ? Json() : Json(o.error)},
                                  {"http_client", o.httpClient},
                                  {"fd_limit", o.fdLimit}}}},
             true);
    });
}

LoadJob::~LoadJob() {
    engine_.cancel();
    if (thread_.joinable())
        thread_.join();
    if (notify_ >= 0)
        ::close(notify_);
}

void LoadJob::cancel() {
    engine_.cancel();
}

void LoadJob::push(Json message, bool last) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(message));
        if (last)
            finished_ = true;
    }
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(notify_, &one, sizeof one);
}

std::vector<Json> LoadJob::take(bool* finished) {
    uint64_t count = 0;
    [[maybe_unused]] ssize_t n = ::read(notify_, &count, sizeof count);
    std::lock_guard lock(mutex_);
    std::vector<Json> out(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
    queue_.clear();
    *finished = finished_;
    return out;
}

} // namespace rsagent
