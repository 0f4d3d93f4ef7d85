#include "export_command.h"

#include "model/hostlist.h"
#include "rackscope_version.h"
#include "render/diagram_export.h"
#include "workspace/workspace.h"

#include <QCommandLineParser>
#include <QDate>
#include <QFileInfo>
#include <cstdio>

namespace rackscope::cli {
namespace {

int usage(const QString& why) {
    fprintf(stderr, "rackscope-cli export: %s\n", qPrintable(why));
    return 2;
}

} // namespace

int runExport(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Draws the topology diagram the GUI shows (servers, their GPUs, NICs and PCIe "
                       "switches, the switches above them) with "
                       "the highlights, a title block and the legend, into SVG, PNG, PDF or Graphviz DOT."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The command."));
    parser.addPositionalArgument(
        QStringLiteral("INPUT"),
        QStringLiteral(
            "Server topologies (any format inspect reads) and fabric sources (any format fabric reads)."),
        QStringLiteral("INPUT..."));
    const QCommandLineOption output(QStringList{QStringLiteral("o"), QStringLiteral("output")},
                                    QStringLiteral("The file to write."), QStringLiteral("FILE"));
    const QCommandLineOption format(QStringLiteral("format"),
                                    QStringLiteral("svg, png, pdf or dot (default: from the file name)."),
                                    QStringLiteral("FORMAT"));
    const QCommandLineOption hosts(QStringLiteral("hosts"),
                                   QStringLiteral("Draw only these servers (a hostlist: gpu[01-04])."),
                                   QStringLiteral("LIST"));
    const QCommandLineOption highlight(
        QStringLiteral("highlight"),
        QStringLiteral("Highlights to draw, comma-separated: cross-socket, no-gpudirect, pcie-degraded, "
                       "link-below-speed, "
                       "port-down, rail-break, slow-host; all (default) or none."),
        QStringLiteral("LIST"), QStringLiteral("all"));
    const QCommandLineOption collapse(QStringLiteral("collapse"),
                                      QStringLiteral("Draw every server closed, as a card."));
    const QCommandLineOption openAll(QStringLiteral("open-all"),
                                     QStringLiteral("Draw every server opened into its parts (by default "
                                                    "they are, for one server or a few without a fabric; "
                                                    "at cluster scale servers are cards)."));
    const QCommandLineOption expand(QStringLiteral("expand"),
                                    QStringLiteral("Open these servers, the others closed."),
                                    QStringLiteral("LIST"));
    const QCommandLineOption only(QStringLiteral("only-gpus-nics"),
                                  QStringLiteral("Leave out other PCI devices."));
    const QCommandLineOption storage(QStringLiteral("hide-storage"),
                                     QStringLiteral("Leave out storage controllers."));
    const QCommandLineOption dpi(QStringLiteral("dpi"), QStringLiteral("PNG resolution (default 150)."),
                                 QStringLiteral("N"), QStringLiteral("150"));
    const QCommandLineOption page(
        QStringLiteral("page"), QStringLiteral("PDF page: A4, A3 (default), A2, A1, Letter, Legal, Tabloid."),
        QStringLiteral("SIZE"), QStringLiteral("A3"));
    const QCommandLineOption portrait(QStringLiteral("portrait"), QStringLiteral("PDF in portrait."));
    const QCommandLineOption landscape(
        QStringLiteral("landscape"),
        QStringLiteral("PDF in landscape (default: the orientation the drawing fills best)."));
    const QCommandLineOption title(
        QStringLiteral("title"),
        QStringLiteral("The title block's name (default: the server, or the number of servers)."),
        QStringLiteral("TEXT"));
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QStringLiteral("Draw the demo cluster that ships with rackscope."));
    const QCommandLineOption demoNvl72(
        QStringLiteral("demo-nvl72"),
        QStringLiteral(
            "Draw the NVL72 demo: two racks of 18 trays, each an NVLink domain, with two faults."));
    parser.addOptions({output, format, hosts, highlight, collapse, openAll, expand, only, storage, dpi, page,
                       portrait, landscape, title, demo, demoNvl72});
    if (!parser.parse(args))
        return usage(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    QStringList inputs = parser.positionalArguments().mid(1);
    if (parser.isSet(demo))
        inputs << QStringLiteral(":/demo/demo.cluster");
    if (parser.isSet(demoNvl72))
        inputs << QStringLiteral(":/demo/nvl72.cluster");
    if (inputs.isEmpty())
        return usage(QStringLiteral("give INPUT files, --demo or --demo-nvl72"));
    if (!parser.isSet(output))
        return usage(QStringLiteral("give -o FILE"));
    const QString path = parser.value(output);
    ExportOptions eo;
    const auto fmt =
        exportFormatFromName(parser.isSet(format) ? parser.value(format) : QFileInfo(path).suffix());
    if (!fmt)
        return usage(QStringLiteral("--format is svg, png, pdf or dot"));
    eo.format = *fmt;
    bool ok = false;
    eo.dpi = parser.value(dpi).toInt(&ok);
    if (!ok || eo.dpi < 10 || eo.dpi > 2400)
        return usage(QStringLiteral("--dpi takes 10 to 2400"));
    const auto pageId = exportPageFromName(parser.value(page));
    if (!pageId)
        return usage(
            QStringLiteral("--page '%1' is not a page size rackscope knows").arg(parser.value(page)));
    eo.page = *pageId;
    if (parser.isSet(portrait) && parser.isSet(landscape))
        return usage(QStringLiteral("--portrait or --landscape, not both"));
    if (parser.isSet(portrait) || parser.isSet(landscape))
        eo.landscape = parser.isSet(landscape);
    const QString wanted = parser.value(highlight);
    if (wanted != QLatin1String("all")) {
        eo.paint.show.fill(false);
        if (wanted != QLatin1String("none"))
            for (const QString& name : wanted.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                const auto kind = highlightKindFromName(name.trimmed());
                if (!kind)
                    return usage(QStringLiteral("--highlight: unknown highlight '%1'").arg(name));
                eo.paint.show[static_cast<std::size_t>(*kind)] = true;
            }
    }
    DiagramOptions dopt;
    dopt.open = parser.isSet(openAll)                            ? ServersOpen::All
                : parser.isSet(collapse) || parser.isSet(expand) ? ServersOpen::Listed
                                                                 : ServersOpen::ByScale;
    dopt.onlyGpusAndNics = parser.isSet(only);
    dopt.hideStorage = parser.isSet(storage);
    for (const auto& [option, list] : {std::pair{&hosts, &dopt.onlyHosts}}) {
        if (!parser.isSet(*option))
            continue;
        const HostlistResult h = expandHostlist(parser.value(*option));
        if (!h.error.isEmpty())
            return usage(QStringLiteral("--hosts: ") + h.error);
        *list = h.hosts;
    }
    if (parser.isSet(expand)) {
        const HostlistResult h = expandHostlist(parser.value(expand));
        if (!h.error.isEmpty())
            return usage(QStringLiteral("--expand: ") + h.error);
        dopt.expanded = QSet<QString>(h.hosts.begin(), h.hosts.end());
    }

    Workspace ws;
    const std::vector<FailedInput> failed = ws.open(inputs, Workspace::Mode::Add);
    for (const FailedInput& f : failed)
        fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(f.input), qPrintable(f.message));
    if (ws.empty())
        return 2;
    DiagramInput input = ws.diagramInput();
    input.title = parser.value(title);
    const Diagram diagram = buildDiagram(input, dopt);
    if (!dopt.onlyHosts.isEmpty() && !drawsAServer(diagram))
        return usage(QStringLiteral("nothing to draw: --hosts matches no server"));
    QStringList names;
    for (const QString& in : inputs)
        names << (in.startsWith(QLatin1Char(':')) ? QStringLiteral("the rackscope demo cluster")
                                                  : QFileInfo(in).fileName());
    eo.title = {diagram.title, QDate::currentDate().toString(Qt::ISODate), QStringLiteral(RACKSCOPE_VERSION),
                names.join(QStringLiteral(", "))};
    if (const QString error = exportDiagram(diagram, path, eo); !error.isEmpty()) {
        fprintf(stderr, "rackscope-cli export: %s\n", qPrintable(error));
        return 2;
    }
    return failed.empty() ? 0 : 2;
}

} // namespace rackscope::cli
