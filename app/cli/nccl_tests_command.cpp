#include "nccl_tests_command.h"

#include "import/input_file.h"
#include "report/nccl_tests_report.h"
#include "runs/nccl_tests_json.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {

int runParseNcclTests(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Reads nccl-tests output (all_reduce_perf and the rest) of any version."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("parse-nccl-tests"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The output of an nccl-tests binary, or its -J JSON report."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    parser.addOption(json);
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
    const NcclTestsRun run = parseNcclTestsFile(text);
    if (run.rows.empty()) {
        fprintf(stderr, "rackscope-cli: %s: no nccl-tests result rows%s\n", qPrintable(files[0]),
                run.diagnostics.empty() ? "" : qPrintable(QStringLiteral(" (line %1: %2)").arg(run.diagnostics.front().line).arg(run.diagnostics.front().message)));
        return 2;
    }
    QTextStream out(stdout);
    if (parser.isSet(json)) {
        out << QJsonDocument(ncclTestsToJson(run, files[0])).toJson(QJsonDocument::Indented);
    } else {
        out << files[0] << ": " << run.rows.size() << " sizes, " << run.ranks.size() << " ranks";
        if (run.avgBusbw) out << ", average bus bandwidth " << *run.avgBusbw << " GB/s";
        out << "\n";
        for (const NcclTestsRow& r : run.rows) out << qSetFieldWidth(14) << r.size << qSetFieldWidth(10) << r.outOfPlace.busbw << r.inPlace.busbw << qSetFieldWidth(0) << " GB/s\n";
        for (const auto& d : run.diagnostics) out << "[warning] line " << d.line << ": " << d.message << "\n";
    }
    out.flush();
    return 0;
}

} // namespace rackscope::cli
