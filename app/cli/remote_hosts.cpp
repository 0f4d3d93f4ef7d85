#include "remote_hosts.h"

#include "import/input_file.h"
#include "model/hostlist.h"
#include "rackscope_version.h"
#include "transport/local_agent.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <cstdio>
#include <termios.h>
#include <unistd.h>

namespace rackscope::cli {
namespace {

// Asked on the terminal with echo off; nothing is kept.
std::optional<QString> askOnTerminal(const QString& prompt, const std::atomic<bool>*) {
    if (!::isatty(STDIN_FILENO))
        return std::nullopt;
    fprintf(stderr, "%s ", qPrintable(prompt));
    termios old{};
    tcgetattr(STDIN_FILENO, &old);
    termios quiet = old;
    quiet.c_lflag &= ~tcflag_t(ECHO);
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    char buf[1024] = {};
    const bool got = fgets(buf, sizeof buf, stdin) != nullptr;
    tcsetattr(STDIN_FILENO, TCSANOW, &old);
    fputc('\n', stderr);
    if (!got)
        return std::nullopt;
    QString answer = QString::fromUtf8(buf).chopped(QByteArray(buf).endsWith('\n') ? 1 : 0);
    memset(buf, 0, sizeof buf);
    return answer;
}

} // namespace

FleetTarget fleetFromOptions(const QCommandLineParser& parser, const RemoteOptions& o, int timeoutS,
                             int concurrency) {
    FleetTarget t;
    if (parser.isSet(o.hosts)) {
        const HostlistResult r = expandHostlist(parser.value(o.hosts));
        if (!r.error.isEmpty())
            return t.error = QStringLiteral("--hosts: ") + r.error, t;
        t.hosts = r.hosts;
    }
    if (parser.isSet(o.hostsFile)) {
        const QString file = parser.value(o.hostsFile);
        QByteArray text;
        if (const QString why = readBoundedFile(file, 16 << 20, &text); !why.isEmpty())
            return t.error = QStringLiteral("--hosts-file: cannot read %1: %2").arg(file, why), t;
        const HostlistResult r = parseHostsFile(QString::fromUtf8(text));
        if (!r.error.isEmpty())
            return t.error = QStringLiteral("--hosts-file %1: %2").arg(file, r.error), t;
        for (const QString& h : r.hosts)
            if (!t.hosts.contains(h))
                t.hosts << h;
    }
    FleetOptions& fo = t.options;
    const QString config = parser.isSet(o.sshConfig) ? parser.value(o.sshConfig)
                                                     : QDir::homePath() + QStringLiteral("/.ssh/config");
    fo.config = SshConfig::fromFile(config);
    fo.ssh.knownHostsFile = parser.value(o.knownHosts);
    fo.ssh.unknownKeys = parser.isSet(o.acceptNew) ? UnknownHostKeys::AcceptNew : UnknownHostKeys::Refuse;
    fo.ssh.askPassword = askOnTerminal;
    fo.ssh.connectTimeoutMs = fo.ssh.authTimeoutMs = fo.requestTimeoutMs = timeoutS * 1000;
    fo.deploy.timeoutMs = timeoutS * 1000;
    fo.concurrency = concurrency;
    const auto agent = loadAgentBinary(findLocalAgent(), QStringLiteral(RACKSCOPE_VERSION), &t.error);
    if (agent)
        fo.agent = *agent;
    return t;
}

RemoteAnswers askHosts(const QCommandLineParser& parser, const RemoteOptions& o, const QString& method,
                       const QJsonObject& params, int longerS) {
    bool ok = false;
    const int timeoutS = parser.value(o.timeout).toInt(&ok);
    if (!ok || timeoutS <= 0)
        return {{}, QStringLiteral("--timeout takes a number of seconds")};
    const int concurrency = parser.value(o.concurrency).toInt(&ok);
    if (!ok || concurrency <= 0)
        return {{}, QStringLiteral("--concurrency takes a positive number")};
    FleetTarget target = fleetFromOptions(parser, o, timeoutS + longerS, concurrency);
    if (!target.error.isEmpty())
        return {{}, target.error};
    const QStringList hosts = target.hosts;
    FleetOptions fo = std::move(target.options);

    Fleet fleet(std::move(fo));
    std::map<QString, HostResult> byHost;
    QEventLoop loop;
    QObject::connect(&fleet, &Fleet::hostFinished, &loop, [&](const HostResult& r) {
        byHost[r.host] = r;
        if (parser.isSet(o.verbose)) {
            QStringList stages;
            for (const StageTime& s : r.stages)
                stages << QStringLiteral("%1 %2 s (%3 round trip%4)")
                              .arg(stageName(s.stage))
                              .arg(s.seconds, 0, 'f', 3)
                              .arg(s.roundTrips)
                              .arg(s.roundTrips == 1 ? "" : "s");
            fprintf(stderr, "%s: %s%s%s\n", qPrintable(r.host), qPrintable(stages.join(QStringLiteral(", "))),
                    r.deployed.isEmpty() ? "" : qPrintable(QStringLiteral(" (agent %1)").arg(r.deployed)),
                    r.reused ? " (connection reused)" : "");
        }
        if (r.error)
            fprintf(stderr, "rackscope-cli: %s: %s: %s\n", qPrintable(r.host),
                    qPrintable(stageName(r.error->stage)), qPrintable(r.error->message));
    });
    QObject::connect(&fleet, &Fleet::finished, &loop, &QEventLoop::quit);
    fleet.request(hosts, method, params);
    loop.exec();
    RemoteAnswers out;
    for (const QString& h : hosts)
        out.results.push_back(byHost[h]);
    return out;
}

} // namespace rackscope::cli
