#include "rdma_bw_job.h"

#include "collect/run_fixed.h"

#include <sys/eventfd.h>
#include <unistd.h>

namespace rsagent {
namespace {
constexpr size_t kMaxOutput = 1 << 20; // 16 QPs with CUDA print about 7 KiB
}

RdmaBwJob::RdmaBwJob(int64_t id, RdmaBwRun run) : id_(id), notify_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
    thread_ = std::thread([this, run = std::move(run)] {
        const std::string program = findProgram(kRdmaBwProgram);
        Json result{{"program", program.empty() ? Json() : Json(program)},
                    {"args", run.args},
                    {"exit_status", nullptr},
                    {"output", ""},
                    {"failure", nullptr},
                    {"cancelled", false}};
        if (program.empty()) {
            result["failure"] = std::string(kRdmaBwProgram) + " (perftest) is not installed on this host";
        } else {
            std::vector<std::string> argv{program};
            argv.insert(argv.end(), run.args.begin(), run.args.end());
            const FixedRun r = runFixed(argv, run.timeoutMs, kMaxOutput, FixedRunOptions{true, &cancel_});
            result["output"] = r.out;
            if (r.exitCode >= 0)
                result["exit_status"] = r.exitCode;
            if (!r.failure.empty())
                result["failure"] = r.failure;
            result["cancelled"] = cancel_.load();
        }
        {
            std::lock_guard lock(mutex_);
            answer_ = Json{{"id", id_}, {"result", std::move(result)}};
        }
        const uint64_t one = 1;
        [[maybe_unused]] ssize_t n = ::write(notify_, &one, sizeof one);
    });
}

RdmaBwJob::~RdmaBwJob() {
    cancel_ = true;
    if (thread_.joinable())
        thread_.join();
    if (notify_ >= 0)
        ::close(notify_);
}

std::optional<Json> RdmaBwJob::take() {
    uint64_t count = 0;
    [[maybe_unused]] ssize_t n = ::read(notify_, &count, sizeof count);
    std::lock_guard lock(mutex_);
    return std::exchange(answer_, std::nullopt);
}

} // namespace rsagent
