#include "topology_loader.h"

#include "agent_snapshot_importer.h"
#include "hwloc_importer.h"
#include "input_file.h"
#include "logging.h"
#include "nccl_xml_importer.h"
#include "topo_matrix_importer.h"

#include <QFileInfo>
#include <QXmlStreamReader>

namespace rackscope {
namespace {

QString rootElement(const QByteArray& content) {
    QXmlStreamReader r(content.left(256 * 1024));
    while (!r.atEnd())
        if (r.readNext() == QXmlStreamReader::StartElement)
            return r.name().toString();
    return {};
}

} // namespace

DetectedFormat detectFormat(const QByteArray& content) {
    if (content.trimmed().isEmpty())
        return DetectedFormat::Empty;
    if (content.left(64 * 1024).contains('\0'))
        return DetectedFormat::Binary;
    const QByteArray head = content.left(4096).trimmed();
    if (head.startsWith('<')) {
        const QString root = rootElement(content);
        if (root == QLatin1String("topology"))
            return DetectedFormat::HwlocXml;
        if (root == QLatin1String("system"))
            return DetectedFormat::NcclTopoXml;
        if (root == QLatin1String("graphs"))
            return DetectedFormat::NcclGraphXml;
        return DetectedFormat::OtherXml;
    }
    if (head.startsWith('{') && looksLikeAgentSnapshot(content))
        return DetectedFormat::AgentSnapshot;
    if (looksLikeTopoMatrix(content))
        return DetectedFormat::NvidiaSmiTopo;
    return DetectedFormat::Unknown;
}

ImportResult importTopology(const QByteArray& content, const QString& location) {
    switch (detectFormat(content)) {
    case DetectedFormat::HwlocXml:
        return importHwlocXml(content, location);
    case DetectedFormat::NcclTopoXml:
        return importNcclTopoXml(content, location);
    case DetectedFormat::NvidiaSmiTopo:
        return importTopoMatrix(content, location);
    case DetectedFormat::AgentSnapshot:
        return importAgentSnapshot(content, location);
    case DetectedFormat::NcclGraphXml:
        return ImportResult::fail(
            QStringLiteral("this is an NCCL graph file (NCCL_GRAPH_DUMP_FILE), which describes "
                           "rings and trees, not the hardware; give NCCL_TOPO_DUMP_FILE's output"));
    case DetectedFormat::OtherXml: {
        const QString root = rootElement(content);
        if (root.isEmpty()) {
            const QString broken = xmlParseError(content);
            return ImportResult::fail(broken.isEmpty() ? QStringLiteral("XML without elements") : broken);
        }
        return ImportResult::fail(
            QStringLiteral("XML whose root is <%1>, not hwloc's <topology> or NCCL's <system>")
                .arg(root.left(40)));
    }
    case DetectedFormat::Binary:
        return ImportResult::fail(QStringLiteral("binary data, not a topology"));
    case DetectedFormat::Empty:
        return ImportResult::fail(QStringLiteral("the file is empty"));
    case DetectedFormat::Unknown:
        break;
    }
    return ImportResult::fail(QStringLiteral("not a topology rackscope reads (hwloc XML, NCCL topology XML, "
                                             "`nvidia-smi topo -m` output, or a rackscope-agent snapshot)"));
}

ImportResult loadTopologyFile(const QString& path) {
    QByteArray content;
    if (const QString error = readInputFile(path, kMaxTopologyBytes, &content); !error.isEmpty()) {
        qCDebug(lcImport) << path << "refused:" << error;
        return ImportResult::fail(error);
    }
    ImportResult r = importTopology(content, QFileInfo(path).absoluteFilePath());
    if (r.host)
        qCDebug(lcImport) << path << "read as" << sourceFormatId(r.host->source.format) << "-"
                          << r.host->gpus.size() << "GPUs," << r.host->nics.size() << "NICs";
    else
        qCDebug(lcImport) << path << "refused:" << r.error;
    return r;
}

} // namespace rackscope
