#pragma once
// The active RDMA check (`check --active rdma`): ib_write_bw between servers, each server's RDMA devices
// paired by position with its neighbour's in a ring (so each device is measured against two peers and a
// slow end can be told from a slow partner), through each agent's fixed "rdma_bw" method. Rounds of
// disjoint pairs run at once; a pair's devices run one after another.
#include "transport/fleet.h"
#include "workspace/workspace.h"

#include <QObject>
#include <memory>

namespace rackscope {

// One server as the test sees it: how its peers reach it, its RDMA devices, and the GPU nearest each (for
// --use_cuda; none where the server has no GPU).
struct RdmaEndpoint {
    QString host;
    QString address; // what a peer's ib_write_bw connects to: the SSH config's HostName
    QStringList devices;
    std::map<QString, int> nearestGpu; // device -> CUDA index; absent: host memory
};

struct RdmaPairTest {
    int round = 0;
    QString client, clientDevice, server, serverDevice;
};

struct RdmaPairResult {
    RdmaPairTest test;
    std::optional<double> gbps;
    QString error;            // why there is no figure
    bool unavailable = false; // ib_write_bw is not installed on one end: nothing to judge
    QString evidence;         // the command's shape, the GPU used, what perftest warned of
};

struct RdmaBwOptions {
    int durationS = 5;
    int tcpPort = 18515; // perftest's own default
    int bytes = 65536;
    int qps = 4;
    bool useCuda = true; // where the server has GPUs
};

// The servers reached over SSH, each with the RDMA devices its agent read with a port up (in their number's
// order) and, per device, the GPU the PCIe tree puts nearest; `config` gives the address a peer connects to.
std::vector<RdmaEndpoint> rdmaEndpoints(const Workspace& ws, const SshConfig& config);

// The rounds: a ring of the servers that have RDMA devices, each edge a pair, split into rounds where no
// server appears twice. Two servers make one pair; fewer, none.
std::vector<std::vector<RdmaPairTest>> planRdmaRounds(const std::vector<RdmaEndpoint>& servers);

class RdmaPairsRun : public QObject {
    Q_OBJECT
public:
    RdmaPairsRun(FleetOptions fleet, std::vector<RdmaEndpoint> servers, RdmaBwOptions options,
                 QObject* parent = nullptr);
    ~RdmaPairsRun() override;
    void start();
    const std::vector<RdmaPairResult>& results() const { return results_; }

signals:
    void pairStarted(const rackscope::RdmaPairTest& test);
    void pairFinished(const rackscope::RdmaPairResult& result);
    void finished();

private:
    struct Pending;
    void startRound();
    void startTest(const std::shared_ptr<Pending>& p);
    void startClient(const std::shared_ptr<Pending>& p);
    void take(const HostResult& r);
    void end(const std::shared_ptr<Pending>& p);
    QJsonObject params(const RdmaEndpoint& self, const QString& device, bool server) const;
    const RdmaEndpoint& endpoint(const QString& host) const;

    std::vector<RdmaEndpoint> servers_;
    RdmaBwOptions options_;
    std::unique_ptr<Fleet> fleet_;
    std::vector<std::vector<RdmaPairTest>> rounds_;
    size_t round_ = 0;
    int running_ = 0;
    std::map<QString, std::shared_ptr<Pending>> byHost_; // each host is in one test at a time
    std::vector<RdmaPairResult> results_;
};

} // namespace rackscope

Q_DECLARE_METATYPE(rackscope::RdmaPairResult)
