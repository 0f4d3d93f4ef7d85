#include "sources.h"

#include "import/nvlink_inputs.h"

#include "analysis/fabric_merge.h"
#include "import/cluster_file.h"
#include "import/fabric_loader.h"
#include "import/input_file.h"
#include "import/topology_loader.h"
#include "workspace/session_file.h"

#include <QFile>
#include <QFileInfo>

#include <map>

namespace rackscope {
namespace {

QString uniqueName(const DiagramInput& input, const QString& wanted) {
    auto taken = [&](const QString& n) {
        return std::any_of(input.hosts.begin(), input.hosts.end(),
                           [&](const InspectedHost& h) { return h.host.name == n; });
    };
    QString name = wanted.isEmpty() ? QStringLiteral("host") : wanted;
    for (int i = 2; taken(name); ++i)
        name = QStringLiteral("%1 (%2)").arg(wanted).arg(i);
    return name;
}

} // namespace

LoadedSources importSources(std::vector<RawSource> sources) {
    LoadedSources out;
    std::vector<Fabric> fabrics;
    for (RawSource& source : sources) {
        const QString& path = source.location;
        const QByteArray& content = source.content;
        if (looksLikePackedLoadResults(content)) {
            QString error;
            std::optional<SavedLoadRun> run = savedLoadRun(content, path, &error);
            if (!run) {
                out.failed.push_back({path, error});
                continue;
            }
            out.loadRuns.push_back(std::move(*run));
            out.raw.push_back(std::move(source));
            continue;
        }
        if (looksLikeRunRecord(content)) {
            QString error;
            RunRecord record = parseRunRecord(content, path, &error);
            if (!error.isEmpty()) {
                out.failed.push_back({path, error});
                continue;
            }
            for (const QString& problem : record.problems)
                out.failed.push_back({path, problem}); // what could be read is kept
            out.runs.push_back(std::move(record));
            out.raw.push_back(std::move(source));
            continue;
        }
        const DetectedFormat format = detectFormat(content);
        const bool topology = format == DetectedFormat::HwlocXml || format == DetectedFormat::NcclTopoXml ||
                              format == DetectedFormat::NvidiaSmiTopo ||
                              format == DetectedFormat::AgentSnapshot;
        QString error;
        bool used = false;
        if (topology) {
            ImportResult r = content.size() > kMaxTopologyBytes
                                 ? ImportResult::fail(QStringLiteral("larger than a topology can be"))
                                 : importTopology(content, path);
            if (r.host) {
                std::vector<HostTopology> hosts;
                hosts.push_back(std::move(*r.host));
                std::move(r.moreHosts.begin(), r.moreHosts.end(), std::back_inserter(hosts));
                const bool several = hosts.size() > 1; // named the same way each time the file is read
                for (HostTopology& host : hosts) {
                    if (!source.host.isEmpty())
                        host.name = source.host; // as the cluster file or session names it
                    if (several)                 // a fused NCCL dump: told apart by host_hash
                        host.name = QStringLiteral("%1@%2").arg(
                            host.name.isEmpty() ? QFileInfo(path).completeBaseName() : host.name,
                            host.hostHash);
                    if (host.name.isEmpty() || several) { // drawn and found by a name: the file's, said so,
                                                          // never passed off as the host's
                        host.name =
                            uniqueName(out.input, several ? host.name : QFileInfo(path).completeBaseName());
                        host.notes << QStringLiteral("the source names no host; \"%1\" is its file name%2")
                                          .arg(host.name,
                                               several ? QStringLiteral(" and host_hash") : QString());
                    }
                    HostAnalysis analysis = analyzeHost(host);
                    out.input.hosts.push_back({std::move(host), std::move(analysis)});
                }
                if (!several)
                    source.host = out.input.hosts.back().host.name;
                used = true;
            } else {
                error = r.error;
            }
        }
        if (!topology ||
            format == DetectedFormat::AgentSnapshot) { // a snapshot also tells the fabric what its NICs see
            FabricLoad l = importFabric(content, path);
            if (l.fabric) {
                fabrics.push_back(std::move(*l.fabric));
                used = true;
            } else if (!topology) {
                error = format == DetectedFormat::Unknown || format == DetectedFormat::OtherXml ||
                                format == DetectedFormat::Empty || format == DetectedFormat::Binary
                            ? QStringLiteral("not a topology or fabric source rackscope reads (hwloc XML, "
                                             "NCCL topology XML, nvidia-smi topo -m, "
                                             "an agent snapshot, ibnetdiscover output, a Slurm "
                                             "topology.conf or topology.yaml, a rackscope fabric file, "
                                             "NVLink state (nvidia-smi -q, nvlink --status, "
                                             "nvidia-imex-ctl -N, NCCL logs), "
                                             "cluster file, session or saved run)")
                            : l.error;
            }
        }
        // NVLink fabric state: an agent's (NVML, IMEX), or nvidia-smi/imex/NCCL output that is nothing else.
        if (format == DetectedFormat::AgentSnapshot || (!used && format == DetectedFormat::Unknown)) {
            NvlinkInput nvlink = readNvlinkText(content, path, source.host);
            if (!nvlink.fabric.empty()) {
                out.input.nvlink.append(std::move(nvlink.fabric));
                used = true;
                if (!topology)
                    error.clear();
            }
        }
        // A job's NCCL_DEBUG=INFO log: the transports its ranks used (it may hold MNNVL lines as well).
        if (format == DetectedFormat::Unknown) {
            NcclTransport t = readNcclTransport(QString::fromUtf8(content).split(QLatin1Char('\n')));
            if (!t.ranks.empty()) {
                out.ncclLogs.push_back({path, std::move(t), {}});
                used = true;
                error.clear();
            }
        }
        if (!error.isEmpty())
            out.failed.push_back({path, error});
        if (used)
            out.raw.push_back(std::move(source));
    }
    if (!fabrics.empty())
        out.input.fabric = fabrics.size() == 1 ? std::move(fabrics.front()) : mergeFabrics(fabrics);
    return out;
}

LoadedSources loadSources(const QStringList& paths) {
    std::vector<RawSource> sources;
    std::vector<FailedInput> failed;
    QStringList flagged, titles;
    std::map<QString, QByteArray> cache; // the demo's servers share three files
    auto read = [&](const QString& path, qint64 limit, QByteArray* content) {
        if (const auto hit = cache.find(path); hit != cache.end()) {
            *content = hit->second;
            return true;
        }
        if (const QString error = readInputFile(path, limit, content); !error.isEmpty()) {
            failed.push_back({path, error});
            return false;
        }
        cache[path] = *content;
        return true;
    };
    for (const QString& path : paths) {
        QByteArray content;
        if (QFileInfo(path).isDir()) { // an inference load run's results folder, its files in one source
            QString error;
            if (const auto files = readLoadResultsFiles(path, &error))
                sources.push_back({path, {}, packLoadResults(*files)});
            else
                failed.push_back({path, error});
            continue;
        }
        if (!read(path, kMaxSessionBytes, &content))
            continue;
        if (looksLikeSession(content)) { // everything it holds, in place of the file
            SessionLoad session = loadSession(content, path);
            if (!session.error.isEmpty())
                failed.push_back({path, session.error});
            for (RawSource& r : session.sources)
                sources.push_back(std::move(r));
            flagged << session.flagged;
            if (!session.title.isEmpty())
                titles << session.title;
            continue;
        }
        if (!looksLikeClusterFile(content)) {
            sources.push_back({path, {}, std::move(content)});
            continue;
        }
        // A cluster file names its servers' topology files and its fabric sources: read those in its place.
        const ClusterFile cluster = parseClusterFile(content, QFileInfo(path).path());
        for (const QString& p : cluster.problems)
            failed.push_back({path, p});
        for (const ClusterFile::Host& h : cluster.hosts) {
            QByteArray bytes;
            if (read(h.path, kMaxFabricBytes, &bytes))
                sources.push_back({h.path, h.name, std::move(bytes)});
        }
        for (const QString& fabric : cluster.fabrics) {
            QByteArray bytes;
            if (read(fabric, kMaxFabricBytes, &bytes))
                sources.push_back({fabric, {}, std::move(bytes)});
        }
    }
    LoadedSources out = importSources(std::move(sources));
    out.failed.insert(out.failed.begin(), failed.begin(), failed.end());
    out.input.flaggedHosts = flagged;
    if (titles.size() == 1)
        out.input.title = titles.front();
    return out;
}

} // namespace rackscope
