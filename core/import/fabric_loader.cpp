#include "fabric_loader.h"

#include "ibnetdiscover_importer.h"
#include "input_file.h"
#include "slurm_topology_conf.h"

namespace rackscope {

FabricLoad loadFabricFile(const QString& path) {
    QByteArray text;
    if (const QString error = readInputFile(path, kMaxFabricBytes, &text); !error.isEmpty()) return {std::nullopt, error};
    if (looksLikeSlurmTopology(text)) {
        SlurmTopologyImport r = importSlurmTopology(text, path);
        return {std::move(r.fabric), r.error};
    }
    if (looksLikeIbnetdiscover(text)) {
        FabricImport r = importIbnetdiscover(text, path);
        return {std::move(r.fabric), r.error};
    }
    return {std::nullopt, QStringLiteral("not a fabric source rackscope reads (ibnetdiscover output or a Slurm topology.conf)")};
}

} // namespace rackscope
