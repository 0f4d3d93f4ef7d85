#include "diagram_sources.h"

#include "analysis/fabric_merge.h"
#include "import/cluster_file.h"
#include "import/fabric_loader.h"
#include "import/input_file.h"
#include "import/topology_loader.h"

#include <QFile>
#include <QFileInfo>

#include <map>

namespace rackscope {
namespace {

QString uniqueName(const DiagramInput& input, const QString& wanted) {
    auto taken = [&](const QString& n) {
        return std::any_of(input.hosts.begin(), input.hosts.end(), [&](const InspectedHost& h) { return h.host.name == n; });
    };
    QString name = wanted.isEmpty() ? QStringLiteral("host") : wanted;
    for (int i = 2; taken(name); ++i) name = QStringLiteral("%1 (%2)").arg(wanted).arg(i);
    return name;
}

} // namespace

void addFabric(DiagramInput& input, Fabric fabric) {
    input.fabric = input.fabric ? mergeFabrics({std::move(*input.fabric), std::move(fabric)}) : std::move(fabric);
}

DiagramSources loadDiagramSources(const QStringList& paths) {
    DiagramSources out;
    std::vector<Fabric> fabrics;
    // A cluster file names its servers' topology files and its fabric sources: read those in its place.
    struct Input {
        QString path, host;
    };
    std::vector<Input> inputs;
    for (const QString& path : paths) {
        QByteArray head;
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) head = f.read(64);
        if (!looksLikeClusterFile(head)) {
            inputs.push_back({path, {}});
            continue;
        }
        QByteArray content;
        if (const QString error = readInputFile(path, 1 << 20, &content); !error.isEmpty()) {
            out.failed.push_back({path, error});
            continue;
        }
        const ClusterFile cluster = parseClusterFile(content, QFileInfo(path).path());
        for (const QString& p : cluster.problems) out.failed.push_back({path, p});
        for (const ClusterFile::Host& h : cluster.hosts) inputs.push_back({h.path, h.name});
        for (const QString& fabric : cluster.fabrics) inputs.push_back({fabric, {}});
    }
    std::map<QString, QByteArray> cache; // the demo's servers share three files
    for (const auto& [path, hostName] : inputs) {
        QByteArray content;
        if (const auto hit = cache.find(path); hit != cache.end()) content = hit->second;
        else if (const QString error = readInputFile(path, kMaxFabricBytes, &content); !error.isEmpty()) {
            out.failed.push_back({path, error});
            continue;
        }
        cache[path] = content;
        const DetectedFormat format = detectFormat(content);
        const bool topology = format == DetectedFormat::HwlocXml || format == DetectedFormat::NcclTopoXml ||
                              format == DetectedFormat::NvidiaSmiTopo || format == DetectedFormat::AgentSnapshot;
        QString error;
        if (topology) {
            ImportResult r = content.size() > kMaxTopologyBytes ? ImportResult::fail(QStringLiteral("larger than a topology can be"))
                                                                : importTopology(content, path);
            if (r.host) {
                if (!hostName.isEmpty()) r.host->name = hostName; // as the cluster file names it
                if (r.host->name.isEmpty()) { // drawn and found by a name: the file's, said so, never passed off as the host's
                    r.host->name = uniqueName(out.input, QFileInfo(path).completeBaseName());
                    r.host->notes << QStringLiteral("the source names no host; \"%1\" is its file name").arg(r.host->name);
                }
                HostAnalysis analysis = analyzeHost(*r.host);
                out.input.hosts.push_back({std::move(*r.host), std::move(analysis)});
            } else {
                error = r.error;
            }
        }
        if (!topology || format == DetectedFormat::AgentSnapshot) { // a snapshot also tells the fabric what its NICs see
            FabricLoad l = importFabric(content, path);
            if (l.fabric) fabrics.push_back(std::move(*l.fabric));
            else if (!topology)
                error = format == DetectedFormat::Unknown || format == DetectedFormat::OtherXml || format == DetectedFormat::Empty ||
                                format == DetectedFormat::Binary
                            ? QStringLiteral("not a topology or fabric source rackscope reads (hwloc XML, NCCL topology XML, nvidia-smi topo -m, "
                                             "an agent snapshot, ibnetdiscover output, a Slurm topology.conf or a rackscope fabric file)")
                            : l.error;
        }
        if (!error.isEmpty()) out.failed.push_back({path, error});
    }
    if (!fabrics.empty()) out.input.fabric = fabrics.size() == 1 ? std::move(fabrics.front()) : mergeFabrics(fabrics);
    return out;
}

} // namespace rackscope
