#include "fabric_loader.h"

#include "agent_snapshot_importer.h"
#include "fabric_file.h"
#include "ibnetdiscover_importer.h"
#include "input_file.h"
#include "slurm_topology_conf.h"
#include "slurm_topology_yaml.h"
#include "snapshot_fabric.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace rackscope {

FabricLoad loadFabricFile(const QString& path) {
    QByteArray text;
    if (const QString error = readInputFile(path, kMaxFabricBytes, &text); !error.isEmpty())
        return {std::nullopt, error};
    return importFabric(text, path);
}

FabricLoad importFabric(const QByteArray& text, const QString& location) {
    if (looksLikeAgentSnapshot(text)) {
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(text, &pe);
        if (pe.error != QJsonParseError::NoError)
            return {std::nullopt,
                    QStringLiteral("malformed JSON at offset %1: %2").arg(pe.offset).arg(pe.errorString())};
        if (doc.object().value("format").toInt() != 1)
            return {std::nullopt, QStringLiteral("snapshot format %1; this rackscope reads format 1")
                                      .arg(doc.object().value("format").toVariant().toString())};
        return {fabricFromSnapshot(doc.object(), location), {}};
    }
    if (looksLikeFabricFile(text)) {
        FabricFileImport r = importFabricFile(text, location);
        return {std::move(r.fabric), r.error};
    }
    if (looksLikeSlurmTopology(text)) {
        SlurmTopologyImport r = importSlurmTopology(text, location);
        return {std::move(r.fabric), r.error};
    }
    if (looksLikeSlurmTopologyYaml(text)) {
        SlurmTopologyYamlImport r = importSlurmTopologyYaml(text, location);
        return {std::move(r.fabric), r.error};
    }
    if (looksLikeIbnetdiscover(text)) {
        FabricImport r = importIbnetdiscover(text, location);
        return {std::move(r.fabric), r.error};
    }
    return {
        std::nullopt,
        QStringLiteral("not a fabric source rackscope reads (ibnetdiscover output, a Slurm topology.conf or "
                       "topology.yaml, "
                       "a rackscope fabric file or an agent snapshot)")};
}

} // namespace rackscope
