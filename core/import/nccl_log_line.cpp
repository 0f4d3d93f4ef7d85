#include "nccl_log_line.h"

#include <QRegularExpression>

namespace rackscope {
namespace {

// NCCL's log prefix (src/debug.cc): "host:pid:tid [cudaDev] NCCL INFO ", after whatever a launcher put before
// it ("[1,0]<stdout>:", "0: ").
const QRegularExpression kPrefix(QStringLiteral(
    "(?:^|[^A-Za-z0-9._-])([A-Za-z0-9][A-Za-z0-9._-]*):\\d+:\\d+ \\[(\\d+)\\] NCCL (?:INFO|WARN) (.*)$"));
// src/init.cc: "MNNVL busId 0x%lx fabric UUID %lx.%lx cliqueId 0x%x state %d healthMask 0x%x"
const QRegularExpression
    kMnnvl(QStringLiteral("^MNNVL busId 0x([0-9a-fA-F]+) fabric UUID (\\S+) cliqueId "
                          "(?:0x)?([0-9a-fA-F]+) state (\\d+) healthMask (?:0x)?([0-9a-fA-F]+)"));

// One "%lx" word of NCCL's ClusterUUID as the eight bytes it was read from (x86 and Arm are little-endian).
QString wordBytes(const QString& word) {
    bool ok = false;
    const qulonglong v = word.toULongLong(&ok, 16);
    if (!ok || word.size() > 16)
        return {};
    QString out;
    for (int i = 0; i < 8; ++i)
        out += QStringLiteral("%1").arg((v >> (8 * i)) & 0xff, 2, 16, QLatin1Char('0'));
    return out;
}

// "dc6e40c4d72243579ba65291dd461278" as "dc6e40c4-d722-4357-9ba6-5291dd461278".
QString dashedUuid(const QString& hex) {
    return hex.mid(0, 8) + QLatin1Char('-') + hex.mid(8, 4) + QLatin1Char('-') + hex.mid(12, 4) +
           QLatin1Char('-') + hex.mid(16, 4) + QLatin1Char('-') + hex.mid(20);
}

} // namespace

std::optional<NcclLogLine> readNcclLogLine(const QString& line) {
    const auto p = kPrefix.match(line);
    if (!p.hasMatch())
        return std::nullopt;
    return NcclLogLine{p.captured(1), p.captured(2).toInt(), p.captured(3).trimmed()};
}

std::optional<GpuFabricState> readMnnvlMessage(const NcclLogLine& line) {
    const auto m = kMnnvl.match(line.message);
    if (!m.hasMatch())
        return std::nullopt;
    GpuFabricState g;
    g.host = line.host;
    g.busId = ncclBusIdToPci(m.captured(1));
    const QStringList words = m.captured(2).split(QLatin1Char('.'));
    const QString hex = words.size() == 2 ? wordBytes(words[0]) + wordBytes(words[1]) : QString();
    // A redacted or otherwise unreadable UUID is kept as written: it still tells one domain from another.
    g.clusterUuid = hex.size() == 32 ? dashedUuid(hex) : m.captured(2);
    bool ok = false;
    if (const qulonglong clique = m.captured(3).toULongLong(&ok, 16); ok)
        g.cliqueId = clique;
    g.state = fabricStateName(m.captured(4).toInt());
    if (const uint mask = m.captured(5).toUInt(&ok, 16); ok) {
        g.healthMask = mask;
        g.healthConditions = fabricHealthConditions(mask);
    }
    return g;
}

QString ncclBusIdToPci(const QString& busId) {
    bool ok = false;
    const qulonglong v = busId.toULongLong(&ok, 16);
    if (!ok || busId.size() > 12)
        return {};
    // "0019:06:00.0" with its punctuation taken out is NCCL's number: domain, bus, device, function.
    return QStringLiteral("%1:%2:%3")
        .arg(v >> 20, 4, 16, QLatin1Char('0'))
        .arg((v >> 12) & 0xff, 2, 16, QLatin1Char('0'))
        .arg((v >> 4) & 0xff, 2, 16, QLatin1Char('0'));
}

} // namespace rackscope
