// Exported diagrams read back: the SVG names every GPU and NIC and carries
// the legend and title block; PNG follows the DPI; PDF the page; DOT the
// items. And the CLI's export refuses what it cannot do, saying why.
#include "render/diagram_export.h"
#include "test_support.h"
#include "workspace/sources.h"

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace rackscope;
using namespace rackscope::test;

namespace {

Diagram diagramOf(const QStringList& names) {
    return buildDiagram(loadFixtureSources(names).input);
}

ExportOptions options(ExportFormat f) {
    ExportOptions o;
    o.format = f;
    o.title = {QStringLiteral("rack 7 review"), QStringLiteral("2026-12-03"), QStringLiteral("0.1.0"),
               QStringLiteral("fixtures")};
    return o;
}

QStringList svgTexts(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader r(&f);
    QStringList texts;
    while (!r.atEnd())
        if (r.readNext() == QXmlStreamReader::StartElement && r.name() == QLatin1String("text"))
            texts << r.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    if (r.hasError())
        return {QStringLiteral("XML error: ") + r.errorString()};
    return texts;
}

// pdftotext's words with their boxes, in points, on pages `first` to `last` (0: to the end).
std::vector<std::pair<QString, QRectF>> pdfWords(const QString& pdf, int first = 1, int last = 0) {
    QProcess p;
    QStringList args{QStringLiteral("-bbox"), QStringLiteral("-f"), QString::number(first)};
    if (last > 0)
        args << QStringLiteral("-l") << QString::number(last);
    p.start(QStringLiteral("pdftotext"), args << pdf << QStringLiteral("-"));
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    static const QRegularExpression word(QStringLiteral(
        R"re(<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>)re"));
    std::vector<std::pair<QString, QRectF>> out;
    for (const auto& m : word.globalMatch(QString::fromUtf8(p.readAllStandardOutput())))
        out.emplace_back(m.captured(5), QRectF(QPointF(m.captured(1).toDouble(), m.captured(2).toDouble()),
                                               QPointF(m.captured(3).toDouble(), m.captured(4).toDouble())));
    return out;
}

struct Cli {
    int code;
    QString err;
};
Cli cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(RACKSCOPE_CLI), QStringList{QStringLiteral("export")} + args);
    p.waitForFinished(60000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestDiagramExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void svgNamesEveryGpuAndNicAndHasTheLegend() {
        const QString name = QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt");
        const Diagram d = diagramOf({name, QStringLiteral("nccl-topo-oci-bm-gpu-h100-8-kubernetes.xml")});
        const QString path = dir_.filePath(QStringLiteral("two.svg"));
        QCOMPARE(exportDiagram(d, path, options(ExportFormat::Svg)), QString());
        const QStringList texts = svgTexts(path);
        QVERIFY2(!texts.isEmpty() && !texts.first().startsWith(QLatin1String("XML error")),
                 qPrintable(texts.value(0)));
        int devices = 0;
        for (const DiagramItem& it : d.items) {
            if (it.kind != ItemKind::Gpu && it.kind != ItemKind::Nic)
                continue;
            ++devices;
            QVERIFY2(texts.contains(it.label), qPrintable(it.id));
            QVERIFY2(texts.count(it.label) >= 1, qPrintable(it.label));
        }
        QCOMPARE(devices, 4 + 1 + 8 + 16);
        QCOMPARE(texts.count(QStringLiteral("GPU0")), 2); // one per server
        QVERIFY(texts.contains(QStringLiteral("Legend")));
        QVERIFY(texts.contains(QStringLiteral("GPU–NIC path crosses the CPU socket: 2")));
        QVERIFY(texts.contains(QStringLiteral("rack 7 review")));
        QVERIFY(std::any_of(texts.begin(), texts.end(),
                            [](const QString& t) { return t.contains(QLatin1String("rackscope 0.1.0")); }));
        // Highlights left out are left out of the legend too.
        ExportOptions none = options(ExportFormat::Svg);
        none.paint.show.fill(false);
        QCOMPARE(exportDiagram(d, path, none), QString());
        QVERIFY(!svgTexts(path).contains(QStringLiteral("GPU–NIC path crosses the CPU socket: 2")));
    }

    void pngFollowsTheDpi() {
        const Diagram d = diagramOf({QStringLiteral("nccl-topo-azure-ndv4.xml")});
        ExportOptions o = options(ExportFormat::Png);
        o.dpi = 72;
        const QString low = dir_.filePath(QStringLiteral("low.png")),
                      high = dir_.filePath(QStringLiteral("high.png"));
        QCOMPARE(exportDiagram(d, low, o), QString());
        o.dpi = 144;
        QCOMPARE(exportDiagram(d, high, o), QString());
        const QImage a(low), b(high);
        QVERIFY(!a.isNull() && !b.isNull());
        QCOMPARE(a.size(), composedSize(d, o).toSize());
        QVERIFY(std::abs(b.width() - 2 * a.width()) <= 2 && std::abs(b.height() - 2 * a.height()) <= 2);
        QCOMPARE(qRound(b.dotsPerMeterX() * 0.0254), 144);
        // Not blank: the GPUs' green is there.
        int green = 0;
        for (int y = 0; y < a.height(); y += 2)
            for (int x = 0; x < a.width(); x += 2)
                green += a.pixelColor(x, y) == QColor(0xd7, 0xef, 0xb0);
        QVERIFY(green > 1000);
        o.dpi = 2400;
        QVERIFY(
            exportDiagram(diagramOf({QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")}), low, o)
                .contains(QLatin1String("too large")));
    }

    void pdfPageAndOrientation() {
        const Diagram d = diagramOf({QStringLiteral("nccl-topo-azure-ndv4.xml")});
        ExportOptions o = options(ExportFormat::Pdf);
        o.page = QPageSize::A4;
        o.landscape = true;
        const QString path = dir_.filePath(QStringLiteral("a4.pdf"));
        QCOMPARE(exportDiagram(d, path, o), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray pdf = f.readAll();
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY2(pdf.contains("/MediaBox [0 0 841.") || pdf.contains("/MediaBox [0 0 842"),
                 "A4 landscape: 842 x 595 points");
        o.landscape = false;
        QCOMPARE(exportDiagram(d, path, o), QString());
        f.close();
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray portrait = f.readAll();
        QVERIFY(portrait.contains("/MediaBox [0 0 595"));
    }

    // The demo cluster on an A3 page for a review: every server and switch name found whole by pdftotext,
    // no word smaller than 6 pt, the drawing filling the page; its SVG has every name whole.
    void reviewPageOfTheDemo() {
        const QString pdf = dir_.filePath(QStringLiteral("review.pdf"));
        const Cli r = cli({QStringLiteral("--demo"), QStringLiteral("-o"), pdf, QStringLiteral("--page"),
                           QStringLiteral("A3")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto words = pdfWords(pdf);
        QVERIFY2(words.size() > 50, "pdftotext (poppler-utils) reads the page");
        QRectF drawn;
        for (const auto& [text, box] : words) {
            // a word's box is about 1.16 times its size in DejaVu Sans
            QVERIFY2(box.height() >= 6 * 1.16 - 0.05,
                     qPrintable(QStringLiteral("'%1' is %2 pt").arg(text).arg(box.height() / 1.16)));
            drawn = drawn.united(box);
        }
        const Diagram d = buildDiagram(loadSources({QStringLiteral(":/demo/demo.cluster")}).input);
        // What the export dialog says before writing it: one page, and the smallest text as printed.
        ExportOptions a3;
        a3.format = ExportFormat::Pdf;
        const ExportPlan plan = planExport(d, a3);
        QCOMPARE(plan.pages, 1);
        QVERIFY(plan.landscape);
        const double smallest = std::min_element(words.begin(), words.end(),
                                                 [](const auto& x, const auto& y) {
                                                     return x.second.height() < y.second.height();
                                                 })
                                    ->second.height() /
                                1.16;
        QVERIFY2(
            std::abs(plan.smallestPt - smallest) < 0.6,
            qPrintable(QStringLiteral("planned %1 pt, printed %2 pt").arg(plan.smallestPt).arg(smallest)));
        QStringList names;
        for (const DiagramItem& it : d.items)
            if (it.kind == ItemKind::Host || it.kind == ItemKind::Leaf || it.kind == ItemKind::Spine)
                names << it.label;
        QCOMPARE(names.size(), 8 + 8 + 4);
        for (const QString& name : names)
            QVERIFY2(std::any_of(words.begin(), words.end(), [&](const auto& w) { return w.first == name; }),
                     qPrintable(name));
        // A3 landscape, 1191 x 842 pt with 10 mm (28 pt) margins: the words span most of it
        QVERIFY2(drawn.width() > 0.85 * (1191 - 57) || drawn.height() > 0.85 * (842 - 57),
                 qPrintable(QStringLiteral("%1 x %2 pt").arg(drawn.width()).arg(drawn.height())));
        const QString svg = dir_.filePath(QStringLiteral("review.svg"));
        QCOMPARE(cli({QStringLiteral("--demo"), QStringLiteral("-o"), svg}).code, 0);
        const QStringList texts = svgTexts(svg);
        for (const QString& name : names)
            QVERIFY2(texts.contains(name), qPrintable(name));
        // A host filter that matches nothing is an error, not an empty diagram of the spines.
        const Cli none = cli({QStringLiteral("--demo"), QStringLiteral("-o"), svg, QStringLiteral("--hosts"),
                              QStringLiteral("gpu[01-02]")});
        QCOMPARE(none.code, 2);
        QVERIFY(none.err.contains(QLatin1String("nothing to draw")));
    }

    // The SuperPOD capture (40 switches, 122 servers) does not fit one A3 page at 6 pt: it is printed as a
    // poster of A3 pages at a readable size, every switch and server name whole on one of them.
    void posterOfTheSuperPod() {
        const QString name = QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt");
        const QString pdf = dir_.filePath(QStringLiteral("superpod.pdf"));
        const Cli r =
            cli({fixture(name), QStringLiteral("-o"), pdf, QStringLiteral("--page"), QStringLiteral("A3")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QProcess info;
        info.start(QStringLiteral("pdfinfo"), {pdf});
        QVERIFY(info.waitForFinished(60000));
        const int pages = QString::fromUtf8(info.readAllStandardOutput())
                              .section(QStringLiteral("Pages:"), 1)
                              .section(QLatin1Char('\n'), 0, 0)
                              .trimmed()
                              .toInt();
        const Diagram d = diagramOf({name});
        ExportOptions a3;
        a3.format = ExportFormat::Pdf;
        const ExportPlan plan = planExport(d, a3);
        QCOMPARE(pages, plan.pages); // as the export dialog said
        QVERIFY2(pages > 2, qPrintable(QString::number(pages)));
        QCOMPARE(plan.smallestPt, 6.0);
        const auto words = pdfWords(pdf);
        QVERIFY(words.size() > 500);
        for (const auto& [text, box] : words)
            QVERIFY2(box.height() >= 6 * 1.16 - 0.05,
                     qPrintable(QStringLiteral("'%1' is %2 pt").arg(text).arg(box.height() / 1.16)));
        // Page 1 is the map of the others: the title, and each page's number where its part is; no name (it
        // would print too small).
        QStringList first;
        for (const auto& w : pdfWords(pdf, 1, 1))
            first << w.first;
        for (int page = 2; page <= pages; ++page)
            QVERIFY2(first.contains(QString::number(page)), qPrintable(first.join(QLatin1Char(' '))));
        const auto poster = pdfWords(pdf, 2);
        int names = 0;
        for (const DiagramItem& it : d.items)
            if (it.kind == ItemKind::Host || it.kind == ItemKind::Leaf || it.kind == ItemKind::Spine) {
                ++names;
                QVERIFY2(!first.contains(it.label), qPrintable(it.label));
                QVERIFY2(std::any_of(poster.begin(), poster.end(),
                                     [&](const auto& w) { return w.first == it.label; }),
                         qPrintable(it.label));
            }
        QCOMPARE(names, 122 + 40);
    }

    void dotHasEveryItem() {
        const Diagram d = diagramOf({QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")});
        const QByteArray dot = diagramToDot(d, {});
        QVERIFY(dot.startsWith("digraph rackscope {"));
        QVERIFY(dot.trimmed().endsWith('}'));
        for (const DiagramItem& it : d.items)
            QVERIFY2(dot.contains(QByteArray("\"") + it.id.toUtf8() + "\""), qPrintable(it.id));
        QCOMPARE(int(dot.count(" -> ")), int(d.links.size()));
        QCOMPARE(dot.count('{'), dot.count('}'));
    }

    void cliWritesEachFormatAndRefusesWithReasons() {
        const QString in = fixture(QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt"));
        for (const char* ext : {"svg", "png", "pdf", "dot"}) {
            const QString out = dir_.filePath(QStringLiteral("cli.") + QLatin1String(ext));
            const Cli r = cli({in, QStringLiteral("-o"), out});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY(QFileInfo(out).size() > 100);
        }
        QVERIFY(cli({in, QStringLiteral("-o"), dir_.filePath(QStringLiteral("x.gif"))})
                    .err.contains(QLatin1String("--format is svg, png, pdf or dot")));
        QVERIFY(cli({in, QStringLiteral("-o"), dir_.filePath(QStringLiteral("x.svg")),
                     QStringLiteral("--highlight"), QStringLiteral("pretty")})
                    .err.contains(QLatin1String("unknown highlight 'pretty'")));
        QVERIFY(cli({in, QStringLiteral("-o"), dir_.filePath(QStringLiteral("x.svg")),
                     QStringLiteral("--hosts"), QStringLiteral("nobody")})
                    .err.contains(QLatin1String("nothing to draw")));
        const Cli missing = cli({dir_.filePath(QStringLiteral("absent.xml")), QStringLiteral("-o"),
                                 dir_.filePath(QStringLiteral("x.svg"))});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains(QLatin1String("absent.xml")));
        QVERIFY(cli({in, QStringLiteral("-o"), QStringLiteral("/proc/nope/x.svg")}).code == 2);
        // Only the highlights asked for.
        const QString some = dir_.filePath(QStringLiteral("some.svg"));
        QCOMPARE(cli({in, QStringLiteral("-o"), some, QStringLiteral("--highlight"),
                      QStringLiteral("cross-socket")})
                     .code,
                 0);
        const QStringList texts = svgTexts(some);
        QVERIFY(texts.contains(QStringLiteral("GPU–NIC path crosses the CPU socket: 2")));
        QVERIFY(!std::any_of(texts.begin(), texts.end(), [](const QString& t) {
            return t.startsWith(QLatin1String("GPU–NIC pair cannot use"));
        }));
    }
};

QTEST_MAIN(TestDiagramExport)
#include "test_diagram_export.moc"
