#include "nccl_tests_output.h"

#include "import/launcher_prefix.h"

#include <QRegularExpression>
#include <QVarLengthArray>
#include <algorithm>
#include <cstring>
#include <span>

namespace rackscope {
namespace {

// #  Rank  0 Group  0 Pid   6899 on ztan-mig-235z device  0 [0000:04:00] NVIDIA H100 80GB HBM3
// #   Rank  0 Pid    195 on 2e3f9af7... device  0 [0x00] Tesla K80
const QRegularExpression
    kRank(QStringLiteral("^#\\s*Rank\\s+(\\d+)\\s+(?:Group\\s+(\\d+)\\s+)?Pid\\s+(\\d+)\\s+on\\s+(\\S+)\\s+"
                         "device\\s+(\\d+)\\s+\\[([^\\]]*)\\]\\s*(.*)$"));
const QRegularExpression kHeaderPair(QStringLiteral(
    "(nThread|nGpus|minBytes|maxBytes|step:|warmup iters:|iters:|agg iters:|validation:|graph:)\\s*(\\S+)"));

std::optional<double> number(QStringView s) {
    bool ok = false;
    const double v = s.toDouble(&ok);
    return ok ? std::optional(v) : std::nullopt;
}

// The oldest nccl-tests printed its header and footer without the leading "#".
bool bareHeaderLine(const QString& text) {
    static const QRegularExpression bare(QStringLiteral(
        "^(nThread\\b|Using devices|Rank\\s+\\d+\\s|size\\s.*busbw|\\(B\\)|Out of bounds values|"
        "Avg bus bandwidth|Reducing maxBytes|out-of-place\\s)"));
    return bare.match(text).hasMatch();
}

} // namespace

qint64 NcclTestsRun::wrongTotal() const {
    qint64 total = 0;
    for (const NcclTestsRow& r : rows)
        total += r.outOfPlace.wrong.value_or(0) + r.inPlace.wrong.value_or(0);
    return total;
}

void NcclTestsParser::lines(const char* data, qsizetype size, qsizetype* consumed) {
    qsizetype start = 0;
    for (const char* nl;
         (nl = static_cast<const char*>(std::memchr(data + start, '\n', size_t(size - start))));
         start = nl - data + 1)
        line(QString::fromUtf8(data + start, nl - data - start));
    *consumed = start;
}

void NcclTestsParser::feed(const QByteArray& bytes) {
    qsizetype used = 0;
    if (pending_.isEmpty()) { // read in place: a whole file is not copied first
        lines(bytes.constData(), bytes.size(), &used);
        pending_ = bytes.mid(used);
    } else {
        pending_ += bytes;
        lines(pending_.constData(), pending_.size(), &used);
        pending_.remove(0, used);
    }
    if (pending_.size() > (1 << 20)) { // no nccl-tests line is this long
        run_.diagnostics.push_back({lineNo_ + 1, QString::fromUtf8(pending_.left(120)),
                                    QStringLiteral("a line longer than 1 MiB, skipped")});
        pending_.clear();
    }
}

void NcclTestsParser::finish() {
    if (!pending_.isEmpty())
        line(QString::fromUtf8(pending_));
    pending_.clear();
}

void NcclTestsParser::line(const QString& raw) {
    ++lineNo_;
    QString source; // who printed it, where a launcher says so
    QString text = withoutLauncherPrefix(raw, &source).trimmed();
    if (text.isEmpty() || text == QLatin1String("#"))
        return;
    if (bareHeaderLine(text))
        text.prepend(QLatin1String("# "));
    auto diag = [&](const QString& message) {
        run_.diagnostics.push_back({lineNo_, text.left(200), message});
    };
    if (text.contains(QLatin1String("NCCL INFO")) || text.contains(QLatin1String("NCCL WARN"))) {
        if (run_.ncclInfo.size() < 100000)
            run_.ncclInfo << text;
        return;
    }
    if (text.startsWith(QLatin1String("NCCL version"))) {
        run_.ncclVersion = text.section(QLatin1Char(' '), 2, 2);
        return;
    }
    if (text.startsWith(QLatin1Char('#'))) {
        if (text.contains(QLatin1String("nThread"))) {
            for (auto it = kHeaderPair.globalMatch(text); it.hasNext();) {
                const auto m = it.next();
                QString key = m.captured(1);
                if (key.endsWith(QLatin1Char(':')))
                    key.chop(1);
                run_.header[key] = m.captured(2);
            }
        } else if (const auto m = kRank.match(text); m.hasMatch()) {
            if (std::any_of(run_.ranks.begin(), run_.ranks.end(),
                            [&](const NcclTestsRank& r) { return r.rank == m.captured(1).toInt(); }))
                return; // the header again, printed by another rank
            NcclTestsRank r;
            r.rank = m.captured(1).toInt();
            if (!m.captured(2).isEmpty())
                r.group = m.captured(2).toInt();
            r.pid = m.captured(3).toLongLong();
            r.host = m.captured(4);
            r.device = m.captured(5).toInt();
            r.pci = m.captured(6);
            r.gpu = m.captured(7).trimmed();
            run_.ranks.push_back(r);
        } else if (text.contains(QLatin1String("size")) && text.contains(QLatin1String("busbw"))) {
            columnsSeen_ = true;
            run_.errorColumn = text.contains(QLatin1String(" error"));
            run_.rootColumn = text.contains(QLatin1String(" root"));
        } else if (text.startsWith(QLatin1String("# Out of bounds values"))) {
            run_.outOfBounds =
                text.section(QLatin1Char(':'), 1).trimmed().section(QLatin1Char(' '), 0, 0).toLongLong();
        } else if (text.startsWith(QLatin1String("# Avg bus bandwidth"))) {
            run_.avgBusbw = number(text.section(QLatin1Char(':'), 1).trimmed());
        }
        return; // other comment lines ("Using devices", units, column groups) carry nothing more
    }
    // A result row: size count type [redop] [root], then time algbw busbw wrong for out-of-place and
    // in-place. Split by hand: a regular expression per row is most of the time of a sweep of a million rows.
    QVarLengthArray<QStringView, 16> w;
    for (qsizetype i = 0; i < text.size() && w.size() <= 13;) {
        while (i < text.size() && text[i].isSpace())
            ++i;
        const qsizetype from = i;
        while (i < text.size() && !text[i].isSpace())
            ++i;
        if (i > from)
            w.append(QStringView(text).mid(from, i - from));
    }
    if (w.size() < 11 || w.size() > 13)
        return diag(QStringLiteral("not an nccl-tests line"));
    NcclTestsRow row;
    row.line = lineNo_;
    bool okSize = false, okCount = false;
    row.size = w[0].toLongLong(&okSize);
    row.count = w[1].toLongLong(&okCount);
    // Every row of a run has the same type and operation: share the previous row's strings.
    const auto shared = [&](QStringView v, const QString NcclTestsRow::*field) {
        return !run_.rows.empty() && run_.rows.back().*field == v ? run_.rows.back().*field : v.toString();
    };
    row.type = shared(w[2], &NcclTestsRow::type);
    if (!okSize || !okCount || row.size < 0)
        return diag(QStringLiteral("not an nccl-tests line"));
    const std::span<const QStringView> extra(w.data() + 3, size_t(w.size() - 11)); // redop and/or root
    if (extra.size() == 2) {
        row.redop = shared(extra[0], &NcclTestsRow::redop);
        row.root = extra[1].toInt();
    } else if (extra.size() == 1) {
        bool isInt = false;
        const int v = extra[0].toInt(&isInt);
        if (run_.rootColumn && isInt)
            row.root = v;
        else
            row.redop = shared(extra[0], &NcclTestsRow::redop);
    }
    auto pass = [&](int at, NcclTestsPass* p) {
        const auto t = number(w[at]), a = number(w[at + 1]), b = number(w[at + 2]);
        if (!t || !a || !b)
            return false;
        p->timeUs = *t;
        p->algbw = *a;
        p->busbw = *b;
        const QStringView check = w[at + 3];
        if (check == QLatin1String("N/A"))
            return true;
        if (run_.errorColumn) {
            p->maxError = number(check);
            return p->maxError.has_value();
        }
        bool ok = false;
        p->wrong = check.toLongLong(&ok);
        return ok;
    };
    const int first = int(w.size()) - 8;
    if (!pass(first, &row.outOfPlace) || !pass(first + 4, &row.inPlace))
        return diag(QStringLiteral("a result row whose numbers cannot be read"));
    if (run_.rows.empty())
        tableSource_ = source;
    else if (source != tableSource_)
        return; // the same table printed by another rank: the first one's is kept
    if (!columnsSeen_)
        run_.rootColumn = run_.rootColumn || extra.size() == 2; // a table pasted without its header
    run_.rows.push_back(row);
    if (onRow)
        onRow(run_.rows.back());
}

NcclTestsRun parseNcclTestsOutput(const QByteArray& text) {
    NcclTestsParser p;
    p.feed(text);
    p.finish();
    return p.take();
}

} // namespace rackscope
