#include "results_command.h"

#include "report/nccl_tests_report.h"
#include "report/run_report.h"
#include "runs/run_compare.h"
#include "runs/run_record.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {
namespace {

bool load(const QString& path, RunRecord* out) {
    QString error;
    *out = loadRunRecord(path, &error);
    if (!error.isEmpty())
        fprintf(stderr, "rackscope-cli results: %s\n", qPrintable(error));
    for (const QString& p : out->problems)
        fprintf(stderr, "rackscope-cli results: %s: %s\n", qPrintable(path), qPrintable(p));
    return error.isEmpty();
}

} // namespace

int runResults(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Saved runs: list a results folder, show one run (as JSON or CSV), or compare two size by size."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("results"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("list|show|compare"),
                                 QStringLiteral("list [DIR], show FILE, compare A B"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption csv(QStringLiteral("csv"), QStringLiteral("show: print the rows as CSV."));
    parser.addOptions({json, csv});
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli results: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList pos = parser.positionalArguments().mid(1);
    const QString action = pos.value(0, QStringLiteral("list"));
    QTextStream out(stdout);
    if (action == QLatin1String("list") && pos.size() <= 2) {
        const QString dir = pos.value(1, defaultResultsDirectory());
        QJsonArray list;
        for (const QString& path : listRunRecords(dir)) {
            QString error;
            const RunRecord r = loadRunRecord(path, &error);
            if (!error.isEmpty())
                continue;
            const auto peak = peakBusbw(r.run);
            if (parser.isSet(json))
                list.append(recordSummaryToJson(path, r));
            else
                out << r.meta.started.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) << "  " << r.meta.label
                    << "  " << r.run.rows.size() << " sizes"
                    << (peak ? QStringLiteral(", %1 GB/s at the largest").arg(*peak) : QString()) << "  ("
                    << recordEnding(r) << ")  " << path << "\n";
        }
        if (parser.isSet(json))
            out << QJsonDocument(list).toJson(QJsonDocument::Indented);
        return 0;
    }
    if (action == QLatin1String("show") && pos.size() == 2) {
        RunRecord r;
        if (!load(pos[1], &r))
            return 2;
        if (parser.isSet(csv)) {
            out << runRowsToCsv(r.run);
        } else if (parser.isSet(json)) {
            out << QJsonDocument(recordToJson(pos[1], r)).toJson(QJsonDocument::Indented);
        } else {
            out << r.meta.label << "\n$ " << r.meta.command << "\n"
                << r.run.rows.size() << " sizes; " << recordEnding(r) << "\n";
            for (const NcclTestsRow& row : r.run.rows)
                out << qSetFieldWidth(14) << row.size << qSetFieldWidth(10) << row.outOfPlace.busbw
                    << qSetFieldWidth(0) << " GB/s\n";
        }
        return 0;
    }
    if (action == QLatin1String("compare") && pos.size() == 3) {
        RunRecord a, b;
        if (!load(pos[1], &a) || !load(pos[2], &b))
            return 2;
        const std::vector<SizeComparison> rows = compareRuns(a.run, b.run);
        if (parser.isSet(json)) {
            out << QJsonDocument(comparisonToJson(pos[1], pos[2], rows)).toJson(QJsonDocument::Indented);
        } else {
            out << "A: " << a.meta.label << " (" << pos[1] << ")\nB: " << b.meta.label << " (" << pos[2]
                << ")\n";
            auto cell = [](const std::optional<double>& v) {
                return v ? QString::number(*v, 'f', 2) : QStringLiteral("-");
            };
            for (const SizeComparison& c : rows)
                out << qSetFieldWidth(14) << c.size << qSetFieldWidth(10) << cell(c.busbwA) << cell(c.busbwB)
                    << (c.ratio ? QString::number(*c.ratio, 'f', 3) : QStringLiteral("-"))
                    << qSetFieldWidth(0) << "\n";
        }
        return 0;
    }
    fputs("rackscope-cli results: list [DIR], show FILE [--json|--csv], or compare A B [--json]\n", stderr);
    return 2;
}

} // namespace rackscope::cli
