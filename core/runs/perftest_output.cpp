#include "perftest_output.h"

#include "statistics.h"

#include <QRegularExpression>
#include <algorithm>

namespace rackscope {
namespace {

constexpr qsizetype kMaxText = 16 << 20;

// Lines perftest prints when it gives up; the first one is its reason.
bool isFailureLine(const QString& line) {
    static const QRegularExpression re(
        QStringLiteral("^(Couldn't |Couldnt |Unable to |Failed to |No IB devices|IB device \\S+ not found|"
                       "\\w+ failed\\b)"));
    return re.match(line).hasMatch();
}

void readHeaderPairs(const QString& line, PerftestRun& run) {
    // "Number of qps   : 16\t\tTransport type : IB": keys and values may hold single spaces.
    static const QRegularExpression pair(
        QStringLiteral("([A-Za-z][\\w*.\\-]*(?: [\\w*.\\-]+)*)\\s*:\\s*(\\S+(?: \\S+)*)"));
    for (auto it = pair.globalMatch(line); it.hasNext();) {
        const auto m = it.next();
        const QString key = m.captured(1), value = m.captured(2);
        bool ok = false;
        if (key == QLatin1String("Device"))
            run.device = value;
        else if (key == QLatin1String("Link type"))
            run.linkType = value;
        else if (key == QLatin1String("Number of qps")) {
            if (const int v = value.toInt(&ok); ok)
                run.qps = v;
        } else if (key == QLatin1String("Mtu")) {
            if (const int v = QString(value).remove(QLatin1String("[B]")).toInt(&ok); ok)
                run.mtu = v;
        } else if (key == QLatin1String("GID index")) {
            if (const int v = value.toInt(&ok); ok)
                run.gidIndex = v;
        }
    }
}

std::optional<PerftestRow> readRow(const QString& line) {
    const QStringList f = line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    if (f.size() < 4)
        return std::nullopt;
    PerftestRow r;
    bool ok1 = false, ok2 = false, ok3 = false, ok4 = false;
    r.bytes = f[0].toLongLong(&ok1);
    r.iterations = f[1].toLongLong(&ok2);
    const double peak = f[2].toDouble(&ok3);
    r.average = f[3].toDouble(&ok4);
    if (!ok1 || !ok2 || !ok3 || !ok4 || r.bytes <= 0 || r.iterations < 0 || peak < 0 || r.average < 0)
        return std::nullopt;
    if (peak > 0)
        r.peak = peak;
    if (f.size() >= 5) {
        bool ok = false;
        if (const double rate = f[4].toDouble(&ok); ok && rate >= 0)
            r.messageRateMpps = rate;
    }
    return r;
}

} // namespace

double PerftestRun::gbps(double value) const {
    return unit == QLatin1String("MB/sec") ? value * 1048576.0 * 8 / 1e9 : value;
}

std::optional<qint64> PerftestRun::largestBytes() const {
    if (rows.empty())
        return std::nullopt;
    return std::max_element(rows.begin(), rows.end(),
                            [](const PerftestRow& a, const PerftestRow& b) { return a.bytes < b.bytes; })
        ->bytes;
}

std::optional<double> PerftestRun::averageGbps() const {
    const auto largest = largestBytes();
    if (!largest)
        return std::nullopt;
    std::vector<double> values;
    for (const PerftestRow& r : rows)
        if (r.bytes == *largest)
            values.push_back(r.average);
    return gbps(*median(values)); // the largest size has a row
}

std::optional<PerftestRun> readPerftestOutput(const QByteArray& text, QString* error) {
    if (text.size() > kMaxText) {
        *error = QStringLiteral("%1 bytes is more than perftest prints (at most %2 read)")
                     .arg(text.size())
                     .arg(kMaxText);
        return std::nullopt;
    }
    PerftestRun run;
    bool inTable = false, sawPerftest = false;
    QString cudaPicked, cudaName;
    QStringList cudaAddress; // by CUDA device number
    for (QString line : QString::fromUtf8(text).split(QLatin1Char('\n'))) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1String("---")) || line.startsWith(QLatin1Char('*')))
            continue;
        static const QRegularExpression banner(QStringLiteral("^(\\w[\\w ]*) BW Test$"));
        if (const auto m = banner.match(line); m.hasMatch()) {
            run.test = line;
            sawPerftest = true;
            continue;
        }
        static const QRegularExpression tableHead(QStringLiteral("^#bytes\\s.*BW average\\[([^\\]]+)\\]"));
        if (const auto m = tableHead.match(line); m.hasMatch()) {
            const QString unit = m.captured(1);
            if (unit != QLatin1String("Gb/sec") && unit != QLatin1String("MB/sec")) {
                *error = QStringLiteral("the table's bandwidth is in %1, a unit perftest does not print")
                             .arg(unit);
                return std::nullopt;
            }
            if (!run.unit.isEmpty() && run.unit != unit) {
                *error = QStringLiteral("the output mixes tables in %1 and %2").arg(run.unit, unit);
                return std::nullopt;
            }
            run.unit = unit;
            inTable = sawPerftest = true;
            continue;
        }
        if (inTable && line.front().isDigit()) {
            if (auto row = readRow(line))
                run.rows.push_back(*row);
            continue;
        }
        if (line.startsWith(QLatin1String("WARNING:"))) {
            run.warnings << line.mid(8).trimmed();
            continue;
        }
        if (line.startsWith(QLatin1String("Requested mtu is higher than active mtu"))) {
            run.warnings << QStringLiteral("the requested MTU is higher than the port's active MTU: "
                                           "perftest used the active MTU");
            continue;
        }
        static const QRegularExpression cudaDev(
            QStringLiteral("^CUDA device (\\d+): PCIe address is (\\S+)"));
        if (const auto m = cudaDev.match(line); m.hasMatch()) {
            const int i = m.captured(1).toInt();
            if (i >= 0 && i < 1024) {
                while (cudaAddress.size() <= i)
                    cudaAddress << QString();
                cudaAddress[i] = m.captured(2);
            }
            continue;
        }
        static const QRegularExpression picked(QStringLiteral("^Picking device No\\. (\\d+)"));
        if (const auto m = picked.match(line); m.hasMatch()) {
            cudaPicked = m.captured(1);
            continue;
        }
        static const QRegularExpression name(QStringLiteral("device name = \\[([^\\]]*)\\]"));
        if (const auto m = name.match(line); m.hasMatch()) {
            cudaName = m.captured(1);
            continue;
        }
        if (line.contains(QLatin1String(" : ")) || line.contains(QLatin1String("\t:"))) {
            readHeaderPairs(line, run);
            continue;
        }
        if (run.failure.isEmpty() && isFailureLine(line))
            run.failure = line;
    }
    if (!cudaName.isEmpty() || !cudaPicked.isEmpty()) {
        const int i = cudaPicked.toInt();
        run.cudaDevice = cudaName.isEmpty() ? QStringLiteral("CUDA device %1").arg(cudaPicked) : cudaName;
        if (i >= 0 && i < cudaAddress.size() && !cudaAddress[i].isEmpty())
            run.cudaDevice += QStringLiteral(" at PCIe ") + cudaAddress[i];
    }
    if (!sawPerftest && run.failure.isEmpty()) {
        *error = QStringLiteral("not perftest output: no \"BW Test\" banner and no result table");
        return std::nullopt;
    }
    if (run.rows.empty()) {
        *error =
            run.failure.isEmpty()
                ? QStringLiteral("perftest printed no result row (cut short, or it stopped without a reason)")
                : QStringLiteral("perftest stopped without a result: %1").arg(run.failure);
        return std::nullopt;
    }
    return run;
}

} // namespace rackscope
