#include "torch_watchdog.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <algorithm>
#include <set>

namespace rackscope {
namespace {

// "[Rank 3]", "[PG 1 Rank 0]", "[PG ID 0 PG GUID 0(default_pg) Rank 1]"
const QRegularExpression
    kWho(QStringLiteral("\\[(?:PG (?:ID )?(\\S+)(?: PG GUID (\\S+))? )?Rank (\\d+)\\] "));
const QRegularExpression kWork(QStringLiteral("WorkNCCL\\(([^()]*(?:\\([^()]*\\)[^()]*)*)\\)"));
const QRegularExpression kRanFor(QStringLiteral("ran for (\\d+) milliseconds"));
// PyTorch 2.x "... detected by watchdog at work: 808, last enqueued NCCL work: 811, last completed NCCL work:
// 807", 2.7+ "failure detected by watchdog at work sequence id: 2398459 PG status: last enqueued work:
// 2398578, last completed work: 2398458".
const QRegularExpression kProgress(QStringLiteral(
    "detected by watchdog at work(?: sequence id)?: (\\d+),? (?:PG status: )?last enqueued (?:NCCL )?"
    "work: (\\d+), last completed (?:NCCL )?work: (\\d+)"));
const QRegularExpression kAsync(QStringLiteral("raised the following async exception: (.*)$"));
const QRegularExpression kPeer(QStringLiteral("Connection closed by remote peer (\\S+?)(?:<\\d+>)?\\s*$"));

std::optional<qint64> number(const QString& text) {
    bool ok = false;
    const qint64 v = text.toLongLong(&ok);
    return ok ? std::optional<qint64>(v) : std::nullopt;
}

// "SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000"
void readWork(const QString& fields, TorchWorkFailure& f) {
    for (const QString& pair : fields.split(QLatin1Char(','))) {
        const QString key = pair.section(QLatin1Char('='), 0, 0).trimmed(),
                      value = pair.section(QLatin1Char('='), 1).trimmed();
        if (key == QLatin1String("SeqNum"))
            f.seqNum = number(value);
        else if (key == QLatin1String("OpType"))
            f.opType = value.left(64);
        else if (key == QLatin1String("NumelIn"))
            f.numelIn = number(value);
        else if (key == QLatin1String("NumelOut"))
            f.numelOut = number(value);
        else if (key == QLatin1String("Timeout(ms)"))
            f.timeoutMs = number(value);
    }
}

QString groupOf(const QRegularExpressionMatch& who) {
    return who.captured(2).isEmpty() ? who.captured(1) : who.captured(2);
}

} // namespace

QString rankRanges(std::vector<int> ranks) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    QStringList parts;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        parts << (j == i ? QString::number(ranks[i]) : QStringLiteral("%1-%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

TorchWatchdog readTorchWatchdog(const QStringList& lines) {
    TorchWatchdog w;
    constexpr size_t kMaxKept = 10000; // of each kind: a log of more ranks' lines keeps its first
    std::set<std::tuple<int, QString, qint64, int>> seen;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (const auto p = kPeer.match(line); p.hasMatch()) {
            if (!w.remotePeers.contains(p.captured(1)) && w.remotePeers.size() < 256)
                w.remotePeers << p.captured(1);
            continue;
        }
        if (!line.contains(QLatin1String("ProcessGroupNCCL")) && !line.contains(QLatin1String("WorkNCCL(")))
            continue;
        const auto who = kWho.match(line);
        if (!who.hasMatch())
            continue;
        if (const auto g = kProgress.match(line); g.hasMatch()) {
            ++w.lines;
            if (w.progress.size() < kMaxKept)
                w.progress.push_back({who.captured(3).toInt(), groupOf(who), g.captured(1).toLongLong(),
                                      g.captured(2).toLongLong(), g.captured(3).toLongLong()});
            continue;
        }
        const auto work = kWork.match(line);
        if (!work.hasMatch())
            continue;
        TorchWorkFailure f;
        f.rank = who.captured(3).toInt();
        f.processGroup = groupOf(who);
        readWork(work.captured(1), f);
        if (line.contains(QLatin1String("Watchdog caught collective operation timeout"))) {
            f.kind = TorchWorkFailure::Kind::Timeout;
            if (const auto r = kRanFor.match(line); r.hasMatch())
                f.ranForMs = number(r.captured(1));
        } else if (const auto a = kAsync.match(line); a.hasMatch()) {
            f.kind = TorchWorkFailure::Kind::AsyncError;
            f.error = a.captured(1).trimmed().left(400);
            // The exception's name comes on the lines after (its message spans several).
            for (qsizetype k = i + 1; k < lines.size() && k <= i + 3; ++k)
                if (lines[k].startsWith(QLatin1String("ncclRemoteError")))
                    f.remoteError = true;
            f.remoteError = f.remoteError || f.error.contains(QLatin1String("remote process exited"));
        } else {
            continue;
        }
        ++w.lines;
        // A rank's line about a collective, once (a log pasted twice, or two handlers saying it).
        if (seen.insert({f.rank, f.processGroup, f.seqNum.value_or(-1), int(f.kind)}).second &&
            w.failures.size() < kMaxKept)
            w.failures.push_back(f);
    }
    return w;
}

std::vector<Finding> torchWatchdogFindings(const TorchWatchdog& w) {
    std::vector<Finding> out;
    // Per collective (process group, sequence number, operation, kind): the ranks that said so.
    std::map<std::tuple<QString, qint64, QString, int>, std::vector<const TorchWorkFailure*>> byWork;
    for (const TorchWorkFailure& f : w.failures)
        byWork[{f.processGroup, f.seqNum.value_or(-1), f.opType, int(f.kind)}].push_back(&f);
    for (const auto& [key, failures] : byWork) {
        const TorchWorkFailure& first = *failures.front();
        std::vector<int> ranks;
        for (const TorchWorkFailure* f : failures)
            ranks.push_back(f->rank);
        const QString ranksText = rankRanges(ranks);
        const QString seq = first.seqNum ? QString::number(*first.seqNum) : QStringLiteral("?");
        const QString group =
            first.processGroup.isEmpty()
                ? QString()
                : QCoreApplication::translate("rackscope", " of process group %1").arg(first.processGroup);
        QStringList subjects;
        for (int r : ranks)
            subjects << QStringLiteral("rank %1").arg(r);
        if (first.kind == TorchWorkFailure::Kind::Timeout) {
            out.push_back(makeFinding(
                Severity::Error, QLatin1String(codes::kTorchCollectiveTimeout), subjects,
                {QT_TRANSLATE_NOOP(
                     "rackscope",
                     "%1 (SeqNum %2%3) timed out on ranks %4 after %5 ms: a rank that never "
                     "joined it, or a link that stalled, holds the others; the ranks that did not "
                     "time out are the ones to look at"),
                 {first.opType, seq, group, ranksText,
                  first.timeoutMs ? QString::number(*first.timeoutMs) : QStringLiteral("?")}},
                FindingTarget{}));
        } else {
            const QString peers =
                w.remotePeers.isEmpty()
                    ? QCoreApplication::translate("rackscope", "the log names no peer")
                    : QCoreApplication::translate("rackscope", "NCCL said %1 closed the connection")
                          .arg(w.remotePeers.join(QStringLiteral(", ")));
            out.push_back(makeFinding(
                Severity::Error,
                QLatin1String(first.remoteError ? codes::kTorchRemoteError : codes::kTorchCollectiveTimeout),
                subjects + w.remotePeers,
                {QT_TRANSLATE_NOOP("rackscope", "%1 (SeqNum %2%3) failed on ranks %4: %5; %6"),
                 {first.opType, seq, group, ranksText, first.error, peers}},
                FindingTarget{}));
        }
    }
    // A rank whose last completed collective is behind the others' in its process group.
    std::map<QString, std::vector<const TorchWatchdogProgress*>> byGroup;
    for (const TorchWatchdogProgress& p : w.progress)
        byGroup[p.processGroup].push_back(&p);
    for (const auto& [group, list] : byGroup) {
        qint64 best = 0;
        for (const TorchWatchdogProgress* p : list)
            best = std::max(best, p->lastCompleted);
        std::vector<int> behind;
        for (const TorchWatchdogProgress* p : list)
            if (p->lastCompleted < best)
                behind.push_back(p->rank);
        if (behind.empty())
            continue;
        QStringList subjects;
        for (int r : behind)
            subjects << QStringLiteral("rank %1").arg(r);
        out.push_back(makeFinding(
            Severity::Warning, QLatin1String(codes::kTorchRankBehind), subjects,
            {QT_TRANSLATE_NOOP("rackscope", "ranks %1 of process group %2 had completed fewer collectives "
                                            "than the others (the others: up to %3): they were behind "
                                            "before the timeout"),
             {rankRanges(behind), group, QString::number(best)}},
            FindingTarget{}));
    }
    return out;
}

} // namespace rackscope
