#pragma once
// A load run from the console's side, for the CLI and the GUI alike: the load
// asked for is shared among the clients (this machine's agent, or one agent
// per host over SSH), each runs it with the load engine, and their records
// come back as they happen, are saved, merged, and summarised per step and
// per client. A sweep runs one step per concurrency or rate and stops at the
// first step whose SLO attainment falls short; a capacity search chooses each
// step's rate or concurrency from the steps before (capacity_search.h).
#include "capacity_search.h"
#include "gpu_sampler.h"
#include "load_results.h"
#include "transport/fleet.h"

#include <QObject>
#include <QProcess>
#include <memory>

namespace rackscope {

class AgentClient;

struct LoadRequest {
    rsload::LoadSpec spec;    // the total load
    QStringList hosts;        // empty: this machine, through its own agent
    FleetOptions fleet;       // with hosts
    QString agentPath;        // without: the local agent (findLocalAgent() when empty)
    QString resultsDirectory; // empty: nothing saved
    std::vector<rsload::Slo> slos;
    std::vector<double> percentiles{50, 90, 95, 99};
    QStringList
        workers; // the inference servers whose GPUs are sampled during each step ("local": this machine)
    enum class Sweep { None, Concurrency, Rate } sweep = Sweep::None;
    std::vector<double> sweepValues;
    double sloAttainment = 0.9; // a sweep step meets its SLO when this share of requests does
    // Find the highest rate (or concurrency) at which the SLOs hold: each step sends at least
    // minRequests, and at a rate, stepS seconds' worth; at a concurrency, runs stepS seconds.
    struct Capacity {
        CapacitySearch::By by = CapacitySearch::By::Rate;
        double start = 1;
        double stepS = 20;
        int64_t minRequests = 200;
        double tolerance = 0.05;
    };
    std::optional<Capacity> capacity; // with slos; sweep stays None
};

// Client i of n's share of the load: requests, rate and concurrency divided (the remainder to the
// first clients), its own seed, its own name.
rsload::LoadSpec shareOf(const rsload::LoadSpec& total, int i, int n, const std::string& client);

struct LoadStepResult {
    int step = 0;     // 1-based
    double value = 0; // the sweep's concurrency or rate; 0 without a sweep
    rsload::LoadSummary summary;
    rsload::Json summaryJson;
    std::map<std::string, rsload::LoadSummary> perClient;
    QString directory;                               // where it was saved
    QStringList clientErrors;                        // "host: why", for clients that failed or broke
    std::vector<rsload::ServerSample> serverSamples; // the server's /metrics during the step, where scraped
    std::optional<rsload::ServerMetricsSummary> serverMetrics; // their summary, where scraped
    std::vector<rsload::GpuSample> gpuSamples;                 // the workers' GPUs during the step
    std::optional<rsload::GpuUseSummary> gpuUse;               // their summary, with workers
    bool sloMet = true;
};

class LoadRunner : public QObject {
    Q_OBJECT
public:
    explicit LoadRunner(QObject* parent = nullptr);
    ~LoadRunner() override;

    void start(LoadRequest request);
    void cancel();
    bool isRunning() const { return running_; }
    const std::vector<LoadStepResult>& steps() const { return results_; }
    const CapacitySearch* capacitySearch() const { return search_ ? &*search_ : nullptr; }
    const LoadRequest& request() const { return request_; }
    // The search so far, as capacity.json holds it: its SLO, capacity and bracket, and per step the value,
    // whether the SLO held, the throughput and the tails; null without a search.
    rsload::Json capacityJson() const;

signals:
    void stepStarted(int step, double value);
    void requestFinished(const rsload::RequestRecord& record);
    void serverSampled(const rsload::ServerSample& sample);
    void gpuSampled(const rsload::GpuSample& sample);
    void progress(const QString& client, double elapsedS, qint64 sent, qint64 completed, qint64 failed,
                  qint64 inFlight);
    void clientFailed(const QString& client, const QString& error);
    void stepFinished(const rackscope::LoadStepResult& result);
    void finished(bool ok, const QString& error);

private:
    void startStep();
    void startClients(); // the step's load, from this machine's agent or the hosts'
    void onEvent(const QString& client, const QString& name, const QJsonObject& data);
    void onClientDone(const QString& client, const QString& error);
    void endStep();
    void onGpuSample(const QString& worker, const QJsonObject& data, double arrivedS);
    void keepGpuSample(rsload::GpuSample sample);
    void writeCapacity() const;

    LoadRequest request_;
    bool running_ = false, cancelled_ = false;
    int step_ = 0;
    double stepValue_ = 0; // the sweep's or search's value for this step
    std::optional<CapacitySearch> search_;
    rsload::LoadSpec stepSpec_;
    std::vector<rsload::RequestRecord> records_;
    std::vector<rsload::ServerSample> serverSamples_;
    std::vector<rsload::GpuSample> gpuSamples_;
    // The workers' readings arrive on the console's clock (stepClock_); the records' time axis starts at
    // the load's measured phase, which the first progress report places on that clock (originS_).
    QElapsedTimer stepClock_;
    double stepSeconds() const { return double(stepClock_.nsecsElapsed()) / 1e9; }
    std::optional<double> originS_;
    struct PendingGpuSample {
        QString worker;
        QJsonObject data;
        double arrivedS;
    };
    std::vector<PendingGpuSample> pendingGpuSamples_; // arrived before originS_ was known
    std::unique_ptr<GpuSampler> gpuSampler_;
    bool waitingForWorkers_ = false; // the step waits for each worker's first GPU reading before its load
    QStringList clientErrors_;
    int clientsLeft_ = 0;
    LoadResultsWriter writer_;
    std::vector<LoadStepResult> results_;
    std::unique_ptr<Fleet> fleet_;
    std::unique_ptr<QProcess> process_;
    std::unique_ptr<AgentClient> agent_;
    qint64 agentRequest_ = -1;
};

} // namespace rackscope
