#include "load_runner.h"

#include "load_json.h"
#include "logging.h"
#include "transport/agent_client.h"
#include "transport/local_agent.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <cmath>
#include <utility>

namespace rackscope {
namespace {

template <class T> T share(T total, int i, int n) {
    return total / T(n) + (T(i) < total % T(n) ? 1 : 0);
}

} // namespace

rsload::LoadSpec shareOf(const rsload::LoadSpec& total, int i, int n, const std::string& client) {
    rsload::LoadSpec s = total;
    s.client = client;
    s.seed = total.seed + uint64_t(i) * 1000003u; // each client its own prompts
    if (n <= 1)
        return s;
    s.requests = total.requests > 0 ? std::max<int64_t>(1, share<int64_t>(total.requests, i, n)) : 0;
    s.warmup = total.warmup > 0 ? std::max<int64_t>(1, share<int64_t>(total.warmup, i, n)) : 0;
    s.concurrency = total.concurrency > 0 ? std::max(1, share<int>(total.concurrency, i, n)) : 0;
    s.rate = total.rate / n;
    if (!total.trace.empty()) { // every n-th request of the trace, at its own time
        s.trace.clear();
        for (size_t k = size_t(i); k < total.trace.size(); k += size_t(n))
            s.trace.push_back(total.trace[k]);
    }
    if (i > 0)
        s.metricsUrl.clear(); // one client scrapes the server
    return s;
}

LoadRunner::LoadRunner(QObject* parent) : QObject(parent) {}
LoadRunner::~LoadRunner() {
    cancel();
}

void LoadRunner::start(LoadRequest request) {
    request_ = std::move(request);
    running_ = true;
    cancelled_ = false;
    step_ = 0;
    results_.clear();
    search_.reset();
    request_.percentiles = rsload::withSloPercentiles(request_.percentiles, request_.slos); // the SLOs' own
    if (request_.capacity)
        search_.emplace(request_.capacity->by, request_.capacity->start, request_.capacity->tolerance);
    startStep();
}

void LoadRunner::cancel() {
    if (!running_)
        return;
    cancelled_ = true;
    if (waitingForWorkers_) { // nothing sent yet: the step ends as it is
        waitingForWorkers_ = false;
        QMetaObject::invokeMethod(this, &LoadRunner::endStep, Qt::QueuedConnection);
        return;
    }
    if (agent_ && agentRequest_ >= 0)
        agent_->cancel(agentRequest_); // the agent ends in-flight requests and sends their records
    if (fleet_)
        fleet_->cancel();
}

void LoadRunner::startStep() {
    ++step_;
    qCDebug(lcRuns) << "load step" << step_ << "on"
                    << (request_.hosts.isEmpty() ? QStringLiteral("the local agent")
                                                 : request_.hosts.join(QLatin1Char(',')));
    stepSpec_ = request_.spec;
    double value = 0;
    if (search_) {
        value = *search_->next();
        const LoadRequest::Capacity& c = *request_.capacity;
        stepSpec_.seed =
            request_.spec.seed + uint64_t(step_) * 7919u; // a repeat is another sample, not a replay
        stepSpec_.durationS = 0;
        stepSpec_.warmup = 0;
        if (search_->by() == CapacitySearch::By::Rate) {
            stepSpec_.rate = value;
            stepSpec_.concurrency = 0; // open loop: the arrivals, not a cap, set the load
            stepSpec_.requests = std::max(c.minRequests, int64_t(std::ceil(value * c.stepS)));
        } else {
            stepSpec_.concurrency = int(value);
            stepSpec_.rate = 0;
            stepSpec_.requests = 0;
            stepSpec_.durationS = c.stepS;
        }
    } else if (request_.sweep != LoadRequest::Sweep::None) {
        value = request_.sweepValues.at(size_t(step_ - 1));
        if (request_.sweep == LoadRequest::Sweep::Concurrency)
            stepSpec_.concurrency = int(value);
        else
            stepSpec_.rate = value;
    }
    stepValue_ = value;
    const bool stepped = search_ || request_.sweep != LoadRequest::Sweep::None;
    const bool byRate =
        search_ ? search_->by() == CapacitySearch::By::Rate : request_.sweep == LoadRequest::Sweep::Rate;
    records_.clear();
    serverSamples_.clear();
    gpuSamples_.clear();
    pendingGpuSamples_.clear();
    originS_.reset();
    stepClock_.start();
    clientErrors_.clear();
    emit stepStarted(step_, value);
    if (!request_.resultsDirectory.isEmpty()) {
        QString dir = request_.resultsDirectory;
        if (stepped)
            dir += QStringLiteral("/step-%1").arg(step_, 2, 10, QLatin1Char('0'));
        rsload::Json extra{{"hosts", rsload::Json::array()}, {"step", step_}};
        if (stepped)
            extra["sweep"] = byRate ? "rate" : "concurrency";
        if (search_)
            extra["capacity_search"] = true;
        for (const QString& h : request_.hosts)
            extra["hosts"].push_back(h.toStdString());
        if (!request_.workers.isEmpty()) {
            extra["workers"] = rsload::Json::array();
            for (const QString& w : request_.workers)
                extra["workers"].push_back(w.toStdString());
        }
        if (const QString e = writer_.open(dir, stepSpec_, extra); !e.isEmpty()) {
            running_ = false;
            emit finished(false, e);
            return;
        }
    }
    gpuSampler_.reset();
    if (!request_.workers.isEmpty()) {
        gpuSampler_ = std::make_unique<GpuSampler>();
        connect(gpuSampler_.get(), &GpuSampler::sampled, this,
                [this](const QString& w, const QJsonObject& data) { onGpuSample(w, data, stepSeconds()); });
        connect(gpuSampler_.get(), &GpuSampler::failed, this, [this](const QString& w, const QString& error) {
            onGpuSample(w, QJsonObject{{"gpus", QJsonObject{{"available", false}, {"reason", error}}}},
                        stepSeconds());
        });
        const double interval = stepSpec_.scrapeIntervalS > 0 ? stepSpec_.scrapeIntervalS : 0.5;
        // The load starts once every worker has given a first reading or said why it cannot: the GPUs are
        // seen from the run's first second, however long SSH takes to reach them.
        connect(gpuSampler_.get(), &GpuSampler::ready, this, &LoadRunner::startClients);
        waitingForWorkers_ = true;
        gpuSampler_->start(request_.workers, request_.fleet, request_.agentPath,
                           std::clamp(int(interval * 1000), rsagent::protocol::kMinIntervalMs,
                                      rsagent::protocol::kMaxIntervalMs));
        return;
    }
    startClients();
}

void LoadRunner::startClients() {
    if (!waitingForWorkers_ && gpuSampler_)
        return; // cancelled while waiting
    waitingForWorkers_ = false;
    if (request_.hosts.isEmpty()) {
        clientsLeft_ = 1;
        const QString agent = request_.agentPath.isEmpty() ? findLocalAgent() : request_.agentPath;
        process_ = std::make_unique<QProcess>();
        process_->setProgram(agent);
        process_->setArguments({QStringLiteral("--stdio")});
        process_->setProcessChannelMode(QProcess::SeparateChannels);
        agent_ = std::make_unique<AgentClient>(process_.get());
        const rsload::LoadSpec mine = shareOf(stepSpec_, 0, 1, "");
        connect(agent_.get(), &AgentClient::ready, this, [this, mine] {
            agentRequest_ = agent_->request(QString::fromLatin1(rsagent::protocol::method::kLoad),
                                            toQtJson(rsload::toJson(mine)).toObject());
        });
        connect(
            agent_.get(), &AgentClient::event, this,
            [this](qint64, const QString& name, const QJsonObject& data) { onEvent(QString(), name, data); });
        connect(agent_.get(), &AgentClient::result, this, [this](qint64, const QJsonValue& r) {
            onClientDone(QString(), r.toObject().value("error").toString());
        });
        connect(agent_.get(), &AgentClient::failed, this,
                [this](qint64, const QString&, const QString& message) { onClientDone(QString(), message); });
        connect(agent_.get(), &AgentClient::protocolError, this,
                [this](const QString& message) { onClientDone(QString(), message); });
        connect(process_.get(), &QProcess::errorOccurred, this, [this, agent](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart && clientsLeft_ > 0)
                onClientDone(
                    QString(),
                    QStringLiteral("cannot run the local agent %1: %2").arg(agent, process_->errorString()));
        });
        connect(process_.get(), &QProcess::finished, this, [this] {
            if (clientsLeft_ > 0)
                onClientDone(QString(), describeAgentEnd(*process_));
        });
        process_->start();
        return;
    }
    clientsLeft_ = int(request_.hosts.size());
    fleet_ = std::make_unique<Fleet>(request_.fleet);
    connect(fleet_.get(), &Fleet::hostEvent, this, &LoadRunner::onEvent);
    connect(fleet_.get(), &Fleet::hostFinished, this, [this](const HostResult& r) {
        onClientDone(r.host, r.error    ? r.error->message
                             : r.result ? r.result->value("error").toString()
                                        : QStringLiteral("no result"));
    });
    // Each host gets its own share: one stream() per host.
    for (int i = 0; i < int(request_.hosts.size()); ++i) {
        const QString host = request_.hosts[i];
        fleet_->stream(
            {host}, QString::fromLatin1(rsagent::protocol::method::kLoad),
            toQtJson(rsload::toJson(shareOf(stepSpec_, i, int(request_.hosts.size()), host.toStdString())))
                .toObject());
    }
}

void LoadRunner::onEvent(const QString& client, const QString& name, const QJsonObject& data) {
    if (name == QLatin1String("request")) {
        std::string why;
        std::optional<rsload::RequestRecord> r = rsload::recordFromJson(fromQtJson(data), &why);
        if (!r) {
            clientErrors_ << QStringLiteral("%1: a record could not be read: %2")
                                 .arg(client, QString::fromStdString(why));
            return;
        }
        writer_.record(*r);
        records_.push_back(*r);
        emit requestFinished(records_.back());
    } else if (name == QLatin1String("server_metrics")) {
        std::string why;
        std::optional<rsload::ServerSample> s = rsload::serverSampleFromJson(fromQtJson(data), &why);
        if (!s) {
            clientErrors_ << QStringLiteral("%1: a server metrics sample could not be read: %2")
                                 .arg(client, QString::fromStdString(why));
            return;
        }
        writer_.serverSample(*s);
        serverSamples_.push_back(*s);
        emit serverSampled(serverSamples_.back());
    } else if (name == QLatin1String("progress")) {
        if (!originS_ && !data.value("warmup").toBool()) {
            originS_ = stepSeconds() - data.value("elapsed_s").toDouble();
            for (const PendingGpuSample& p : std::exchange(pendingGpuSamples_, {}))
                onGpuSample(p.worker, p.data, p.arrivedS);
        }
        emit progress(client, data.value("elapsed_s").toDouble(), data.value("sent").toInteger(),
                      data.value("completed").toInteger(), data.value("failed").toInteger(),
                      data.value("in_flight").toInteger());
    }
}

void LoadRunner::onGpuSample(const QString& worker, const QJsonObject& data, double arrivedS) {
    if (!originS_) {
        pendingGpuSamples_.push_back({worker, data, arrivedS});
        return;
    }
    keepGpuSample(rsload::gpuSampleFromAgent(fromQtJson(data), worker.toStdString(), arrivedS - *originS_));
}

void LoadRunner::keepGpuSample(rsload::GpuSample sample) {
    if (!sample.error.empty()) // a worker that cannot be read says so once, not every half second
        for (auto it = gpuSamples_.rbegin(); it != gpuSamples_.rend(); ++it)
            if (it->host == sample.host) {
                if (it->error == sample.error)
                    return;
                break;
            }
    writer_.gpuSample(sample);
    gpuSamples_.push_back(std::move(sample));
    emit gpuSampled(gpuSamples_.back());
}

void LoadRunner::onClientDone(const QString& client, const QString& error) {
    if (clientsLeft_ <= 0)
        return;
    qCDebug(lcRuns) << "load client" << (client.isEmpty() ? QStringLiteral("(local agent)") : client)
                    << "done" << error;
    if (!error.isEmpty()) {
        const QString who = client.isEmpty() ? QStringLiteral("local agent") : client;
        clientErrors_ << QStringLiteral("%1: %2").arg(who, error);
        emit clientFailed(who, error);
    }
    if (--clientsLeft_ == 0)
        QMetaObject::invokeMethod(this, &LoadRunner::endStep, Qt::QueuedConnection);
}

void LoadRunner::endStep() {
    if (gpuSampler_) {
        gpuSampler_->stop(); // deleted with the next step or the runner, when its streams have ended
        if (!originS_)       // no progress came: the step's start stands in for the load's
            originS_ = 0.0;
        for (const PendingGpuSample& p : std::exchange(pendingGpuSamples_, {}))
            onGpuSample(p.worker, p.data, p.arrivedS);
    }
    LoadStepResult r;
    r.step = step_;
    r.value = stepValue_;
    r.summary = rsload::summarize(records_, request_.slos, request_.percentiles);
    r.summaryJson = rsload::summaryJson(
        r.summary, stepSpec_, request_.slos,
        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString());
    std::map<std::string, std::vector<rsload::RequestRecord>> byClient;
    for (const rsload::RequestRecord& rec : records_)
        byClient[rec.client].push_back(rec);
    rsload::Json clients = rsload::Json::object();
    for (const auto& [name, recs] : byClient) {
        r.perClient[name] = rsload::summarize(recs, request_.slos, request_.percentiles);
        const rsload::Json one =
            rsload::summaryJson(r.perClient[name], shareOf(stepSpec_, 0, 1, name), request_.slos, "");
        rsload::Json brief = rsload::Json::object();
        for (const char* key : {"completed", "failed", "request_throughput", "output_throughput",
                                "median_ttft_ms", "p99_ttft_ms", "median_tpot_ms", "late_requests"})
            brief[key] = one.value(key, rsload::Json());
        clients[name] = brief;
    }
    r.summaryJson["clients"] = clients;
    rsload::Json errors = rsload::Json::array();
    for (const QString& e : clientErrors_)
        errors.push_back(e.toStdString());
    r.summaryJson["client_errors"] = errors;
    if (!stepSpec_.metricsUrl.empty()) {
        r.serverMetrics = rsload::summarizeServerMetrics(serverSamples_, stepSpec_.metricsUrl);
        r.summaryJson["server_metrics"] = rsload::toJson(*r.serverMetrics);
    }
    r.serverSamples = serverSamples_;
    if (!request_.workers.isEmpty()) {
        std::vector<std::string> workers;
        for (const QString& w : request_.workers)
            workers.push_back(w.toStdString());
        r.gpuUse = rsload::summarizeGpuUse(gpuSamples_, workers);
        r.summaryJson["gpus"] = rsload::toJson(*r.gpuUse);
    }
    r.gpuSamples = gpuSamples_;
    r.clientErrors = clientErrors_;
    const size_t measured = r.summary.completed + r.summary.failed;
    if (!request_.slos.empty()) {
        std::string why;
        r.sloMet = rsload::slosHeld(r.summary, request_.slos, request_.sloAttainment, &why);
        if (!r.sloMet)
            r.summaryJson["slo_broken"] = why;
    }
    r.directory = writer_.directory();
    if (writer_.isOpen())
        writer_.summary(r.summaryJson);
    agent_.reset();
    if (process_) {
        process_->closeWriteChannel();
        if (!process_->waitForFinished(5000))
            process_->kill();
        process_.reset();
    }
    agentRequest_ = -1;
    if (fleet_)
        fleet_.release()->deleteLater();
    results_.push_back(r);
    emit stepFinished(results_.back());
    if (search_) {
        search_->record(r.sloMet);
        writeCapacity();
        if (search_->next() && !cancelled_ && measured > 0)
            return startStep();
    } else {
        const bool more =
            request_.sweep != LoadRequest::Sweep::None && size_t(step_) < request_.sweepValues.size();
        if (more && r.sloMet && !cancelled_ && measured > 0)
            return startStep();
    }
    running_ = false;
    const bool ok = measured > 0 && clientErrors_.isEmpty() && !cancelled_;
    emit finished(ok, cancelled_                ? QStringLiteral("cancelled")
                      : clientErrors_.isEmpty() ? QString()
                                                : clientErrors_.join(QStringLiteral("; ")));
}

rsload::Json LoadRunner::capacityJson() const {
    if (!search_)
        return {};
    const bool rate = search_->by() == CapacitySearch::By::Rate;
    rsload::Json steps = rsload::Json::array();
    for (size_t i = 0; i < search_->steps().size() && i < results_.size(); ++i) {
        const CapacityStep& c = search_->steps()[i];
        const rsload::Json& s = results_[i].summaryJson;
        rsload::Json one{{"value", c.value}, {"held", c.held}, {"repeat", c.repeat}};
        for (const char* key : {"request_throughput", "output_throughput", "p99_ttft_ms", "p99_tpot_ms",
                                "completed", "failed", "slo_broken"})
            one[key] = s.value(key, rsload::Json());
        steps.push_back(std::move(one));
    }
    const auto orNull = [](std::optional<double> v) { return v ? rsload::Json(*v) : rsload::Json(); };
    const rsload::Json j{{"by", rate ? "rate" : "concurrency"},
                         {"slo", rsload::formatSlos(request_.slos)},
                         {"slo_attainment", request_.sloAttainment},
                         {"capacity", orNull(search_->capacity())},
                         {"broken_above", orNull(search_->brokenAbove())},
                         {"finished", !search_->next().has_value()},
                         {"description", search_->describe()},
                         {"steps", steps}};
    return j;
}

// capacity.json beside the steps' folders: the search as it stands after each step, so a search cut
// short still says what it found.
void LoadRunner::writeCapacity() const {
    if (request_.resultsDirectory.isEmpty())
        return;
    const rsload::Json j = capacityJson();
    QFile f(request_.resultsDirectory + QStringLiteral("/capacity.json"));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(QByteArray::fromStdString(j.dump(2) + "\n"));
}

} // namespace rackscope
