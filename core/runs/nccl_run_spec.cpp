#include "nccl_run_spec.h"

#include "model/hostlist.h"

#include <QRegularExpression>

namespace rackscope {

std::optional<qint64> parseByteSize(const QString& text) {
    static const QRegularExpression re(QStringLiteral("^(\\d{1,15})([KMGkmg]?)$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2).toUpper();
    const int shift = unit == QLatin1String("K")   ? 10
                      : unit == QLatin1String("M") ? 20
                      : unit == QLatin1String("G") ? 30
                                                   : 0;
    if (n > (qint64(1) << (62 - shift)))
        return std::nullopt;
    return n << shift;
}

bool setLauncher(NcclRunSpec& spec, const QString& name) {
    if (name == QLatin1String("mpirun"))
        spec.launcher = Launcher::Mpirun;
    else if (name == QLatin1String("srun"))
        spec.launcher = Launcher::Srun;
    else
        return false;
    return true;
}

QString addEnvironment(NcclRunSpec& spec, const QStringList& pairs) {
    for (const QString& kv : pairs) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return kv;
        std::erase_if(spec.environment, [&](const auto& e) { return e.first == kv.left(eq); });
        spec.environment.emplace_back(kv.left(eq), kv.mid(eq + 1));
    }
    return {};
}

QString validateRunSpec(const NcclRunSpec& s) {
    if (s.hosts.isEmpty())
        return QStringLiteral("no hosts to run on");
    static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9._-]+$"));
    for (const QString& h : s.hosts)
        if (!word.match(h).hasMatch())
            return QStringLiteral("'%1' is not a host name").arg(h);
    const auto lo = parseByteSize(s.minBytes), hi = parseByteSize(s.maxBytes);
    if (!lo || !hi)
        return QStringLiteral("sizes are bytes with an optional K, M or G: '%1', '%2'")
            .arg(s.minBytes, s.maxBytes);
    if (*lo > *hi)
        return QStringLiteral("the smallest size %1 is above the largest %2").arg(s.minBytes, s.maxBytes);
    if (s.stepFactor < 2)
        return QStringLiteral("the step factor is at least 2");
    if (s.processesPerHost < 1 || s.gpusPerProcess < 1 || s.iterations < 1 || s.warmupIterations < 0)
        return QStringLiteral("processes per host, GPUs per process and iterations are positive");
    static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    for (const auto& [k, v] : s.environment)
        if (!envName.match(k).hasMatch())
            return QStringLiteral("'%1' is not an environment variable name").arg(k);
    if (!word.match(s.dataType).hasMatch() || !word.match(s.reduction).hasMatch())
        return QStringLiteral("data type and reduction are single words");
    return {};
}

QStringList launchArgv(const NcclRunSpec& s) {
    QString binary = s.binary.isEmpty() ? collectiveBinary(s.collective) : s.binary;
    if (!s.binaryDir.isEmpty() && !binary.contains(QLatin1Char('/')))
        binary = s.binaryDir + QLatin1Char('/') + binary;
    const QStringList tests{binary,
                            QStringLiteral("-b"),
                            s.minBytes,
                            QStringLiteral("-e"),
                            s.maxBytes,
                            QStringLiteral("-f"),
                            QString::number(s.stepFactor),
                            QStringLiteral("-g"),
                            QString::number(s.gpusPerProcess),
                            QStringLiteral("-n"),
                            QString::number(s.iterations),
                            QStringLiteral("-w"),
                            QString::number(s.warmupIterations),
                            QStringLiteral("-d"),
                            s.dataType,
                            QStringLiteral("-o"),
                            s.reduction,
                            QStringLiteral("-c"),
                            s.check ? QStringLiteral("1") : QStringLiteral("0")};
    const int ranks = int(s.hosts.size()) * s.processesPerHost;
    QStringList argv;
    if (s.launcher == Launcher::Mpirun) {
        QStringList hostSlots;
        for (const QString& h : s.hosts)
            hostSlots << QStringLiteral("%1:%2").arg(h).arg(s.processesPerHost);
        argv << QStringLiteral("mpirun") << QStringLiteral("--host") << hostSlots.join(QLatin1Char(','))
             << QStringLiteral("-np") << QString::number(ranks) << QStringLiteral("-N")
             << QString::number(s.processesPerHost) << QStringLiteral("--bind-to") << QStringLiteral("none");
        for (const auto& [k, v] : s.environment)
            argv << QStringLiteral("-x") << k + QLatin1Char('=') + v;
        argv << s.launcherArgs;
    } else {
        // srun passes the launcher's environment on (--export=ALL), so the variables go in front.
        if (!s.environment.empty()) {
            argv << QStringLiteral("env");
            for (const auto& [k, v] : s.environment)
                argv << k + QLatin1Char('=') + v;
        }
        argv << QStringLiteral("srun") << QStringLiteral("--nodes=%1").arg(s.hosts.size())
             << QStringLiteral("--ntasks-per-node=%1").arg(s.processesPerHost)
             << QStringLiteral("--nodelist=") + compressHostlist(s.hosts) << QStringLiteral("--mpi=pmix")
             << QStringLiteral("--export=ALL") << s.launcherArgs;
    }
    return argv + tests;
}

} // namespace rackscope
