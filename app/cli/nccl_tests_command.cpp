#include "nccl_tests_command.h"

#include "import/input_file.h"
#include "runs/nccl_tests_output.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {
namespace {

template <typename T> QJsonValue orNull(const std::optional<T>& v) { return v ? QJsonValue(*v) : QJsonValue(); }

QJsonObject passJson(const NcclTestsPass& p, bool errorColumn) {
    QJsonObject o{{"time_us", p.timeUs}, {"algbw", p.algbw}, {"busbw", p.busbw}, {"wrong", orNull(p.wrong)}};
    if (errorColumn) o.insert("max_error", orNull(p.maxError));
    return o;
}

QJsonObject runJson(const NcclTestsRun& r, const QString& source) {
    QJsonObject header;
    for (const auto& [k, v] : r.header) {
        bool ok = false;
        const qlonglong n = v.toLongLong(&ok);
        header.insert(QString(k).replace(QLatin1Char(' '), QLatin1Char('_')), ok ? QJsonValue(n) : QJsonValue(v));
    }
    if (!r.ncclVersion.isEmpty()) header.insert("nccl_version", r.ncclVersion);
    QJsonArray ranks, rows, diagnostics;
    for (const NcclTestsRank& k : r.ranks)
        ranks.append(QJsonObject{{"rank", k.rank}, {"host", k.host}, {"device", k.device}, {"pci", k.pci}, {"gpu", k.gpu}, {"pid", k.pid}, {"group", orNull(k.group)}});
    for (const NcclTestsRow& row : r.rows)
        rows.append(QJsonObject{{"size", row.size}, {"count", row.count}, {"type", row.type}, {"redop", row.redop.isEmpty() ? QJsonValue() : QJsonValue(row.redop)},
                                {"root", orNull(row.root)}, {"oop", passJson(row.outOfPlace, r.errorColumn)}, {"ip", passJson(row.inPlace, r.errorColumn)}});
    for (const auto& d : r.diagnostics) diagnostics.append(QJsonObject{{"line", d.line}, {"text", d.text}, {"message", d.message}});
    const bool anyWrongKnown = std::any_of(r.rows.begin(), r.rows.end(), [](const NcclTestsRow& x) { return x.outOfPlace.wrong || x.inPlace.wrong; });
    return {{"source", source}, {"header", header}, {"ranks", ranks}, {"rows", rows}, {"avg_busbw", orNull(r.avgBusbw)},
            {"out_of_bounds", orNull(r.outOfBounds)}, {"wrong_total", anyWrongKnown ? QJsonValue(r.wrongTotal()) : QJsonValue()},
            {"error_column", r.errorColumn}, {"nccl_info_lines", int(r.ncclInfo.size())}, {"diagnostics", diagnostics}};
}

} // namespace

int runParseNcclTests(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Reads nccl-tests output (all_reduce_perf and the rest) of any version."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("parse-nccl-tests"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The output of an nccl-tests binary."));
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
    const NcclTestsRun run = parseNcclTestsOutput(text);
    if (run.rows.empty()) {
        fprintf(stderr, "rackscope-cli: %s: no nccl-tests result rows%s\n", qPrintable(files[0]),
                run.diagnostics.empty() ? "" : qPrintable(QStringLiteral(" (line %1: %2)").arg(run.diagnostics.front().line).arg(run.diagnostics.front().message)));
        return 2;
    }
    QTextStream out(stdout);
    if (parser.isSet(json)) {
        out << QJsonDocument(runJson(run, files[0])).toJson(QJsonDocument::Indented);
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
