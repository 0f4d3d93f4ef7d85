#include "hwloc_xml_v3.h"

#include <QXmlStreamReader>
#include <QXmlStreamWriter>
#include <utility>
#include <vector>

namespace rackscope {
namespace {

// hwloc 3.0's osdev bitmask to 2.x's enum, most telling bit first; 2.x spells nvml GPUs COPROC too.
QString osdevTypeV2(const QStringView mask) {
    bool ok = false;
    const unsigned bits = mask.toUInt(&ok);
    if (!ok)
        return mask.toString();
    const std::pair<unsigned, int> order[] = {{1u << 3, 5},  // COPROC
                                              {1u << 2, 1},  // GPU
                                              {1u << 5, 3},  // OPENFABRICS
                                              {1u << 4, 2},  // NETWORK
                                              {1u << 6, 4},  // DMA
                                              {1u << 0, 0},  // STORAGE: 2.x's BLOCK
                                              {1u << 1, 0}}; // MEMORY (NVDIMM, CXL): 2.x stored them as BLOCK
    for (const auto& [bit, type] : order)
        if (bits & bit)
            return QString::number(type);
    return QStringLiteral("0");
}

// The topology-level <info> elements of a 3.0 file: 2.x keeps them on the root object.
std::vector<std::pair<QString, QString>> topologyInfos(const QByteArray& xml) {
    std::vector<std::pair<QString, QString>> infos;
    QXmlStreamReader r(xml);
    int depth = 0;
    while (!r.atEnd()) {
        const auto token = r.readNext();
        if (token == QXmlStreamReader::StartElement) {
            if (++depth == 2 && r.name() == QLatin1String("info"))
                infos.emplace_back(r.attributes().value(QLatin1String("name")).toString(),
                                   r.attributes().value(QLatin1String("value")).toString());
        } else if (token == QXmlStreamReader::EndElement) {
            --depth;
        }
    }
    return infos;
}

} // namespace

QByteArray hwlocXmlV3AsV2(const QByteArray& xml, QString* error) {
    const auto infos = topologyInfos(xml);
    QByteArray out;
    QXmlStreamReader r(xml);
    QXmlStreamWriter w(&out);
    int depth = 0;
    bool rootWritten = false;
    while (!r.atEnd()) {
        const auto token = r.readNext();
        if (token == QXmlStreamReader::StartElement) {
            ++depth;
            const auto name = r.name();
            if (depth == 2 && (name == QLatin1String("info") || name == QLatin1String("pci_locality"))) {
                r.skipCurrentElement();
                --depth;
                continue;
            }
            if (name != QLatin1String("topology") && name != QLatin1String("object")) {
                w.writeCurrentToken(r);
                continue;
            }
            w.writeStartElement(name.toString());
            for (const QXmlStreamAttribute& a : r.attributes()) {
                if (a.name() == QLatin1String("id"))
                    continue;
                if (name == QLatin1String("topology") && a.name() == QLatin1String("version"))
                    w.writeAttribute(QStringLiteral("version"), QStringLiteral("2.0"));
                else if (a.name() == QLatin1String("osdev_type"))
                    w.writeAttribute(QStringLiteral("osdev_type"), osdevTypeV2(a.value()));
                else
                    w.writeAttribute(a.name().toString(), a.value().toString());
            }
            if (name == QLatin1String("object") && !rootWritten) {
                rootWritten = true;
                for (const auto& [infoName, value] : infos) {
                    w.writeEmptyElement(QStringLiteral("info"));
                    w.writeAttribute(QStringLiteral("name"), infoName);
                    w.writeAttribute(QStringLiteral("value"), value);
                }
            }
        } else {
            depth -= token == QXmlStreamReader::EndElement;
            w.writeCurrentToken(r);
        }
    }
    if (r.hasError()) {
        *error = QStringLiteral("malformed XML at line %1: %2").arg(r.lineNumber()).arg(r.errorString());
        return {};
    }
    return out;
}

} // namespace rackscope
