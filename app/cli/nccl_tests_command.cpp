#include "nccl_tests_command.h"

#include "import/input_file.h"
#include "import/topology_loader.h"
#include "report/nccl_tests_report.h"
#include "runs/nccl_tests_json.h"
#include "runs/nccl_transport.h"
#include "runs/run_findings.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {

std::optional<std::map<QString, HostTopology>> topologiesByHost(const QStringList& pairs,
                                                                const char* command) {
    std::map<QString, HostTopology> topologies;
    for (const QString& pair : pairs) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            fprintf(stderr, "rackscope-cli %s: --topology takes HOST=FILE, not '%s'\n", command,
                    qPrintable(pair));
            return std::nullopt;
        }
        ImportResult imported = loadTopologyFile(pair.mid(eq + 1));
        if (imported.host && !imported.moreHosts.empty())
            imported = ImportResult::fail(QStringLiteral("holds %1 hosts; --topology takes one host's")
                                              .arg(imported.moreHosts.size() + 1));
        if (!imported.host) {
            fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(pair.mid(eq + 1)),
                    qPrintable(imported.error));
            return std::nullopt;
        }
        topologies[pair.left(eq)] = *imported.host;
    }
    return topologies;
}

int runParseNcclTests(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Reads nccl-tests output (all_reduce_perf and the rest) of any version."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("parse-nccl-tests"), QStringLiteral("The command."));
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("The output of an nccl-tests binary, or its -J JSON report."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption topology(
        QStringLiteral("topology"),
        QStringLiteral("HOST=FILE: that host's topology (any format inspect reads), to judge where GPUDirect "
                       "RDMA was possible (repeat it)."),
        QStringLiteral("HOST=FILE"));
    parser.addOptions({json, topology});
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli parse-nccl-tests: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.size() != 1) {
        fputs("rackscope-cli parse-nccl-tests: give one FILE\n", stderr);
        return 2;
    }
    QByteArray text;
    if (const QString error = readInputFile(files[0], 256 << 20, &text); !error.isEmpty()) {
        fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(files[0]), qPrintable(error));
        return 2;
    }
    const auto topologies = topologiesByHost(parser.values(topology), "parse-nccl-tests");
    if (!topologies)
        return 2;
    const NcclTestsRun run = parseNcclTestsFile(text);
    if (run.rows.empty()) {
        fprintf(stderr, "rackscope-cli: %s: no nccl-tests result rows%s\n", qPrintable(files[0]),
                run.diagnostics.empty() ? ""
                                        : qPrintable(QStringLiteral(" (line %1: %2)")
                                                         .arg(run.diagnostics.front().line)
                                                         .arg(run.diagnostics.front().message)));
        return 2;
    }
    QTextStream out(stdout);
    if (parser.isSet(json)) {
        out.flush();
        const QByteArray doc = ncclTestsJsonText(run, files[0], *topologies);
        fwrite(doc.constData(), 1, size_t(doc.size()), stdout);
    } else {
        out << files[0] << ": " << run.rows.size() << " sizes, " << run.ranks.size() << " ranks";
        if (run.avgBusbw)
            out << ", average bus bandwidth " << *run.avgBusbw << " GB/s";
        out << "\n";
        for (const NcclTestsRow& r : run.rows)
            out << qSetFieldWidth(14) << r.size << qSetFieldWidth(10) << r.outOfPlace.busbw << r.inPlace.busbw
                << qSetFieldWidth(0) << " GB/s\n";
        const NcclTransport transport = readNcclTransport(run.ncclInfo);
        for (const NcclRankNetwork& r : transport.ranks)
            out << "rank " << r.rank << " on " << r.host << ": "
                << (r.nics.isEmpty() ? QStringLiteral("no network connections")
                                     : r.nics.join(QStringLiteral(", ")))
                << ", GPUDirect RDMA on " << r.gdrConnections << " of " << r.netConnections
                << " network connections\n";
        // A log says nothing of how its run ended: no verdict on that.
        for (const Finding& f : runFindings(files[0], std::nullopt, run, {}, *topologies))
            out << "[" << severityName(f.severity) << "] " << f.code << ": " << f.message << "\n";
        for (const auto& d : run.diagnostics)
            out << "[warning] line " << d.line << ": " << d.message << "\n";
    }
    out.flush();
    return 0;
}

} // namespace rackscope::cli
