#include "nvlink_inputs.h"

#include "agent_snapshot_importer.h"
#include "input_file.h"
#include "launcher_prefix.h"
#include "model/hostlist.h"
#include "nccl_log_line.h"
#include "snapshot_nvlink.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <map>
#include <set>

namespace rackscope {
namespace {

// The server a launcher's prefix names ("node7" of "node7: ..."); empty for a rank number.
QString prefixHost(const QString& who) {
    for (const QString& part : who.split(QStringLiteral(", ")))
        if (!part.startsWith(QLatin1String("rank ")) && hostNameProblem(part).isEmpty())
            return part;
    return {};
}

void readMnnvlLines(const QStringList& lines, const QString& location, NvlinkInput* out) {
    std::set<std::pair<QString, QString>>
        seen; // host, bus id: every rank of a communicator prints its GPU again
    for (int i = 0; i < lines.size(); ++i) {
        const auto line = readNcclLogLine(lines[i]);
        auto g = line ? readMnnvlMessage(*line) : std::nullopt;
        if (!g || !seen.insert({g->host, g->busId}).second)
            continue;
        g->source = QStringLiteral("%1:%2 (NCCL MNNVL)").arg(location).arg(i + 1);
        out->fabric.gpus.push_back(std::move(*g));
    }
    if (!seen.empty())
        out->kinds << QStringLiteral("NCCL_DEBUG=INFO MNNVL lines");
}

} // namespace

NvlinkInput readNvlinkText(const QByteArray& content, const QString& location, const QString& host) {
    NvlinkInput out;
    if (content.trimmed().isEmpty()) {
        out.error = QStringLiteral("the file is empty");
        return out;
    }
    if (content.left(64 * 1024).contains('\0')) {
        out.error = QStringLiteral("binary data, not NVLink or IMEX output");
        return out;
    }
    if (looksLikeAgentSnapshot(content)) {
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(content, &pe);
        if (pe.error != QJsonParseError::NoError) {
            out.error =
                QStringLiteral("malformed JSON at offset %1: %2").arg(pe.offset).arg(pe.errorString());
            return out;
        }
        out.fabric = nvlinkFromSnapshot(doc.object(), host);
        out.kinds << QStringLiteral("rackscope-agent snapshot");
        if (out.fabric.empty())
            out.error =
                QStringLiteral("the snapshot states no GPU fabric registration, NVLink or IMEX daemon");
        return out;
    }
    static const QRegularExpression ansi(QStringLiteral("\x1b\\[[0-9;]*m"));
    const QStringList lines =
        QString::fromUtf8(content).remove(ansi).remove(QLatin1Char('\r')).split(QLatin1Char('\n'));
    // Each server's lines in order: pdsh and clush interleave servers, and a reader follows one server's
    // output from its GPU header to its last link.
    std::map<QString, std::vector<SourceLine>> byHost;
    for (int i = 0; i < lines.size(); ++i) {
        QString who;
        const QString text = withoutLauncherPrefix(lines[i], &who);
        const QString named = prefixHost(who);
        byHost[named.isEmpty() ? host : named].push_back({i + 1, named.isEmpty() ? lines[i] : text});
    }
    NvlinkTextRead read;
    for (const auto& [server, serverLines] : byHost) {
        readNvidiaSmiFabric(serverLines, server, location, &read);
        readNvlinkStatus(serverLines, server, location, &read);
        readImexCtl(serverLines, server, location, &read);
    }
    read.kinds.removeDuplicates();
    out.fabric = std::move(read.fabric);
    out.kinds = read.kinds;
    out.notes = read.notes;
    readMnnvlLines(lines, location, &out);
    if (!out.fabric.empty()) {
        out.fabric.sources << location;
        return out;
    }
    if (content.contains("NVLE:") || content.contains("Firmware Version:"))
        out.error =
            QStringLiteral("this is `nvidia-smi nvlink -info` (NVLink firmware and encryption), which "
                           "states neither the links nor the fabric; give `nvidia-smi -q` or "
                           "`nvidia-smi nvlink --status`");
    else
        out.error =
            QStringLiteral("no NVLink fabric state found: rackscope reads `nvidia-smi -q` (its Fabric "
                           "section), `nvidia-smi nvlink --status`, `nvidia-imex-ctl -N` and "
                           "NCCL_DEBUG=INFO logs with MNNVL lines");
    return out;
}

NvlinkInput loadNvlinkFile(const QString& path, const QString& host) {
    QByteArray content;
    if (const QString error = readInputFile(path, kMaxNvlinkInputBytes, &content); !error.isEmpty()) {
        NvlinkInput out;
        out.error = error;
        return out;
    }
    return readNvlinkText(content, QFileInfo(path).fileName(), host);
}

} // namespace rackscope
