#include "topo_matrix_importer.h"

#include "device_facts.h"

#include <QRegularExpression>
#include <QStringList>

namespace rackscope {
namespace {

// Real escapes, and their residue when a copy lost the ESC byte ("[4m").
QString stripAnsi(QString line) {
    static const QRegularExpression re(QStringLiteral("\\x1b?\\[[0-9;]*m"));
    return line.remove(re);
}

QStringList tokens(const QString& line) {
    static const QRegularExpression ws(QStringLiteral("\\s+"));
    return line.split(ws, Qt::SkipEmptyParts);
}

// Trailing attribute columns of the header, in the order drivers print them.
const QStringList kAttributeColumns = {QStringLiteral("CPU Affinity"), QStringLiteral("NUMA Affinity"),
                                       QStringLiteral("GPU NUMA ID")};

int headerLineIndex(const QStringList& lines) {
    for (int i = 0; i < lines.size(); ++i) {
        const QStringList t = tokens(stripAnsi(lines[i]));
        if (!t.isEmpty() && t.first() == QLatin1String("GPU0"))
            return i;
    }
    return -1;
}

bool isGpuLabel(const QString& s) {
    static const QRegularExpression re(QStringLiteral("^GPU\\d+$"));
    return re.match(s).hasMatch();
}

} // namespace

bool looksLikeTopoMatrix(const QByteArray& text) {
    const QStringList lines = QString::fromUtf8(text.left(64 * 1024)).split(QLatin1Char('\n'));
    const int h = headerLineIndex(lines);
    return h >= 0 && h + 1 < lines.size() &&
           tokens(stripAnsi(lines[h + 1])).value(0) == QLatin1String("GPU0");
}

ImportResult importTopoMatrix(const QByteArray& text, const QString& location) {
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    const int headerAt = headerLineIndex(lines);
    if (headerAt < 0)
        return ImportResult::fail(
            QStringLiteral("no `nvidia-smi topo -m` header line (starting GPU0) found"));

    // Header: device columns, then the attribute columns this driver prints.
    QString header = stripAnsi(lines[headerAt]);
    QStringList attributes;
    int firstAttribute = int(header.size());
    for (const QString& col : kAttributeColumns) {
        const int at = int(header.indexOf(col));
        if (at < 0)
            continue;
        attributes << col;
        firstAttribute = std::min(firstAttribute, at);
    }
    QStringList columns = tokens(header.left(firstAttribute));
    if (columns.isEmpty())
        return ImportResult::fail(QStringLiteral("header line names no devices"));
    if (columns.removeDuplicates() > 0)
        return ImportResult::fail(
            QStringLiteral("line %1: the header names a device twice").arg(headerAt + 1));

    HostTopology host;
    host.source = {SourceFormat::NvidiaSmiTopo, location};
    std::map<QString, Device> byLabel;
    int nicIndex = 0;
    for (const QString& col : columns) {
        Device d;
        d.id = col;
        if (isGpuLabel(col)) {
            d.kind = DeviceKind::Gpu;
            d.cudaDevice = col.mid(3).toInt();
        } else {
            d.kind = DeviceKind::Nic;
            // Legacy drivers name the RDMA device in the header itself ("mlx4_0").
            if (!col.startsWith(QLatin1String("NIC"))) {
                d.name = col;
                d.id = QStringLiteral("NIC%1").arg(nicIndex);
            }
            ++nicIndex;
            d.rdma = true;
            d.rdmaEvidence = QStringLiteral("nvidia-smi topo -m lists RDMA devices only");
        }
        byLabel[col] = d;
    }

    // Rows: label, one path cell per column, then the attributes (GPU rows only).
    std::map<QString, QStringList> rows;
    int lineNo = headerAt + 1;
    for (; lineNo < lines.size(); ++lineNo) {
        const QString line = stripAnsi(lines[lineNo]);
        const QStringList t = tokens(line);
        if (t.isEmpty() || t.first() == QLatin1String("Legend:"))
            break;
        const QString& label = t.first();
        if (!byLabel.count(label))
            return ImportResult::fail(QStringLiteral("line %1: row '%2' is not one of the header's devices")
                                          .arg(lineNo + 1)
                                          .arg(label.left(40)));
        if (rows.count(label))
            return ImportResult::fail(
                QStringLiteral("line %1: row '%2' appears twice").arg(lineNo + 1).arg(label));
        if (t.size() - 1 < columns.size())
            return ImportResult::fail(
                QStringLiteral("line %1: row %2 has %3 path cells, the header names %4 devices "
                               "(truncated?)")
                    .arg(lineNo + 1)
                    .arg(label)
                    .arg(t.size() - 1)
                    .arg(columns.size()));
        if (t.size() - 1 > columns.size() + attributes.size())
            return ImportResult::fail(
                QStringLiteral("line %1: row %2 has more cells than the header has columns")
                    .arg(lineNo + 1)
                    .arg(label));
        for (int c = 0; c < columns.size(); ++c) {
            int links = 0;
            const auto type = parsePathType(t[c + 1], &links);
            if (!type)
                return ImportResult::fail(
                    QStringLiteral("line %1: '%2' in row %3, column %4 is not a path type")
                        .arg(lineNo + 1)
                        .arg(t[c + 1].left(20), label, columns[c]));
            if ((*type == PathType::X) != (columns[c] == label))
                return ImportResult::fail(QStringLiteral("line %1: row %2, column %3 says %4")
                                              .arg(lineNo + 1)
                                              .arg(label, columns[c], t[c + 1]));
            if (*type == PathType::X)
                continue;
            host.statedPaths[{byLabel[label].id, byLabel[columns[c]].id}] = {
                *type, *type == PathType::NV ? std::optional<int>(links) : std::nullopt};
        }
        Device& d = byLabel[label];
        for (int a = 0; a < attributes.size() && columns.size() + 1 + a < t.size(); ++a) {
            const QString value = t[columns.size() + 1 + a];
            if (attributes[a] == kAttributeColumns[0])
                d.cpuAffinity = value;
            if (attributes[a] == kAttributeColumns[1]) {
                bool ok = false;
                const int numa = value.toInt(&ok);
                if (ok)
                    d.numa = numa;
            }
        }
        rows[label] = t;
    }
    if (rows.size() != size_t(columns.size()))
        return ImportResult::fail(QStringLiteral("matrix has %1 rows for %2 devices (truncated?)")
                                      .arg(rows.size())
                                      .arg(columns.size()));

    // NIC legend: "  NIC3: mlx5_3".
    static const QRegularExpression legendRe(QStringLiteral("^\\s*(NIC\\d+):\\s*(\\S+)\\s*$"));
    for (; lineNo < lines.size(); ++lineNo) {
        const auto m = legendRe.match(stripAnsi(lines[lineNo]));
        if (m.hasMatch() && byLabel.count(m.captured(1)))
            byLabel[m.captured(1)].name = m.captured(2);
    }

    for (const QString& col : columns) {
        Device& d = byLabel[col];
        (d.kind == DeviceKind::Gpu ? host.gpus : host.nics).push_back(d);
    }
    host.nvlinkStated = true; // every GPU pair's cell says NV# or a PCIe path
    for (int i = 0; i < int(host.gpus.size()); ++i)
        for (int j = i + 1; j < int(host.gpus.size()); ++j) {
            const auto it = host.statedPaths.find({host.gpus[i].id, host.gpus[j].id});
            if (it != host.statedPaths.end() && it->second.first == PathType::NV)
                host.nvlinks[{i, j}] = *it->second.second;
        }
    for (const auto& [key, value] : host.statedPaths) {
        const auto back = host.statedPaths.find({key.second, key.first});
        if (key.first < key.second && back != host.statedPaths.end() && back->second != value)
            host.notes << QStringLiteral("the matrix is not symmetric: %1→%2 is %3 but %2→%1 is %4")
                              .arg(key.first, key.second, pathTypeName(value.first, value.second),
                                   pathTypeName(back->second.first, back->second.second));
    }
    return ImportResult::ok(std::move(host));
}

} // namespace rackscope
