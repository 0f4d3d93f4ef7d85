#include "ibnetdiscover_importer.h"

#include <QRegularExpression>
#include <map>

namespace rackscope {

namespace {

// Switch  65 "S-2c5eab0300b87b40"  # "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1" enhanced port 0 lid 73 lmc 0
const QRegularExpression
    kNodeLine(QString::fromUtf8(R"re(^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]+)"\s*(?:#\s*"([^"]*)"(.*))?$)re"));
// [1]  "H-e09d7303007a4bd8"[1](e09d7303007a4bd8)  # "a08-p1-dgx-04-c01 mlx5_5" lid 647 4xNDR
// [1](2c902002789ad)  "S-000b8cffff0053ee"[1]  # lid 1 lmc 0 "MT43132 Mellanox Technologies" lid 3 4xSDR
const QRegularExpression kPortLine(QString::fromUtf8(
    R"re(^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\](?:\([0-9a-fA-F]+\))?\s*(?:#(.*))?$)re"));
const QRegularExpression kKeyValue(
    QString::fromUtf8(R"re(^(vendid|devid|sysimgguid|switchguid|caguid|rtguid)=(0x[0-9a-fA-F]+))re"));
const QRegularExpression kLinkRate(QString::fromUtf8(R"re((\d+x)([A-Z]+)\s*$)re"));
const QRegularExpression kLid(QString::fromUtf8(R"re(\blid\s+(\d+))re"));

FabricNodeKind kindOf(const QString& word) {
    if (word == QLatin1String("Switch"))
        return FabricNodeKind::Switch;
    if (word == QLatin1String("Ca"))
        return FabricNodeKind::ChannelAdapter;
    return FabricNodeKind::Router;
}

} // namespace

bool looksLikeIbnetdiscover(const QByteArray& text) {
    const QString head = QString::fromUtf8(text.left(64 * 1024));
    return head.contains(QStringLiteral("# Topology file: generated")) ||
           QRegularExpression(QString::fromUtf8(R"re(^(Switch|Ca)\s+\d+\s+"[SH]-)re"),
                              QRegularExpression::MultilineOption)
               .match(head)
               .hasMatch();
}

FabricImport importIbnetdiscover(const QByteArray& text, const QString& location) {
    Fabric f;
    f.source = location;
    std::map<QString, unsigned> pending; // key=value lines before the next node
    std::map<QString, size_t> byId;
    struct HalfLink {
        QString node;
        int port;
        QString peer;
        int peerPort;
        QString width, speed;
        int line;
    };
    std::vector<HalfLink> halves;
    auto linkOf = [](const HalfLink& h) {
        // ibnetdiscover lists a port only when its link is up (LinkUp/Active).
        FabricLink l =
            linkBetween(h.node, QString::number(h.port), h.peer, QString::number(h.peerPort), h.line);
        l.width = h.width;
        l.speed = h.speed;
        l.state = QStringLiteral("up");
        return l;
    };
    int current = -1;
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    auto diag = [&](int line, const QString& raw, const QString& message) {
        f.diagnostics.push_back({line, raw.trimmed().left(200), message});
    };
    for (int i = 0; i < lines.size(); ++i) {
        const QString raw = lines[i];
        const QString line = raw.trimmed();
        const int lineNo = i + 1;
        if (line.isEmpty()) {
            current = -1;
            continue;
        }
        if (line.startsWith(QLatin1Char('#')))
            continue;
        if (const auto kv = kKeyValue.match(line); kv.hasMatch()) {
            pending[kv.captured(1)] = kv.captured(2).mid(2).left(8).toUInt(nullptr, 16);
            if (kv.captured(1).endsWith(QLatin1String("guid")))
                pending[QStringLiteral("has_guid")] = 1;
            continue;
        }
        if (const auto m = kNodeLine.match(line); m.hasMatch()) {
            FabricNode n;
            n.kind = kindOf(m.captured(1));
            n.ports = m.captured(2).toInt();
            n.id = m.captured(3);
            n.guid = QStringLiteral("0x") + n.id.mid(2);
            n.description = m.captured(4);
            n.line = lineNo;
            if (const auto lid = kLid.match(m.captured(5)); lid.hasMatch())
                n.lid = lid.captured(1).toInt();
            if (pending.count(QStringLiteral("vendid")))
                n.vendorId = pending[QStringLiteral("vendid")];
            if (pending.count(QStringLiteral("devid")))
                n.deviceId = pending[QStringLiteral("devid")];
            pending.clear();
            if (n.kind == FabricNodeKind::ChannelAdapter) {
                const QStringList words = n.description.split(QLatin1Char(' '), Qt::SkipEmptyParts);
                if (words.size() == 2) {
                    n.host = words[0];
                    n.device = words[1];
                }
            }
            if (byId.count(n.id)) {
                diag(lineNo, raw,
                     QStringLiteral("node %1 was already declared at line %2")
                         .arg(n.id)
                         .arg(f.nodes[byId[n.id]].line));
                current = int(byId[n.id]);
                continue;
            }
            byId[n.id] = f.nodes.size();
            current = int(f.nodes.size());
            f.nodes.push_back(n);
            continue;
        }
        if (const auto m = kPortLine.match(line); m.hasMatch()) {
            if (current < 0) {
                diag(lineNo, raw, QStringLiteral("a port line outside any node"));
                continue;
            }
            HalfLink h{f.nodes[size_t(current)].id,
                       m.captured(1).toInt(),
                       m.captured(2),
                       m.captured(3).toInt(),
                       {},
                       {},
                       lineNo};
            if (const auto rate = kLinkRate.match(m.captured(4)); rate.hasMatch()) {
                h.width = rate.captured(1);
                h.speed = rate.captured(2);
            }
            if (h.port < 0 || h.port > f.nodes[size_t(current)].ports)
                diag(lineNo, raw,
                     QStringLiteral("port %1 of %2, which has %3 ports")
                         .arg(h.port)
                         .arg(h.node)
                         .arg(f.nodes[size_t(current)].ports));
            halves.push_back(h);
            continue;
        }
        diag(lineNo, raw, QStringLiteral("not an ibnetdiscover line"));
    }
    if (f.nodes.empty())
        return {std::nullopt, f.diagnostics.empty()
                                  ? QStringLiteral("no switches or channel adapters")
                                  : QStringLiteral("no switches or channel adapters (line %1: %2)")
                                        .arg(f.diagnostics.front().line)
                                        .arg(f.diagnostics.front().message)};

    // Each link is listed from both ends where both are declared: keep it once,
    // and report ends that disagree or point at nodes never declared.
    std::map<std::pair<QString, int>, const HalfLink*> byEnd;
    for (const HalfLink& h : halves)
        byEnd[{h.node, h.port}] = &h;
    for (const HalfLink& h : halves) {
        if (!byId.count(h.peer)) {
            diag(h.line, lines[h.line - 1],
                 QStringLiteral("link to %1, which is never declared").arg(h.peer));
            f.links.push_back(linkOf(h));
            continue;
        }
        const auto back = byEnd.find({h.peer, h.peerPort});
        if (back != byEnd.end() && (back->second->peer != h.node || back->second->peerPort != h.port)) {
            diag(h.line, lines[h.line - 1],
                 QStringLiteral("%1[%2] says it reaches %3[%4], but %3[%4] says %5[%6]")
                     .arg(h.node)
                     .arg(h.port)
                     .arg(h.peer)
                     .arg(h.peerPort)
                     .arg(back->second->peer)
                     .arg(back->second->peerPort));
            continue;
        }
        // Keep the half whose end sorts first; a link listed from one end only is kept as it is.
        if (back != byEnd.end() && std::pair(h.peer, h.peerPort) < std::pair(h.node, h.port))
            continue;
        f.links.push_back(linkOf(h));
    }
    return {std::move(f), {}};
}

} // namespace rackscope
