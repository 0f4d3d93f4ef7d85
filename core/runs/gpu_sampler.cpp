#include "gpu_sampler.h"

#include "protocol/protocol.h"
#include "transport/agent_client.h"
#include "transport/local_agent.h"

namespace rackscope {

GpuSampler::GpuSampler(QObject* parent) : QObject(parent) {}
GpuSampler::~GpuSampler() {
    stop();
    fleet_.reset(); // after the streams' last words: no thread of it outlives the sampler
}

void GpuSampler::start(const QStringList& workers, const FleetOptions& fleet, const QString& agentPath,
                       int intervalMs) {
    stop();
    fleet_.reset();
    running_ = true;
    waiting_ = QSet<QString>(workers.begin(), workers.end());
    const QJsonObject params{{"interval_ms", intervalMs},
                             {"count", rsagent::protocol::kMaxSampleCount},
                             {"counters", false},
                             {"gpus", true}};
    QStringList remote = workers;
    if (remote.removeAll(QString::fromLatin1(kLocal)) > 0)
        startLocal(agentPath, params);
    if (remote.isEmpty())
        return;
    fleet_ = std::make_unique<Fleet>(fleet);
    connect(fleet_.get(), &Fleet::hostEvent, this,
            [this](const QString& host, const QString& name, const QJsonObject& data) {
                if (name == QLatin1String(rsagent::protocol::method::kSample))
                    onSample(host, data);
            });
    connect(fleet_.get(), &Fleet::hostFinished, this, [this](const HostResult& r) {
        // a stream ends only when stopped: anything else is a failure
        onFailure(r.host, r.error ? r.error->message : QStringLiteral("its agent ended the GPU sampling"));
    });
    fleet_->stream(remote, QString::fromLatin1(rsagent::protocol::method::kSample), params);
}

void GpuSampler::startLocal(const QString& agentPath, const QJsonObject& params) {
    const QString local = QString::fromLatin1(kLocal);
    const QString agent = agentPath.isEmpty() ? findLocalAgent() : agentPath;
    process_ = std::make_unique<QProcess>();
    process_->setProgram(agent);
    process_->setArguments({QStringLiteral("--stdio")});
    agent_ = std::make_unique<AgentClient>(process_.get());
    connect(agent_.get(), &AgentClient::ready, this, [this, params] {
        agent_->request(QString::fromLatin1(rsagent::protocol::method::kSample), params);
    });
    connect(agent_.get(), &AgentClient::event, this,
            [this, local](qint64, const QString&, const QJsonObject& data) { onSample(local, data); });
    connect(agent_.get(), &AgentClient::failed, this,
            [this, local](qint64, const QString&, const QString& message) { onFailure(local, message); });
    connect(agent_.get(), &AgentClient::protocolError, this,
            [this, local](const QString& message) { onFailure(local, message); });
    connect(process_.get(), &QProcess::errorOccurred, this, [this, local, agent](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onFailure(
                local,
                QStringLiteral("cannot run the local agent %1: %2").arg(agent, process_->errorString()));
    });
    connect(process_.get(), &QProcess::finished, this,
            [this, local] { onFailure(local, describeAgentEnd(*process_)); });
    process_->start();
}

void GpuSampler::onSample(const QString& worker, const QJsonObject& data) {
    if (!running_)
        return;
    emit sampled(worker, data);
    answered(worker);
}

void GpuSampler::onFailure(const QString& worker, const QString& error) {
    if (!running_)
        return;
    emit failed(worker, error);
    answered(worker);
}

void GpuSampler::answered(const QString& worker) {
    if (waiting_.remove(worker) && waiting_.isEmpty())
        emit ready();
}

void GpuSampler::stop() {
    running_ = false;
    if (fleet_)
        fleet_->cancel(); // each agent is told to stop its stream; the Fleet waits for them when deleted
    agent_.reset();
    if (process_) {
        process_->disconnect(this);
        process_->closeWriteChannel(); // the agent exits at the end of its input
        if (!process_->waitForFinished(5000))
            process_->kill();
        process_.reset();
    }
}

} // namespace rackscope
