#include "nccl_acceptance.h"

#include "runs/run_compare.h"

#include <QTimer>

namespace rackscope {

const std::vector<Collective>& acceptanceCollectives() {
    static const std::vector<Collective> all{Collective::AllReduce, Collective::AllGather,
                                             Collective::AllToAll};
    return all;
}

std::vector<NcclServer> ncclServers(const Workspace& ws) {
    std::vector<NcclServer> out;
    for (const InspectedHost& h : ws.hosts())
        if (const QString host = sshHostOf(h.host.source.location); !host.isEmpty())
            out.push_back({host, h.host.nvmlGpuCount.value_or(int(h.host.gpus.size()))});
    return out;
}

NcclAcceptanceRun::NcclAcceptanceRun(RunRequest request, std::vector<NcclServer> servers, QObject* parent)
    : QObject(parent), request_(std::move(request)) {
    std::erase_if(servers, [](const NcclServer& s) { return s.gpus <= 0; });
    result_.servers = std::move(servers);
}

NcclAcceptanceRun::~NcclAcceptanceRun() = default;

void NcclAcceptanceRun::start() {
    // Queued: a caller connects to finished() and then waits, even when there is nothing to run.
    QTimer::singleShot(0, this, [this] {
        singleLeft_ = result_.servers.size();
        if (singleLeft_ == 0)
            return startHunt();
        // The servers at once (each run is on its own server), each one's collectives one after another.
        for (size_t s = 0; s < result_.servers.size(); ++s)
            startSingle(s, 0);
    });
}

void NcclAcceptanceRun::startSingle(size_t server, size_t collective) {
    const NcclServer& s = result_.servers[server];
    RunRequest r = request_;
    r.spec.hosts = {s.host};
    r.spec.collective = acceptanceCollectives()[collective];
    r.spec.processesPerHost = s.gpus;
    r.spec.gpusPerProcess = 1;
    r.label = QStringLiteral("%1 on %2 alone").arg(collectiveName(r.spec.collective), s.host);
    auto run = std::make_unique<RecordedRun>();
    RecordedRun* raw = run.get();
    connect(raw, &RecordedRun::finished, this, [this, raw, server, collective](const RunOutcome& o) {
        NcclSingleResult res;
        res.host = result_.servers[server].host;
        res.collective = acceptanceCollectives()[collective];
        res.command = raw->command();
        res.error = o.failure();
        if (res.error.isEmpty()) {
            res.busbw = peakBusbw(raw->run());
            if (!res.busbw)
                res.error = QStringLiteral("the run printed no result row");
        }
        emit runFinished(QStringLiteral("%1 on %2").arg(collectiveName(res.collective), res.host),
                         res.busbw ? QStringLiteral("%1 GB/s").arg(*res.busbw, 0, 'f', 2) : res.error);
        result_.single.push_back(res);
        // Not from inside the run's own signal.
        QTimer::singleShot(0, this, [this, server, collective] {
            if (collective + 1 < acceptanceCollectives().size())
                startSingle(server, collective + 1);
            else if (--singleLeft_ == 0)
                startHunt();
        });
    });
    runs_.push_back(std::move(run));
    raw->start(r);
}

void NcclAcceptanceRun::startHunt() {
    QStringList hosts;
    int gpus = 0;
    for (const NcclServer& s : result_.servers) {
        hosts << s.host;
        gpus = gpus ? std::min(gpus, s.gpus) : s.gpus;
    }
    if (hosts.size() < 2) {
        emit finished();
        return;
    }
    HuntOptions o;
    o.request = request_;
    o.request.spec.hosts = hosts;
    o.request.spec.collective = Collective::AllReduce;
    o.request.spec.processesPerHost = gpus; // one a GPU, as many as the smallest server has
    o.request.spec.gpusPerProcess = 1;
    hunt_ = std::make_unique<StragglerHunt>();
    connect(hunt_.get(), &StragglerHunt::groupFinished, this, [this](const GroupRun& g) {
        emit runFinished(QStringLiteral("all_reduce on %1").arg(g.hosts.join(QLatin1Char('+'))),
                         g.busbw ? QStringLiteral("%1 GB/s").arg(*g.busbw, 0, 'f', 2) : g.error);
    });
    connect(hunt_.get(), &StragglerHunt::finished, this, [this](const StragglerVerdict& v) {
        result_.pairs = hunt_->runs();
        result_.verdict = v;
        emit finished();
    });
    hunt_->start(o);
}

} // namespace rackscope
