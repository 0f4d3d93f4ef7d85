#include "check_command.h"

#include "acceptance/check_output.h"
#include "acceptance/check_report.h"
#include "acceptance/rack_check.h"
#include "import/input_file.h"
#include "protocol/protocol.h"
#include "server_inputs.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {
namespace {

// An expectation or a baseline: the project's bounded read (a FIFO or device too), with its one-line errors.
std::optional<QByteArray> readFile(const QString& path, QString* error) {
    constexpr qint64 kMaxBytes = 64 << 20;
    QByteArray bytes;
    if (QString e = readInputFile(path, kMaxBytes, &bytes); !e.isEmpty()) {
        *error = QStringLiteral("%1: %2").arg(path, e);
        return std::nullopt;
    }
    return bytes;
}

QString writeFile(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return QStringLiteral("%1: %2").arg(path, f.errorString());
    return {};
}

// Every server's error counters over a window: one `sample` of two readings `seconds` apart.
void sampleCounters(const QCommandLineParser& parser, const RemoteOptions& remote, double seconds,
                    CheckOptions& o) {
    const auto ms = qint64(seconds * 1000);
    const RemoteAnswers answers =
        askHosts(parser, remote, QString::fromLatin1(rsagent::protocol::method::kSample),
                 QJsonObject{{"interval_ms", ms}, {"count", 2}, {"counters", true}}, int(seconds) + 1);
    for (const HostResult& r : answers.results) {
        if (r.error)
            o.unsampled[r.host] =
                QStringLiteral("not sampled: %1: %2").arg(stageName(r.error->stage), r.error->message);
        else if (r.events.size() < 2)
            o.unsampled[r.host] =
                QStringLiteral("not sampled: the agent gave %1 readings of 2").arg(r.events.size());
        else
            for (CounterChange& c : counterChanges(r.host, r.events[0], r.events[1]))
                o.counterChanges.push_back(std::move(c));
    }
}

} // namespace

int runCheck(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Certifies a rack server by server: for each server and each check a verdict (pass, warn, fail, "
        "unknown) with its evidence and what to do; the facts the servers do not share (drift); an "
        "expectation and a baseline compared. Exit status 0 when every check passes, 1 for a warn or an "
        "unknown, 2 for a fail."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("check"), QStringLiteral("The command."));
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("Topology files, agent snapshots, cluster files or sessions."),
        QStringLiteral("[FILE...]"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption local(QStringLiteral("local"),
                                   QStringLiteral("Check this machine through its rackscope-agent."));
    const QCommandLineOption expect(QStringLiteral("expect"),
                                    QStringLiteral("What the rack should be: JSON of fact keys and values "
                                                   "(docs/acceptance.md)."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption baseline(QStringLiteral("baseline"),
                                      QStringLiteral("Compare with a baseline saved by --save-baseline."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption saveBaseline(QStringLiteral("save-baseline"),
                                          QStringLiteral("Save the servers' facts as a baseline."),
                                          QStringLiteral("FILE"));
    const QCommandLineOption sample(
        QStringLiteral("sample"),
        QStringLiteral("Sample the NICs' error counters over S seconds (over SSH)."), QStringLiteral("S"));
    const QCommandLineOption report(
        QStringLiteral("report"),
        QStringLiteral("Write the report for a review: FILE.html (self-contained, "
                       "the rack drawn inline) or FILE.pdf."),
        QStringLiteral("FILE"));
    const QCommandLineOption junit(QStringLiteral("junit"),
                                   QStringLiteral("Write JUnit XML for a CI pipeline."),
                                   QStringLiteral("FILE"));
    parser.addOptions({json, local, expect, baseline, saveBaseline, sample, report, junit});
    const RemoteOptions remote;
    remote.addTo(parser);
    const auto usage = [](const QString& message) {
        fprintf(stderr, "rackscope-cli check: %s\n", qPrintable(message));
        return 2;
    };
    if (!parser.parse(args))
        return usage(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty() && !parser.isSet(local) && !remote.wanted(parser))
        return usage(QStringLiteral("give --hosts for servers over SSH, --local for this machine, or files"));

    CheckOptions options;
    QString error;
    if (parser.isSet(expect)) {
        const auto bytes = readFile(parser.value(expect), &error);
        if (bytes)
            options.expect = readExpectation(*bytes, parser.value(expect), &error);
        if (!options.expect)
            return usage(error);
    }
    if (parser.isSet(baseline)) {
        const auto bytes = readFile(parser.value(baseline), &error);
        if (bytes)
            options.baseline = readBaseline(*bytes, parser.value(baseline), &error);
        if (!options.baseline)
            return usage(error);
    }
    if (parser.isSet(report) && !reportFormatOf(parser.value(report)))
        return usage(QStringLiteral("--report writes FILE.html or FILE.pdf"));
    if (parser.isSet(sample)) {
        bool ok = false;
        const double s = parser.value(sample).toDouble(&ok);
        if (!ok || s < 0.1 || s > 3600)
            return usage(QStringLiteral("--sample takes seconds from 0.1 to 3600"));
        options.sampleSeconds = s;
    }

    Workspace ws;
    const ServerInputs in = readServers(parser, remote, files, parser.isSet(local), ws);
    if (!in.error.isEmpty())
        return usage(in.error);
    if (ws.servers().empty())
        return usage(QStringLiteral("no server could be read"));
    if (options.sampleSeconds) {
        if (remote.wanted(parser))
            sampleCounters(parser, remote, *options.sampleSeconds, options);
        for (const InspectedHost& h : ws.hosts())
            if (!h.host.source.location.startsWith(QLatin1String("ssh://")))
                options.unsampled[h.host.name] =
                    QStringLiteral("not sampled: counters are sampled over SSH (--hosts) only");
    }

    const RackCheck rack = checkRack(ws, options);
    QStringList written;
    const auto write = [&](const QCommandLineOption& option, const QByteArray& bytes) {
        if (!parser.isSet(option))
            return true;
        if (const QString e = writeFile(parser.value(option), bytes); !e.isEmpty()) {
            fprintf(stderr, "rackscope-cli check: %s\n", qPrintable(e));
            return false;
        }
        written << parser.value(option);
        return true;
    };
    bool ok =
        write(saveBaseline, baselineToJson(rack.facts, rack.checkedAt)) && write(junit, rackCheckJUnit(rack));
    if (ok && parser.isSet(report)) {
        if (const QString e = writeRackReport(rack, ws, parser.value(report)); !e.isEmpty()) {
            fprintf(stderr, "rackscope-cli check: %s\n", qPrintable(e));
            ok = false;
        } else {
            written << parser.value(report);
        }
    }

    QTextStream out(stdout);
    if (parser.isSet(json))
        out << QJsonDocument(rackCheckJson(rack)).toJson(QJsonDocument::Indented);
    else
        out << rackCheckText(rack);
    out.flush();
    for (const QString& w : written)
        fprintf(stderr, "rackscope-cli check: wrote %s\n", qPrintable(w));
    return ok && in.failed.empty() ? rack.exitStatus() : 2;
}

} // namespace rackscope::cli
