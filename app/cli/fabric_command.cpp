#include "fabric_command.h"

#include "import/ibnetdiscover_importer.h"
#include "import/slurm_topology_conf.h"
#include "report/fabric_report.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {
namespace {

struct Loaded {
    std::optional<Fabric> fabric;
    QString error;
};

Loaded loadFabric(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {std::nullopt, QStringLiteral("cannot open: %1").arg(f.errorString())};
    const QByteArray text = f.read(64 * 1024 * 1024 + 1);
    if (text.size() > 64 * 1024 * 1024) return {std::nullopt, QStringLiteral("larger than the 64 MiB limit for a fabric file")};
    if (text.trimmed().isEmpty()) return {std::nullopt, QStringLiteral("the file is empty")};
    if (looksLikeSlurmTopology(text)) {
        SlurmTopologyImport r = importSlurmTopology(text, path);
        return {std::move(r.fabric), r.error};
    }
    if (looksLikeIbnetdiscover(text)) {
        FabricImport r = importIbnetdiscover(text, path);
        return {std::move(r.fabric), r.error};
    }
    return {std::nullopt, QStringLiteral("not a fabric source rackscope reads (ibnetdiscover output or a Slurm topology.conf)")};
}

} // namespace

int runFabric(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Reads the fabric above the servers: switches with their tiers, links, hosts."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("fabric"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("SOURCE"), QStringLiteral("ibnetdiscover output or a Slurm topology.conf."), QStringLiteral("SOURCE..."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption exportAs(QStringLiteral("export"), QStringLiteral("Write the fabric as topology.conf or json."), QStringLiteral("FORMAT"));
    parser.addOptions({json, exportAs});
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli fabric: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList sources = parser.positionalArguments().mid(1);
    const QString format = parser.value(exportAs);
    if (sources.isEmpty() || (parser.isSet(exportAs) && format != QLatin1String("topology.conf") && format != QLatin1String("json"))) {
        fputs("rackscope-cli fabric: give SOURCE files; --export takes topology.conf or json\n", stderr);
        return 2;
    }
    QTextStream out(stdout);
    QJsonArray fabrics;
    bool failed = false;
    for (const QString& path : sources) {
        const Loaded l = loadFabric(path);
        if (!l.fabric) {
            fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(path), qPrintable(l.error));
            failed = true;
            continue;
        }
        if (format == QLatin1String("topology.conf")) out << writeSlurmTopology(*l.fabric);
        else if (parser.isSet(json) || format == QLatin1String("json")) fabrics.append(fabricToJson(*l.fabric));
        else out << fabricToText(*l.fabric);
    }
    if (parser.isSet(json) || format == QLatin1String("json"))
        out << QJsonDocument(QJsonObject{{"fabrics", fabrics}}).toJson(QJsonDocument::Indented);
    out.flush();
    return failed ? 2 : 0;
}

} // namespace rackscope::cli
