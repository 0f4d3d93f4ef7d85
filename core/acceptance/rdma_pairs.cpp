#include "rdma_pairs.h"

#include "analysis/device_paths.h"
#include "protocol/protocol.h"
#include "rack_facts.h"
#include "runs/perftest_output.h"

#include <QJsonArray>
#include <QTimer>

namespace rackscope {
namespace {

constexpr int kWaitForClientS = 20;  // how long a server side waits for its client before it gives up
constexpr int kConnectTries = 50;    // a client that came before its server's listen tries again...
constexpr int kConnectRetryMs = 200; // ...this often, while the server has not answered

bool refused(const QString& output) {
    return output.contains(QLatin1String("Couldn't connect to"));
}

// mlx5_2 before mlx5_10: the trailing number as a number.
bool naturalLess(const QString& a, const QString& b) {
    const auto split = [](const QString& s) {
        qsizetype i = s.size();
        while (i > 0 && s[i - 1].isDigit())
            --i;
        return std::make_pair(s.left(i), s.mid(i).toLongLong());
    };
    return split(a) < split(b);
}

} // namespace

std::vector<RdmaEndpoint> rdmaEndpoints(const Workspace& ws, const SshConfig& config) {
    std::vector<RdmaEndpoint> out;
    for (const InspectedHost& ih : ws.hosts()) {
        const HostTopology& h = ih.host;
        RdmaEndpoint e;
        e.host = sshHostOf(h.source.location);
        if (e.host.isEmpty())
            continue;
        e.address = config.resolve(e.host).hostName;
        if (e.address.isEmpty())
            e.address = e.host;
        // The devices the agent read with a port up; one that is down fails rdma-ports, not a bandwidth test.
        const QJsonArray devices = ws.agentSnapshot(ih).value("rdma").toObject().value("devices").toArray();
        for (const QJsonValue& v : devices) {
            const QJsonObject dev = v.toObject();
            const QJsonArray ports = dev.value("ports").toArray();
            if (std::any_of(ports.begin(), ports.end(), [](const QJsonValue& p) {
                    return p.toObject().value("state").toObject().value("name").toString() ==
                           QLatin1String("ACTIVE");
                }))
                e.devices << dev.value("name").toString();
        }
        std::sort(e.devices.begin(), e.devices.end(), naturalLess);
        // The GPU nearest each device's NIC by the PCIe tree; none where the tree cannot say.
        for (const Device& nic : h.nics)
            for (const QString& name : nic.rdmaDevices) {
                std::optional<std::pair<int, int>> best; // (NCCL rank of the path, CUDA index)
                for (size_t g = 0; g < h.gpus.size(); ++g)
                    if (const auto path = treePath(h, h.gpus[g], nic)) {
                        const std::pair<int, int> c{ncclRank(*path), h.gpus[g].cudaDevice.value_or(int(g))};
                        if (!best || c < *best)
                            best = c;
                    }
                if (best)
                    e.nearestGpu[name] = best->second;
            }
        out.push_back(e);
    }
    return out;
}

struct RdmaPairsRun::Pending {
    std::vector<RdmaPairTest> tests; // one pair's devices, in order
    size_t next = 0;
    std::optional<HostResult> server, client;
    int tries = 0;
    const RdmaPairTest& test() const { return tests[next]; }
};

std::vector<std::vector<RdmaPairTest>> planRdmaRounds(const std::vector<RdmaEndpoint>& servers) {
    std::vector<const RdmaEndpoint*> ring;
    for (const RdmaEndpoint& s : servers)
        if (!s.devices.isEmpty())
            ring.push_back(&s);
    const size_t n = ring.size();
    std::vector<std::vector<RdmaPairTest>> rounds;
    if (n < 2)
        return rounds;
    std::vector<std::set<QString>> busy; // hosts of each round
    for (size_t i = 0; i < (n == 2 ? 1 : n); ++i) {
        const RdmaEndpoint &client = *ring[i], &server = *ring[(i + 1) % n];
        size_t r = 0;
        while (r < busy.size() && (busy[r].count(client.host) || busy[r].count(server.host)))
            ++r;
        if (r == busy.size()) {
            busy.emplace_back();
            rounds.emplace_back();
        }
        busy[r].insert(client.host);
        busy[r].insert(server.host);
        for (qsizetype d = 0; d < std::min(client.devices.size(), server.devices.size()); ++d)
            rounds[r].push_back(
                RdmaPairTest{int(r), client.host, client.devices[d], server.host, server.devices[d]});
    }
    return rounds;
}

RdmaPairsRun::RdmaPairsRun(FleetOptions fleet, std::vector<RdmaEndpoint> servers, RdmaBwOptions options,
                           QObject* parent)
    : QObject(parent), servers_(std::move(servers)), options_(options) {
    // A server side answers after its wait and the test: the request's own deadline must outlast both.
    fleet.requestTimeoutMs =
        std::max(fleet.requestTimeoutMs, (options_.durationS + kWaitForClientS + 60) * 1000);
    fleet_ = std::make_unique<Fleet>(std::move(fleet));
    connect(fleet_.get(), &Fleet::hostFinished, this, &RdmaPairsRun::take);
    rounds_ = planRdmaRounds(servers_);
}

RdmaPairsRun::~RdmaPairsRun() = default;

void RdmaPairsRun::start() {
    round_ = 0;
    // Queued: a caller connects to finished() and then waits, even when there is nothing to run.
    QTimer::singleShot(0, this, [this] { startRound(); });
}

const RdmaEndpoint& RdmaPairsRun::endpoint(const QString& host) const {
    return *std::find_if(servers_.begin(), servers_.end(),
                         [&](const RdmaEndpoint& e) { return e.host == host; });
}

void RdmaPairsRun::startRound() {
    if (round_ >= rounds_.size()) {
        emit finished();
        return;
    }
    std::map<std::pair<QString, QString>, std::shared_ptr<Pending>> pairs;
    for (const RdmaPairTest& t : rounds_[round_]) {
        auto& p = pairs[{t.client, t.server}];
        if (!p)
            p = std::make_shared<Pending>();
        p->tests.push_back(t);
    }
    running_ = int(pairs.size());
    for (const auto& [hosts, p] : pairs) {
        byHost_[hosts.first] = byHost_[hosts.second] = p;
        startTest(p);
    }
}

QJsonObject RdmaPairsRun::params(const RdmaEndpoint& self, const QString& device, bool server) const {
    QJsonObject o{
        {"role", server ? "server" : "client"}, {"device", device},        {"tcp_port", options_.tcpPort},
        {"duration_s", options_.durationS},     {"bytes", options_.bytes}, {"qps", options_.qps}};
    if (server)
        o.insert("wait_s", kWaitForClientS);
    else
        o.insert("peer", endpoint(byHost_.at(self.host)->test().server).address);
    if (options_.useCuda)
        if (const auto gpu = self.nearestGpu.find(device); gpu != self.nearestGpu.end())
            o.insert("gpu", gpu->second);
    return o;
}

void RdmaPairsRun::startTest(const std::shared_ptr<Pending>& p) {
    const RdmaPairTest& t = p->test();
    p->server.reset();
    p->client.reset();
    p->tries = 0;
    emit pairStarted(t);
    fleet_->request({t.server}, QString::fromLatin1(rsagent::protocol::method::kRdmaBw),
                    params(endpoint(t.server), t.serverDevice, true));
    startClient(p);
}

void RdmaPairsRun::startClient(const std::shared_ptr<Pending>& p) {
    const RdmaPairTest& t = p->test();
    fleet_->request({t.client}, QString::fromLatin1(rsagent::protocol::method::kRdmaBw),
                    params(endpoint(t.client), t.clientDevice, false));
}

void RdmaPairsRun::take(const HostResult& r) {
    const auto it = byHost_.find(r.host);
    if (it == byHost_.end())
        return;
    const std::shared_ptr<Pending> p = it->second;
    const bool isServer = r.host == p->test().server;
    if (!isServer && !p->server && r.result && refused(r.result->value("output").toString()) &&
        ++p->tries < kConnectTries) {
        // The client came before the server listened: perftest itself does not try again.
        QTimer::singleShot(kConnectRetryMs, this, [this, p] { startClient(p); });
        return;
    }
    (isServer ? p->server : p->client) = r;
    if (p->server && p->client)
        end(p);
}

namespace {

// What one side said: its figure, or why there is none.
struct SideReading {
    std::optional<PerftestRun> run;
    QString error;
    bool unavailable = false;
};

SideReading readSide(const HostResult& r) {
    SideReading s;
    if (r.error) {
        // The fleet's message names the agent's error code.
        s.unavailable = r.error->message.contains(QLatin1String(rsagent::protocol::error::kUnknownMethod));
        s.error =
            s.unavailable
                ? QStringLiteral("%1's agent predates the rdma_bw method: deploy this version").arg(r.host)
                : QStringLiteral("%1: %2: %3").arg(r.host, stageName(r.error->stage), r.error->message);
        return s;
    }
    const QJsonObject o = r.result.value_or(QJsonObject{});
    const QString failure = o.value("failure").toString();
    if (o.value("program").isNull()) {
        s.unavailable = true;
        s.error = QStringLiteral("%1: %2").arg(r.host, failure);
        return s;
    }
    QString why;
    s.run = readPerftestOutput(o.value("output").toString().toUtf8(), &why);
    if (!s.run) {
        s.error = QStringLiteral("%1: %2").arg(r.host, why);
        if (!failure.isEmpty())
            s.error += QStringLiteral(" (%1)").arg(failure);
        else if (!o.value("exit_status").isNull() && o.value("exit_status").toInt() != 0)
            s.error += QStringLiteral(" (exit status %1)").arg(o.value("exit_status").toInt());
    }
    return s;
}

} // namespace

void RdmaPairsRun::end(const std::shared_ptr<Pending>& p) {
    const RdmaPairTest t = p->test();
    RdmaPairResult result;
    result.test = t;
    const SideReading client = readSide(*p->client), server = readSide(*p->server);
    result.unavailable = client.unavailable || server.unavailable;
    if (client.run) {
        result.gbps = client.run->averageGbps();
        const QJsonObject o = *p->client->result;
        QStringList args;
        for (const QJsonValue& a : o.value("args").toArray())
            args << a.toString();
        result.evidence = QStringLiteral("ib_write_bw %1").arg(args.join(QLatin1Char(' ')));
        if (!client.run->cudaDevice.isEmpty())
            result.evidence += QStringLiteral("; GPU memory of %1").arg(client.run->cudaDevice);
        for (const QString& w : client.run->warnings)
            result.evidence += QStringLiteral("; perftest: %1").arg(w);
    } else {
        // The client's reason first; a client refused to the end is explained by its server.
        result.error = client.unavailable || !server.unavailable ? client.error : server.error;
        if (!server.error.isEmpty() && !result.unavailable && server.error != result.error)
            result.error += QStringLiteral("; %1").arg(server.error);
    }
    results_.push_back(result);
    emit pairFinished(result);
    if (++p->next < p->tests.size())
        return startTest(p);
    byHost_.erase(t.client);
    byHost_.erase(t.server);
    if (--running_ == 0) {
        ++round_;
        startRound();
    }
}

} // namespace rackscope
