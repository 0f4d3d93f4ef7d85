#include "nccl_ras.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>
#include <set>

namespace rackscope {
namespace {

const QRegularExpression kVersion(QStringLiteral("^NCCL version (\\S+)"));
const QRegularExpression kGroupRow(QStringLiteral(
    "^\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+([A-Z]+)\\s+([A-Z,]+)\\s*$"));
const QRegularExpression kCommProblem(QStringLiteral("^(#\\d+-\\d+ \\(\\w+\\)) ([A-Z_,]+)\\s*$"));
const QRegularExpression kJobProblem(QStringLiteral("^([A-Z_]+)\\s*$"));
const QRegularExpression
    kRankLine(QStringLiteral("Rank (\\d+) -- GPU (\\d+) managed by process (\\d+) on node (\\S+)"));
const QRegularExpression kProcessLine(QStringLiteral("Process (\\d+) on node (\\S+) managing GPU (\\d+)"));
const QRegularExpression kMissing(QStringLiteral("The missing ranks?: ([0-9, -]+)"));
const QRegularExpression kHaveStatus(QStringLiteral("^\\d+ ranks? ha(?:ve|s) status (\\S+)"));
// "30 ranks have launched up to operation 640": the ranks, then the operation count.
const QRegularExpression
    kLaunched(QStringLiteral("^(\\d+) ranks? ha(?:ve|s) launched up to operation (\\d+)"));
const QRegularExpression kMonitor(QStringLiteral("\\] ([A-Z_]+): (.*)$"));

// "21", "1,3-5"
std::vector<int> rankList(const QString& text) {
    std::vector<int> out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString a = part.section(QLatin1Char('-'), 0, 0).trimmed(),
                      b = part.section(QLatin1Char('-'), 1).trimmed();
        const int lo = a.toInt(), hi = b.isEmpty() ? lo : b.toInt();
        for (int r = lo; r <= hi && out.size() < 100000; ++r)
            out.push_back(r);
    }
    return out;
}

// A MISMATCH of operation counts between two groups of ranks, said as the outliers' lead or lag: "ranks 12-13
// (on 10.137.190.124) are 1 AllGather ahead of the other 30".
void addVerdict(NcclRasProblem& p) {
    static const QRegularExpression op(QStringLiteral("different (\\w+) operation counts"));
    QString opName;
    std::vector<std::pair<qint64, qint64>> groups; // (operation count, ranks)
    for (const QString& l : p.lines) {
        if (const auto m = op.match(l); m.hasMatch())
            opName = m.captured(1);
        if (const auto m = kLaunched.match(l); m.hasMatch())
            groups.emplace_back(m.captured(2).toLongLong(), m.captured(1).toLongLong());
    }
    if (p.kind != QLatin1String("MISMATCH") || groups.size() != 2 || p.ranks.empty())
        return;
    const QString named = p.ranks.front().status;
    std::vector<int> ranks;
    QStringList hosts;
    for (const NcclRasRank& k : p.ranks) {
        if (k.status != named || !k.rank)
            return; // the named ranks are not one group
        ranks.push_back(*k.rank);
        if (!k.host.isEmpty() && !hosts.contains(k.host))
            hosts << k.host;
    }
    const auto mine = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
        return named == QStringLiteral("launched up to operation %1").arg(g.first);
    });
    if (mine == groups.end())
        return;
    const auto& other = groups[mine == groups.begin() ? 1 : 0];
    const qint64 by = mine->first - other.first;
    QStringList list;
    for (int r : ranks)
        list << QString::number(r);
    p.lag = QStringLiteral("%1 %2 %3 the other %4")
                .arg(std::abs(by))
                .arg(opName.isEmpty() ? QStringLiteral("operations") : opName,
                     by > 0 ? QStringLiteral("ahead of") : QStringLiteral("behind"))
                .arg(other.second);
    p.lines << (ranks.size() == 1 ? QStringLiteral("rank %1%2 is %3") : QStringLiteral("ranks %1%2 are %3"))
                   .arg(list.join(QLatin1Char(',')),
                        hosts.isEmpty() ? QString()
                                        : QStringLiteral(" (on %1)").arg(hosts.join(QStringLiteral(", "))),
                        p.lag);
}

std::optional<NcclRasReport> readText(const QByteArray& content) {
    NcclRasReport r;
    r.format = QStringLiteral("text");
    bool inProblems = false, warning = false;
    NcclRasProblem* current = nullptr;
    QString status;
    const QStringList lines = QString::fromUtf8(content).split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed().isEmpty() ? QString() : lines[i];
        const QString next = i + 1 < lines.size() ? lines[i + 1].trimmed() : QString();
        if (const auto v = kVersion.match(line); v.hasMatch()) {
            r.ncclVersion = v.captured(1);
            continue;
        }
        if ((line == QLatin1String("Errors") || line == QLatin1String("Warnings")) &&
            next.startsWith(QLatin1Char('='))) {
            inProblems = true;
            warning = line == QLatin1String("Warnings");
            current = nullptr;
            ++i;
            continue;
        }
        if (const auto g = kGroupRow.match(line); g.hasMatch()) {
            r.groups.push_back({g.captured(1).toInt(), g.captured(2).toInt(), g.captured(5).toInt(),
                                g.captured(7), g.captured(8)});
            continue;
        }
        if (const auto m = kMonitor.match(line); m.hasMatch() && line.startsWith(QLatin1Char('['))) {
            NcclRasProblem p;
            p.kind = m.captured(1);
            p.lines << m.captured(2);
            if (const auto pr = kProcessLine.match(m.captured(2)); pr.hasMatch())
                p.ranks.push_back({std::nullopt,
                                   pr.captured(2),
                                   pr.captured(1).toLongLong(),
                                   pr.captured(3).toInt(),
                                   QStringLiteral("dead"),
                                   {},
                                   std::nullopt});
            r.problems.push_back(p);
            continue;
        }
        if (kCommProblem.match(line).hasMatch())
            inProblems = true; // a pasted excerpt may begin at a communicator's problem
        if (!inProblems || line.isEmpty())
            continue;
        if (!line.startsWith(QLatin1Char(' '))) {
            current = nullptr;
            status.clear();
            if (const auto c = kCommProblem.match(line); c.hasMatch())
                r.problems.push_back({c.captured(2), c.captured(1), {}, {}, warning, {}});
            else if (const auto j = kJobProblem.match(line); j.hasMatch())
                r.problems.push_back({j.captured(1), QString(), {}, {}, warning, {}});
            else {
                inProblems = false; // another program's line: the RAS output has ended
                continue;
            }
            current = &r.problems.back();
            continue;
        }
        if (!current)
            continue;
        const QString text = line.trimmed();
        current->lines << text;
        if (const auto s = kHaveStatus.match(text); s.hasMatch())
            status = s.captured(1);
        else if (const auto l = kLaunched.match(text); l.hasMatch())
            status = QStringLiteral("launched up to operation %1").arg(l.captured(2));
        else if (const auto k = kRankLine.match(text); k.hasMatch())
            current->ranks.push_back({k.captured(1).toInt(),
                                      k.captured(4),
                                      k.captured(3).toLongLong(),
                                      k.captured(2).toInt(),
                                      status,
                                      {},
                                      std::nullopt});
        else if (const auto p = kProcessLine.match(text); p.hasMatch())
            current->ranks.push_back(
                {std::nullopt,
                 p.captured(2),
                 p.captured(1).toLongLong(),
                 p.captured(3).toInt(),
                 current->kind == QLatin1String("DEAD") ? QStringLiteral("dead") : status,
                 {},
                 std::nullopt});
        else if (const auto ms = kMissing.match(text); ms.hasMatch())
            for (int rank : rankList(ms.captured(1)))
                current->ranks.push_back({rank,
                                          QString(),
                                          std::nullopt,
                                          std::nullopt,
                                          QStringLiteral("missing"),
                                          {},
                                          std::nullopt});
    }
    if (r.groups.empty() && r.problems.empty() && r.ncclVersion.isEmpty())
        return std::nullopt;
    for (NcclRasProblem& p : r.problems)
        addVerdict(p);
    return r;
}

// NCCL 2.28.9 leaves the comma out after "nvml_dev": N. Where a line ends with a value and the next begins a
// key, the comma goes back; the lines mended are said.
QByteArray withCommasPutBack(const QByteArray& content, QStringList* where) {
    QList<QByteArray> lines = content.split('\n');
    static const QRegularExpression endsWithValue(QStringLiteral("(\\d|true|false|null|\"|\\}|\\])\\s*$"));
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        qsizetype j = i + 1;
        while (j < lines.size() && lines[j].trimmed().isEmpty())
            ++j;
        if (j < lines.size() && lines[j].trimmed().startsWith('"') &&
            endsWithValue.match(QString::fromUtf8(lines[i])).hasMatch() &&
            !lines[i].trimmed().endsWith(',')) {
            lines[i] = lines[i].trimmed().isEmpty() ? lines[i] : lines[i] + ',';
            *where << QString::number(i + 1);
        }
    }
    return lines.join('\n');
}

NcclRasRank jsonRank(const QJsonObject& o) {
    NcclRasRank k;
    if (o.contains("rank"))
        k.rank = o.value("rank").toInt();
    k.host = o.value("host").toString();
    if (o.contains("pid"))
        k.pid = o.value("pid").toInteger();
    if (o.contains("cuda_dev"))
        k.gpu = o.value("cuda_dev").toInt();
    if (o.contains("nvml_dev"))
        k.nvmlGpu = o.value("nvml_dev").toInt();
    const QJsonObject s = o.value("status").toObject();
    if (s.value("considered_dead").toBool())
        k.status = QStringLiteral("dead");
    else if (s.value("unresponsive").toBool())
        k.status = QStringLiteral("unresponsive");
    else if (s.value("abort_flag").toBool())
        k.status = QStringLiteral("aborted");
    else if (s.value("async_error").toInt() != 0)
        k.status = QStringLiteral("async error %1").arg(s.value("async_error").toInt());
    const QJsonObject counts = o.value("collective_counts").toObject();
    for (auto it = counts.begin(); it != counts.end(); ++it)
        k.collectiveCounts[it.key()] = it.value().toInteger();
    return k;
}

QString describe(const NcclRasRank& k) {
    QString t =
        k.rank ? QStringLiteral("rank %1").arg(*k.rank) : QStringLiteral("process %1").arg(k.pid.value_or(0));
    if (!k.host.isEmpty())
        t += QStringLiteral(" on %1").arg(k.host);
    if (k.gpu)
        t += QStringLiteral(" (GPU %1)").arg(*k.gpu);
    return t;
}

std::optional<NcclRasReport> readJson(const QByteArray& content, QString* error) {
    NcclRasReport r;
    r.format = QStringLiteral("json");
    QJsonParseError e;
    QJsonDocument doc = QJsonDocument::fromJson(content, &e);
    if (doc.isNull()) {
        QStringList where;
        doc = QJsonDocument::fromJson(withCommasPutBack(content, &where));
        if (doc.isNull() || where.isEmpty()) {
            *error = QStringLiteral("not valid JSON (%1 at byte %2)").arg(e.errorString()).arg(e.offset);
            return std::nullopt;
        }
        r.repaired =
            QStringLiteral("the JSON is not valid (%1 at byte %2; NCCL 2.28.9 leaves out commas): read with "
                           "the comma put back after line %3")
                .arg(e.errorString())
                .arg(e.offset)
                .arg(where.join(QStringLiteral(", ")));
    }
    const QJsonObject root = doc.object();
    if (root.contains("event")) { // the RAS monitor's event
        r.format = QStringLiteral("monitor");
        const QJsonObject peer = root.value("peer").toObject();
        NcclRasProblem p;
        p.kind = root.value("event").toString().left(40);
        NcclRasRank k;
        k.host = peer.value("host").toString();
        k.pid = peer.value("pid").toInteger();
        if (!peer.value("cuda_devs").toArray().isEmpty())
            k.gpu = peer.value("cuda_devs").toArray().first().toInt();
        if (!peer.value("nvml_devs").toArray().isEmpty())
            k.nvmlGpu = peer.value("nvml_devs").toArray().first().toInt();
        k.status = QStringLiteral("dead");
        p.lines
            << QStringLiteral("%1 at %2: %3").arg(p.kind, root.value("timestamp").toString(), describe(k));
        p.ranks.push_back(k);
        r.problems.push_back(p);
        return r;
    }
    if (!root.contains("communicators")) {
        *error = QStringLiteral("JSON without ncclras's \"communicators\"");
        return std::nullopt;
    }
    r.ncclVersion = root.value("nccl_version").toString();
    for (const QJsonValue& cv : root.value("communicators").toArray()) {
        const QJsonObject c = cv.toObject();
        const QString comm = c.value("hash").toString();
        const int size = c.value("size").toInt();
        std::vector<NcclRasRank> ranks, missing;
        for (const QJsonValue& v : c.value("ranks").toArray())
            ranks.push_back(jsonRank(v.toObject()));
        for (const QJsonValue& v : c.value("missing_ranks").toArray())
            missing.push_back(jsonRank(v.toObject()));
        if (!missing.empty()) {
            NcclRasProblem p;
            const bool dead = std::any_of(missing.begin(), missing.end(), [](const NcclRasRank& k) {
                return k.status == QLatin1String("dead");
            });
            p.kind = dead ? QStringLiteral("DEAD") : QStringLiteral("INCOMPLETE");
            p.communicator = comm;
            p.lines << QStringLiteral("Missing communicator data from %1 of %2 ranks")
                           .arg(missing.size())
                           .arg(size);
            for (const NcclRasRank& k : missing)
                p.lines << describe(k) + (k.status.isEmpty() ? QString() : QStringLiteral(": ") + k.status);
            p.ranks = missing;
            r.problems.push_back(p);
        }
        // Collective counts that differ: per operation, the ranks at each count, the smaller groups named.
        std::set<QString> ops;
        for (const NcclRasRank& k : ranks)
            for (const auto& [op, n] : k.collectiveCounts)
                ops.insert(op);
        for (const QString& op : ops) {
            std::map<qint64, std::vector<const NcclRasRank*>> byCount;
            for (const NcclRasRank& k : ranks)
                if (k.collectiveCounts.count(op))
                    byCount[k.collectiveCounts.at(op)].push_back(&k);
            if (byCount.size() < 2)
                continue;
            size_t largest = 0, atLargest = 0;
            for (const auto& [n, list] : byCount)
                largest = std::max(largest, list.size());
            for (const auto& [n, list] : byCount)
                atLargest += list.size() == largest ? 1 : 0;
            NcclRasProblem p;
            p.kind = QStringLiteral("MISMATCH");
            p.communicator = comm;
            p.warning = true;
            p.lines << QStringLiteral("Communicator ranks have different %1 operation counts").arg(op);
            for (const auto& [n, list] : byCount) {
                p.lines
                    << QStringLiteral("%1 ranks have launched up to operation %2").arg(list.size()).arg(n);
                if (list.size() < largest || atLargest > 1) // the outliers; all where no group is the most
                    for (const NcclRasRank* k : list) {
                        NcclRasRank named = *k;
                        named.status = QStringLiteral("launched up to operation %1").arg(n);
                        p.lines << describe(named);
                        p.ranks.push_back(named);
                    }
            }
            addVerdict(p);
            r.problems.push_back(p);
        }
        for (const NcclRasRank& k : ranks)
            if (!k.status.isEmpty())
                r.problems.push_back({QStringLiteral("ERROR"),
                                      comm,
                                      {describe(k) + QStringLiteral(": ") + k.status},
                                      {k},
                                      false,
                                      {}});
    }
    if (const int timeouts = root.value("ras").toObject().value("timeouts_count").toInt(); timeouts > 0)
        r.problems.push_back(
            {QStringLiteral("TIMEOUT"),
             QString(),
             {QStringLiteral("Encountered %1 communication timeouts while gathering communicator data")
                  .arg(timeouts)},
             {},
             true,
             {}});
    return r;
}

} // namespace

bool looksLikeNcclRas(const QByteArray& content) {
    const QByteArray head = content.left(64 * 1024);
    return head.contains("\"communicators\"") || (head.contains("\"event\"") && head.contains("\"peer\"")) ||
           head.contains("Communicators...") || head.contains("PEER_DEAD:") ||
           head.contains("Group     Comms") ||
           ((head.contains("\nErrors\n======") || head.startsWith("Errors\n======")) &&
            (head.contains("INCOMPLETE") || head.contains("DEAD") || head.contains("MISMATCH")));
}

std::optional<NcclRasReport> readNcclRas(const QByteArray& content, QString* error) {
    if (!looksLikeNcclRas(content)) {
        *error = QStringLiteral("not ncclras output");
        return std::nullopt;
    }
    if (content.trimmed().startsWith('{'))
        return readJson(content, error);
    std::optional<NcclRasReport> r = readText(content);
    if (!r)
        *error = QStringLiteral("ncclras text without a version, a communicator table or a problem");
    return r;
}

std::vector<Finding> ncclRasFindings(const NcclRasReport& report) {
    std::vector<Finding> out;
    for (const NcclRasProblem& p : report.problems) {
        QStringList subjects;
        for (const NcclRasRank& k : p.ranks) {
            if (!k.host.isEmpty() && !subjects.contains(k.host))
                subjects << k.host;
            if (k.rank)
                subjects << QStringLiteral("rank %1").arg(*k.rank);
        }
        const bool missing = p.kind.contains(QLatin1String("DEAD")) ||
                             p.kind.contains(QLatin1String("INCOMPLETE")) || p.kind == QLatin1String("ERROR");
        const bool timeout = p.kind == QLatin1String("TIMEOUT");
        const char* code = missing   ? codes::kRasRankMissing
                           : timeout ? codes::kRasTimeout
                                     : codes::kRasMismatch;
        const Severity severity = missing ? Severity::Error : timeout ? Severity::Info : Severity::Warning;
        const QString where =
            p.communicator.isEmpty()
                ? QCoreApplication::translate("rackscope", "the job")
                : QCoreApplication::translate("rackscope", "communicator %1").arg(p.communicator);
        out.push_back(makeFinding(severity, QLatin1String(code), subjects,
                                  {QT_TRANSLATE_NOOP("rackscope", "NCCL RAS: %1 %2: %3"),
                                   {where, p.kind, p.lines.join(QStringLiteral("; "))}},
                                  FindingTarget{}));
    }
    return out;
}

} // namespace rackscope
