// rackscope-cli nccl-ras: asks a running job's NCCL RAS service (on any node of the job) which ranks are
// missing, dead, unresponsive or behind, once or every few seconds, and places them on the servers, GPUs
// and fabric that the files and --hosts given show. The RAS port is reached through the node's SSH
// connection (nothing listens here), or directly on this machine.
#include "nccl_ras_command.h"

#include "interrupts.h"
#include "job/ras_json.h"
#include "job/ras_watch.h"
#include "server_inputs.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {
namespace {

QJsonObject snapshotJson(const RasSnapshot& s, const QString& where, const RasVerdict* verdict) {
    QJsonObject o{{"at", s.at.toString(Qt::ISODateWithMs)},
                  {"seconds", s.seconds},
                  {"service", where},
                  {"notes", QJsonArray::fromStringList(s.answer.notes)}};
    if (!s.answer.error.isEmpty())
        o.insert("error", s.answer.error);
    if (s.answer.report)
        o.insert("report", rasReportJson(*s.answer.report));
    if (verdict)
        o.insert("verdict", rasVerdictJson(*verdict));
    return o;
}

void printSnapshot(QTextStream& out, const RasSnapshot& s, const QString& where, const RasVerdict* verdict,
                   bool stamped) {
    const QString stamp = stamped ? s.at.toString(QStringLiteral("[HH:mm:ss] ")) : QString();
    if (!s.answer.error.isEmpty()) {
        out << stamp << "NCCL RAS at " << where << ": " << s.answer.error << "\n";
        return;
    }
    const NcclRasReport& r = *s.answer.report;
    out << stamp << "NCCL RAS at " << where << ": "
        << (r.ncclVersion.isEmpty() ? QString() : QStringLiteral("NCCL %1, ").arg(r.ncclVersion)) << r.format
        << " report in " << QString::number(s.seconds, 'f', 2) << " s\n";
    for (const QString& n : s.answer.notes)
        out << "  note: " << n << "\n";
    if (!r.repaired.isEmpty())
        out << "  note: " << r.repaired << "\n";
    for (const NcclRasReport::Group& g : r.groups)
        out << "  group " << g.group << ": " << g.comms << " communicators of " << g.ranksPerComm
            << " ranks, " << g.status << " " << g.errors << "\n";
    for (const NcclRasProblem& p : r.problems) {
        out << "  " << (p.warning ? "warning " : "error ") << p.kind
            << (p.communicator.isEmpty() ? QString() : QStringLiteral(" in ") + p.communicator) << ": "
            << p.lines.value(0) << "\n";
    }
    if (!verdict)
        return;
    if (verdict->healthy()) {
        out << "Verdict: no rank is missing, dead, unresponsive or behind"
            << (r.problems.empty() ? "" : " (see the notes above)") << "\n";
        return;
    }
    out << "Verdict:\n";
    for (const RasGroupVerdict& g : verdict->groups) {
        out << "  " << (g.severe ? "[error] " : "[warning] ") << g.text << "\n";
        for (const QString& n : g.next)
            out << "      next: " << n << "\n";
    }
}

} // namespace

int runNcclRas(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Asks a running NCCL job's RAS service (NCCL 2.24 and later, port 28028 on every node of the job) "
        "which ranks are missing, dead, unresponsive or behind on a collective, and places them on the "
        "servers, GPUs and fabric shown by FILE... and --hosts. The port is reached through the node's SSH "
        "connection; on this machine (localhost), directly."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("nccl-ras"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("Topology files, sessions, snapshots and fabric sources to "
                                                "place the ranks on."),
                                 QStringLiteral("[FILE...]"));
    const QCommandLineOption host(QStringLiteral("host"),
                                  QStringLiteral("A node of the job (an SSH host, or localhost)."),
                                  QStringLiteral("H"));
    const QCommandLineOption port(QStringLiteral("port"),
                                  QStringLiteral("The RAS port there (NCCL_RAS_ADDR; default 28028)."),
                                  QStringLiteral("PORT"), QString::number(kNcclRasPort));
    const QCommandLineOption verbose(QStringLiteral("verbose"),
                                     QStringLiteral("VERBOSE STATUS: every rank, not only the outliers (and "
                                                    "the SSH stages on stderr)."));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("JSON; with --watch, one object per line."));
    const QCommandLineOption watch(QStringLiteral("watch"),
                                   QStringLiteral("Ask again every S seconds until interrupted."),
                                   QStringLiteral("S"));
    const QCommandLineOption text(QStringLiteral("text"),
                                  QStringLiteral("Ask for NCCL's text report even where it speaks JSON."));
    parser.addOptions({host, port, verbose, json, watch, text});
    RemoteOptions remote;
    remote.addTo(parser, false);
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli nccl-ras: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QString node = parser.value(host);
    bool portOk = false, timeoutOk = false, everyOk = true;
    const int portNumber = parser.value(port).toInt(&portOk);
    const int timeoutS = parser.value(remote.timeout).toInt(&timeoutOk);
    const double every = parser.isSet(watch) ? parser.value(watch).toDouble(&everyOk) : 0;
    QString wrong;
    if (node.isEmpty())
        wrong = QStringLiteral("--host names a node of the job");
    else if (!portOk || portNumber <= 0 || portNumber > 65535)
        wrong = QStringLiteral("--port takes a TCP port");
    else if (!timeoutOk || timeoutS <= 0)
        wrong = QStringLiteral("--timeout takes a number of seconds");
    else if (parser.isSet(watch) && (!everyOk || every < 0.5 || every > 86400))
        wrong = QStringLiteral("--watch takes seconds between 0.5 and 86400");
    if (!wrong.isEmpty()) {
        fprintf(stderr, "rackscope-cli nccl-ras: %s\n", qPrintable(wrong));
        return 2;
    }

    // The servers the ranks are placed on.
    Workspace ws;
    const QStringList files = parser.positionalArguments().mid(1);
    const ServerInputs in = readServers(parser, remote, files, false, ws);
    if (!in.error.isEmpty()) {
        fprintf(stderr, "rackscope-cli nccl-ras: %s\n", qPrintable(in.error));
        return 2;
    }

    FleetTarget target = fleetFromOptions(parser, remote, timeoutS, 1); // its agent is not needed
    const SshConfig config = target.options.config;
    Fleet fleet(std::move(target.options));
    const QString where = QStringLiteral("%1:%2").arg(node).arg(portNumber);
    const RasPortOpener open = rasPortOpener(&fleet, node, quint16(portNumber), timeoutS * 1000);
    NcclRasQuery query;
    query.verbose = parser.isSet(verbose);
    query.json = !parser.isSet(text);
    query.timeoutMs = timeoutS * 1000;
    const SshAddressOf sshAddress = [&config](const QString& h) { return config.resolve(h).hostName; };

    QTextStream out(stdout);
    int status = 0;
    QString last;
    RasWatch watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &RasWatch::snapshot, &loop, [&](const RasSnapshot& s) {
        std::optional<RasVerdict> verdict;
        if (s.answer.report)
            verdict = placeNcclRas(*s.answer.report, ws, sshAddress);
        status = !s.answer.error.isEmpty() ? 2 : verdict->healthy() ? 0 : 1;
        if (parser.isSet(json)) {
            out << QJsonDocument(snapshotJson(s, where, verdict ? &*verdict : nullptr))
                       .toJson(parser.isSet(watch) ? QJsonDocument::Compact : QJsonDocument::Indented);
            if (parser.isSet(watch))
                out << "\n";
        } else {
            // A watch prints a snapshot in full when it says something new, else one line.
            QString now;
            QTextStream printed(&now);
            printSnapshot(printed, s, where, verdict ? &*verdict : nullptr, false);
            printed.flush();
            if (!parser.isSet(watch) ||
                now.section(QLatin1Char('\n'), 1) != last.section(QLatin1Char('\n'), 1))
                printSnapshot(out, s, where, verdict ? &*verdict : nullptr, parser.isSet(watch));
            else
                out << s.at.toString(QStringLiteral("[HH:mm:ss] ")) << "unchanged\n";
            last = now;
        }
        out.flush();
        if (!parser.isSet(watch))
            loop.quit();
    });
    const InterruptWatch interrupts([&] {
        watcher.stop();
        loop.quit();
    });
    watcher.start(open, where, query, int(std::max(every, 0.5) * 1000));
    loop.exec();
    watcher.stop();
    return status;
}

} // namespace rackscope::cli
