#pragma once
// The inference workers' GPUs during a load run: a `sample` stream asking for
// GPUs only, to each worker's agent (over SSH, or this machine's own agent for
// "local"), until stop(). Each reading comes out as it arrives; the load runner
// puts it on the run's time axis and saves it.
#include "transport/fleet.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QSet>
#include <memory>

namespace rackscope {

class AgentClient;

class GpuSampler : public QObject {
    Q_OBJECT
public:
    static constexpr char kLocal[] = "local"; // this machine, through its own agent
    explicit GpuSampler(QObject* parent = nullptr);
    ~GpuSampler() override;

    // `agentPath`: the local agent for "local" (findLocalAgent() when empty).
    void start(const QStringList& workers, const FleetOptions& fleet, const QString& agentPath,
               int intervalMs);
    void stop(); // nothing is emitted after it; the remote streams end by the time the sampler is deleted

signals:
    void sampled(const QString& worker, const QJsonObject& data); // a `sample` event's data
    void failed(const QString& worker, const QString& error);     // its stream could not start, or ended
    void ready(); // once, when every worker has given a first reading or failed

private:
    void startLocal(const QString& agentPath, const QJsonObject& params);
    void onSample(const QString& worker, const QJsonObject& data);
    void onFailure(const QString& worker, const QString& error);
    void answered(const QString& worker); // its first reading or failure

    bool running_ = false;
    QSet<QString> waiting_; // workers that have not answered yet
    std::unique_ptr<Fleet> fleet_;
    std::unique_ptr<QProcess> process_;
    std::unique_ptr<AgentClient> agent_;
};

} // namespace rackscope
