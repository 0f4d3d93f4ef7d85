#include "server.h"

#include "int_param.h"

#include "protocol/json_nesting.h"
#include "protocol/protocol.h"
#include "rackscope_version.h"

#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace rsagent {

Server::Server(int inFd, int outFd, CollectOptions options)
    : in_(inFd), out_(outFd), options_(std::move(options)), reader_(protocol::kMaxRequestLine) {}

Json Server::hello() const {
    return Json{{"type", protocol::method::kHello},
                {"protocol", protocol::kVersion},
                {"protocol_minor", protocol::kMinorVersion},
                {"agent", RACKSCOPE_VERSION},
                {"host", hostName()},
                {"capabilities",
                 Json::array({protocol::method::kCollect, protocol::method::kSample, protocol::method::kLoad,
                              protocol::method::kRdmaBw, protocol::kCapabilitySampleGpus})}};
}

void Server::send(const Json& message) {
    if (outputBroken_)
        return;
    // Replace invalid UTF-8 from the system (interface names, sysfs text) rather than fail.
    const std::string line = message.dump(-1, ' ', false, nlohmann::detail::error_handler_t::replace) + "\n";
    size_t done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(out_, line.data() + done, line.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            outputBroken_ = true; // the client is gone; run() ends at its EOF
            return;
        }
        done += size_t(n);
    }
}

void Server::sendError(const Json& id, const char* code, const std::string& message) {
    send(Json{{"id", id}, {"error", Json{{"code", code}, {"message", message}}}});
}

int Server::run() {
    send(hello());
    char buf[65536];
    for (;;) {
        std::vector<pollfd> p{{in_, POLLIN, 0}, {load_ ? load_->notifyFd() : -1, POLLIN, 0}};
        for (const auto& [id, job] : rdmaBw_)
            p.push_back({job->notifyFd(), POLLIN, 0});
        const int next = msUntilNextSample(Clock::now());
        const int ready =
            ::poll(p.data(), nfds_t(p.size()), next < 0 || next > kParentCheckMs ? kParentCheckMs : next);
        if (ready < 0 && errno != EINTR)
            return 1;
        // A console killed outright may leave our stdin open (a pipe another process holds): its death
        // shows as a new parent, looked at least once a second, and ends a load run as an EOF would.
        if (::getppid() != parent_) {
            load_.reset();
            rdmaBw_.clear();
            return 0;
        }
        if (ready > 0 && p[1].revents)
            forwardLoad();
        for (auto it = rdmaBw_.begin(); ready > 0 && it != rdmaBw_.end();) {
            std::optional<Json> answer = it->second->take();
            if (!answer) {
                ++it;
                continue;
            }
            send(*answer);
            it = rdmaBw_.erase(it);
        }
        if (ready > 0 && p[0].revents) {
            const ssize_t n = ::read(in_, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                // EOF: a partial request line is dropped, running samples too; a load or ib_write_bw is
                // ended.
                load_.reset();
                rdmaBw_.clear();
                return 0;
            }
            for (const LineReader::Item& item : reader_.feed(buf, size_t(n))) {
                if (item.tooLong)
                    sendError(nullptr, protocol::error::kLineTooLong,
                              "request line longer than " + std::to_string(protocol::kMaxRequestLine) +
                                  " bytes, dropped");
                else
                    handleLine(item.line);
            }
        }
        tick(Clock::now());
        if (outputBroken_)
            return 0;
    }
}

void Server::handleLine(const std::string& line) {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
        return; // blank lines are allowed
    if (!protocol::jsonNestingWithin(line))
        return sendError(nullptr, protocol::error::kBadRequest,
                         "request nested deeper than " + std::to_string(protocol::kMaxJsonDepth) +
                             " levels, dropped");
    const Json request = Json::parse(line, nullptr, false);
    if (request.is_discarded())
        return sendError(nullptr, protocol::error::kParse, "request is not valid JSON");
    if (!request.is_object())
        return sendError(nullptr, protocol::error::kBadRequest, "request is not a JSON object");
    const Json id = request.contains("id") ? request["id"] : Json(nullptr);
    if (!id.is_number_integer() || id.get<int64_t>() < 0)
        return sendError(id.is_number_integer() ? id : Json(nullptr), protocol::error::kBadRequest,
                         "request needs a non-negative integer \"id\"");
    if (!request.contains("method") || !request["method"].is_string())
        return sendError(id, protocol::error::kBadRequest, "request needs a string \"method\"");
    if (request.contains("protocol")) {
        const Json& v = request["protocol"];
        if (!v.is_number_integer())
            return sendError(id, protocol::error::kBadRequest, "\"protocol\" must be an integer");
        if (v.get<int64_t>() > protocol::kVersion)
            return sendError(id, protocol::error::kUnsupportedProtocol,
                             "this agent speaks protocol " + std::to_string(protocol::kVersion) +
                                 ", the client asked for " + std::to_string(v.get<int64_t>()) +
                                 ": deploy the agent that matches the client");
    }
    const Json params = request.contains("params") ? request["params"] : Json::object();
    if (!params.is_object())
        return sendError(id, protocol::error::kBadParams, "\"params\" must be an object");
    handleRequest(id, request["method"].get<std::string>(), params);
}

void Server::handleRequest(const Json& id, const std::string& method, const Json& params) {
    const int64_t key = id.get<int64_t>();
    if (method == protocol::method::kHello)
        return send(Json{{"id", id}, {"result", hello()}});
    if (method == protocol::method::kCollect) {
        std::set<std::string> sections;
        if (params.contains("sections")) {
            if (!params["sections"].is_array())
                return sendError(id, protocol::error::kBadParams, "\"sections\" must be an array");
            for (const Json& s : params["sections"]) {
                const auto& known = snapshotSections();
                if (!s.is_string() ||
                    std::find(known.begin(), known.end(), s.get<std::string>()) == known.end())
                    return sendError(id, protocol::error::kBadParams, "unknown section " + s.dump());
                sections.insert(s.get<std::string>());
            }
        }
        return send(Json{{"id", id}, {"result", collectSnapshot(options_, sections)}});
    }
    if (method == protocol::method::kSample) {
        if (jobs_.count(key))
            return sendError(id, protocol::error::kDuplicateId, "a sample with this id is running");
        // Each stream holds a counter reading: a client may not grow the agent without bound.
        if (jobs_.size() >= size_t(protocol::kMaxConcurrentSamples))
            return sendError(id, protocol::error::kBusy,
                             std::to_string(jobs_.size()) +
                                 " samples are running, the most one client may have; cancel one first");
        return startSample(key, params);
    }
    if (method == protocol::method::kLoad)
        return startLoad(id, params);
    if (method == protocol::method::kRdmaBw)
        return startRdmaBw(id, params);
    if (method == protocol::method::kCancel) {
        if (load_ && load_->id() == key)
            return load_->cancel(); // its result follows when the engine has stopped
        if (const auto rdma = rdmaBw_.find(key); rdma != rdmaBw_.end())
            return rdma->second->cancel(); // its result follows, "cancelled": true
        const auto it = jobs_.find(key);
        if (it == jobs_.end())
            return sendError(id, protocol::error::kNotFound, "nothing running with this id");
        send(Json{{"id", id}, {"result", Json{{"samples", it->second.sent}, {"cancelled", true}}}});
        jobs_.erase(it);
        return;
    }
    sendError(id, protocol::error::kUnknownMethod, "unknown method \"" + method.substr(0, 64) + "\"");
}

void Server::startLoad(const Json& id, const Json& params) {
    if (load_)
        return sendError(id, protocol::error::kBusy,
                         "a load run is already running (id " + std::to_string(load_->id()) + ")");
    if (jobs_.count(id.get<int64_t>()))
        return sendError(id, protocol::error::kDuplicateId, "a sample with this id is running");
    std::string why;
    std::optional<rsload::LoadSpec> spec = rsload::loadSpecFromJson(params, &why);
    if (!spec)
        return sendError(id, protocol::error::kBadParams, why);
    if (spec->client.empty())
        spec->client = hostName();
    load_ = std::make_unique<LoadJob>(id.get<int64_t>(), std::move(*spec));
}

void Server::startRdmaBw(const Json& id, const Json& params) {
    const int64_t key = id.get<int64_t>();
    if (rdmaBw_.count(key) || jobs_.count(key) || (load_ && load_->id() == key))
        return sendError(id, protocol::error::kDuplicateId, "a run with this id is running");
    if (rdmaBw_.size() >= size_t(protocol::kMaxConcurrentRdmaBw))
        return sendError(id, protocol::error::kBusy,
                         std::to_string(rdmaBw_.size()) + " rdma_bw runs are running, the most at once");
    std::string why;
    std::optional<RdmaBwRun> run = rdmaBwRun(params, options_.fs, &why);
    if (!run)
        return sendError(id, protocol::error::kBadParams, why);
    rdmaBw_[key] = std::make_unique<RdmaBwJob>(key, std::move(*run));
}

void Server::forwardLoad() {
    bool finished = false;
    for (const Json& m : load_->take(&finished))
        send(m);
    if (finished)
        load_.reset();
}

void Server::startSample(int64_t id, const Json& params) {
    auto intParam = [&](const char* name, int64_t fallback, int64_t lo, int64_t hi, int64_t* out) {
        std::optional<int64_t> value;
        std::string why;
        if (!readIntParam(params, name, lo, hi, fallback, &value, &why)) {
            sendError(id, protocol::error::kBadParams, why);
            return false;
        }
        return *out = *value, true;
    };
    SampleJob job;
    if (!intParam("interval_ms", 1000, protocol::kMinIntervalMs, protocol::kMaxIntervalMs, &job.intervalMs))
        return;
    if (!intParam("count", 10, 1, protocol::kMaxSampleCount, &job.remaining))
        return;
    auto boolParam = [&](const char* name, bool fallback, bool* out) {
        if (!params.contains(name))
            return *out = fallback, true;
        if (!params[name].is_boolean()) {
            sendError(id, protocol::error::kBadParams, std::string("\"") + name + "\" must be true or false");
            return false;
        }
        return *out = params[name].get<bool>(), true;
    };
    bool gpus = false;
    if (!boolParam("counters", true, &job.counters) || !boolParam("gpus", false, &gpus))
        return;
    if (!job.counters && !gpus)
        return sendError(id, protocol::error::kBadParams,
                         "\"counters\" and \"gpus\" are both false: nothing to sample");
    if (gpus)
        job.gpus = std::make_unique<GpuTelemetry>();
    job.last = Clock::now();
    // Counters need an interval to have a delta; GPUs alone are read at once, so a short run has a reading.
    job.next = job.counters ? job.last + std::chrono::milliseconds(job.intervalMs) : job.last;
    if (job.counters)
        job.previous = readCounters(options_.fs);
    jobs_[id] = std::move(job);
}

int Server::msUntilNextSample(Clock::time_point now) const {
    int best = -1;
    for (const auto& [id, job] : jobs_) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(job.next - now).count();
        const int wait = ms < 0 ? 0 : int(ms + 1);
        if (best < 0 || wait < best)
            best = wait;
    }
    return best;
}

void Server::tick(Clock::time_point now) {
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        SampleJob& job = it->second;
        if (now < job.next) {
            ++it;
            continue;
        }
        const double elapsed = std::chrono::duration<double, std::milli>(now - job.last).count();
        Json data{{"seq", job.sent}, {"interval_ms", elapsed}};
        if (job.counters) {
            CounterReading current = readCounters(options_.fs);
            data["counters"] = counterDeltas(job.previous, current, elapsed);
            job.previous = std::move(current);
        }
        if (job.gpus)
            data["gpus"] = job.gpus->read();
        send(Json{{"id", it->first}, {"event", protocol::method::kSample}, {"data", std::move(data)}});
        job.last = now;
        job.next += std::chrono::milliseconds(job.intervalMs);
        if (job.next < now)
            job.next = now + std::chrono::milliseconds(job.intervalMs); // fell behind: do not burst
        ++job.sent;
        if (--job.remaining == 0) {
            send(Json{{"id", it->first}, {"result", Json{{"samples", job.sent}}}});
            it = jobs_.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace rsagent
