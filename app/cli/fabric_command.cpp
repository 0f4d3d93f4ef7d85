#include "fabric_command.h"

#include "import/fabric_loader.h"
#include "import/slurm_topology_conf.h"
#include "report/fabric_report.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {

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
        const FabricLoad l = loadFabricFile(path);
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
