#pragma once
// The active NCCL check (`check --active nccl`): on each server alone, nccl-tests' all_reduce, all_gather
// and alltoall over all its GPUs (MoE lives on all-to-all); then the pairwise hunt across the servers
// (straggler_hunt.h) with all_reduce. Each run goes through the launcher the cluster has, as `nccl` runs it.
#include "runs/straggler_hunt.h"
#include "workspace/workspace.h"

#include <QObject>
#include <memory>

namespace rackscope {

struct NcclServer {
    QString host;
    int gpus = 0;
};

struct NcclSingleResult {
    QString host;
    Collective collective = Collective::AllReduce;
    std::optional<double> busbw; // GB/s, out-of-place at the largest size
    QString error, command;
};

struct NcclAcceptance {
    std::vector<NcclSingleResult> single;
    std::vector<GroupRun> pairs;             // the hunt's runs
    std::optional<StragglerVerdict> verdict; // absent: fewer than two servers with GPUs
    std::vector<NcclServer> servers;
};

const std::vector<Collective>& acceptanceCollectives(); // all_reduce, all_gather, alltoall

// The servers reached over SSH, with the GPUs their driver sees (NVML), else those the topology lists.
std::vector<NcclServer> ncclServers(const Workspace& ws);

class NcclAcceptanceRun : public QObject {
    Q_OBJECT
public:
    // `request`: the launcher, binaries, sizes and environment; its hosts and process counts are set per run.
    NcclAcceptanceRun(RunRequest request, std::vector<NcclServer> servers, QObject* parent = nullptr);
    ~NcclAcceptanceRun() override;
    void start();
    const NcclAcceptance& result() const { return result_; }

signals:
    void runFinished(const QString& what, const QString& outcome); // one line for the console
    void finished();

private:
    void startSingle(size_t server, size_t collective);
    void startHunt();

    RunRequest request_;
    NcclAcceptance result_;
    std::vector<std::unique_ptr<RecordedRun>> runs_;
    size_t singleLeft_ = 0;
    std::unique_ptr<StragglerHunt> hunt_;
};

} // namespace rackscope
