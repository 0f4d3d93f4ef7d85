#include "check_report.h"

#include "render/diagram_export.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTextDocument>

#include "rackscope_version.h"

namespace rackscope {
namespace {

QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

const char* colourOf(Verdict v) {
    switch (v) {
    case Verdict::Pass:
        return "#cdeccd";
    case Verdict::Unknown:
        return "#e4e4e4";
    case Verdict::Warn:
        return "#ffe7a8";
    case Verdict::Fail:
        return "#f6b8b8";
    }
    return "#ffffff";
}

QString cell(Verdict v, const QString& text) {
    return QStringLiteral("<td class=\"%1\" style=\"background:%2\">%3</td>")
        .arg(verdictName(v), QLatin1String(colourOf(v)), esc(text));
}

// The bring-up checklist, each question answered by the checks that cover it across the rack.
struct Question {
    const char* text;
    std::vector<const char*> checks;
};
const std::vector<Question>& checklist() {
    static const std::vector<Question> q = {
        {"Does every server see its GPUs and NICs?", {"gpu-inventory", "nic-inventory"}},
        {"Is RDMA up on every port, at the rack's rate?", {"rdma-ports"}},
        {"Can every GPU use GPUDirect RDMA?", {"gpudirect", "acs-iommu"}},
        {"Are GPU/NIC PCIe links and NUMA placement sane?", {"pcie-links", "gpu-nic-placement"}},
        {"Are PFC, ECN, MTU and QoS consistent end to end?", {"roce-qos", "mtu"}},
        {"Is every server cabled to its rail and leaf?", {"cabling"}},
        {"Are NVLinks up where there are any?", {"nvlink"}},
        {"Do the servers run the same driver, CUDA, NCCL, kernel, OFED and firmware?", {"versions"}},
        {"Is NCCL measured across nodes for all-reduce, all-gather and all-to-all?", {"nccl-bandwidth"}},
        {"Does every RDMA device reach its peers at the rack's bandwidth?", {"rdma-bandwidth"}},
    };
    return q;
}

QString answer(const RackCheck& rack, const Question& q, Verdict* verdict) {
    std::map<Verdict, QStringList> by;
    for (const ServerCheck& s : rack.servers) {
        Verdict v = Verdict::Pass;
        for (const char* id : q.checks)
            if (const CheckResult* c = s.check(QLatin1String(id)))
                v = worse(v, c->verdict);
        by[v] << s.host;
    }
    *verdict = Verdict::Pass;
    QStringList parts;
    for (Verdict v : {Verdict::Fail, Verdict::Warn, Verdict::Unknown})
        if (by.count(v)) {
            *verdict = worse(*verdict, v);
            parts << QStringLiteral("%1 on %2").arg(verdictName(v), by[v].join(QStringLiteral(", ")));
        }
    return parts.isEmpty() ? QStringLiteral("yes, on all %1 servers").arg(rack.servers.size())
                           : parts.join(QStringLiteral("; "));
}

QString diagramSvg(const Workspace& ws, const RackCheck& rack, QString* error) {
    const Diagram d = buildDiagram(ws.diagramInput());
    QTemporaryDir dir;
    ExportOptions eo;
    eo.format = ExportFormat::Svg;
    eo.title = {QStringLiteral("Rack check"), rack.checkedAt.date().toString(Qt::ISODate),
                QStringLiteral(RACKSCOPE_VERSION), QStringLiteral("%1 servers").arg(rack.servers.size())};
    const QString path = dir.filePath(QStringLiteral("rack.svg"));
    if (QString e = exportDiagram(d, path, eo); !e.isEmpty()) {
        *error = e;
        return {};
    }
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    QString svg = QString::fromUtf8(f.readAll());
    svg.remove(0, svg.indexOf(QLatin1String("<svg"))); // the XML declaration and doctype go in HTML
    return svg;
}

} // namespace

std::optional<ReportFormat> reportFormatOf(const QString& path) {
    if (path.endsWith(QLatin1String(".html"), Qt::CaseInsensitive) ||
        path.endsWith(QLatin1String(".htm"), Qt::CaseInsensitive))
        return ReportFormat::Html;
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return ReportFormat::Pdf;
    return std::nullopt;
}

QString rackReportHtml(const RackCheck& rack, const QString& inlineSvg) {
    QString h;
    QTextStream t(&h);
    t << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Rack check</title>\n"
         "<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
         "td,th{border:1px solid #bbb;padding:3px 6px;font-size:13px;vertical-align:top}"
         "th{background:#f0f0f0}.evidence{font-size:13px}.action{color:#555;font-size:12px}"
         "section{margin-top:1.5em}</style></head><body>\n";
    t << "<h1>Rack check</h1>\n<section id=\"summary\"><h2>Summary</h2><p>" << rack.servers.size()
      << " servers checked " << esc(rack.checkedAt.toString(Qt::ISODate)) << " by rackscope "
      << RACKSCOPE_VERSION << ". Verdict: <b>" << verdictName(rack.verdict()) << "</b>.";
    if (!rack.expectation.isEmpty())
        t << " Expected: " << esc(rack.expectation) << ".";
    if (!rack.baseline.isEmpty())
        t << " Baseline: " << esc(rack.baseline) << ".";
    t << "</p>\n<table><tr><th>server</th><th>verdict</th>";
    const std::vector<CheckResult>* columns = rack.servers.empty() ? nullptr : &rack.servers.front().checks;
    if (columns)
        for (const CheckResult& c : *columns)
            t << "<th>" << esc(c.id) << "</th>";
    t << "</tr>\n";
    for (const ServerCheck& s : rack.servers) {
        t << "<tr><td><a href=\"#server-" << esc(s.host) << "\">" << esc(s.host) << "</a></td>"
          << cell(s.verdict, verdictName(s.verdict));
        for (const CheckResult& c : s.checks)
            t << cell(c.verdict, verdictName(c.verdict));
        t << "</tr>\n";
    }
    t << "</table></section>\n";

    t << "<section id=\"checklist\"><h2>Bring-up checklist</h2><table>";
    for (const Question& q : checklist()) {
        Verdict v = Verdict::Unknown;
        // An active check not asked for is not measured: said so, not answered "yes".
        const bool asked = std::any_of(rack.servers.begin(), rack.servers.end(), [&](const ServerCheck& s) {
            return std::any_of(q.checks.begin(), q.checks.end(),
                               [&](const char* id) { return s.check(QLatin1String(id)); });
        });
        const QString a =
            asked ? answer(rack, q, &v)
                  : QStringLiteral("not measured: check --active %1")
                        .arg(QString::fromLatin1(q.checks.front()).section(QLatin1Char('-'), 0, 0));
        t << "<tr><td>" << esc(QLatin1String(q.text)) << "</td>" << cell(v, a) << "</tr>\n";
    }
    t << "</table></section>\n";

    t << "<section id=\"drift\"><h2>Drift</h2>";
    if (rack.drift.empty())
        t << "<p>Every fact the servers state is the same on all of them.</p>";
    else {
        t << "<ul>";
        for (const Drift& d : rack.drift)
            for (const QString& s : d.sentences)
                t << "<li><code>" << esc(d.key) << "</code>: " << esc(s) << "</li>";
        t << "</ul>";
    }
    for (const QString& n : rack.notes)
        t << "<p>" << esc(n) << "</p>";
    t << "</section>\n";

    if (!inlineSvg.isEmpty())
        t << "<section id=\"rack\"><h2>The rack</h2>\n" << inlineSvg << "\n</section>\n";

    t << "<section id=\"servers\"><h2>Servers</h2>\n";
    for (const ServerCheck& s : rack.servers) {
        t << "<section class=\"server\" id=\"server-" << esc(s.host) << "\"><h3>" << esc(s.host) << ": "
          << verdictName(s.verdict) << "</h3><p>" << esc(s.source) << "</p><table>";
        for (const CheckResult& c : s.checks) {
            const CheckInfo* info = checkInfo(c.id);
            t << "<tr><td>" << esc(c.id) << "<br><span class=\"action\">"
              << esc(info ? QString::fromLatin1(info->title) : QString()) << "</span></td>"
              << cell(c.verdict, verdictName(c.verdict)) << "<td class=\"evidence\">";
            for (const CheckItem& i : c.items) {
                t << (i.subject.isEmpty() ? QString() : QStringLiteral("<b>%1</b>: ").arg(esc(i.subject)))
                  << esc(i.evidence);
                if (!i.action.isEmpty())
                    t << "<br><span class=\"action\">" << esc(i.action) << "</span>";
                t << "<br>";
            }
            t << "</td></tr>\n";
        }
        t << "</table></section>\n";
    }
    t << "</section>\n</body></html>\n";
    return h;
}

QString writeRackReport(const RackCheck& rack, const Workspace& ws, const QString& path) {
    const auto format = reportFormatOf(path);
    if (!format)
        return QStringLiteral("%1: a report is .html or .pdf").arg(path);
    QString error;
    if (*format == ReportFormat::Html) {
        const QString svg = ws.hosts().empty() ? QString() : diagramSvg(ws, rack, &error);
        if (!error.isEmpty())
            return error;
        QSaveFile f(path);
        const QByteArray bytes = rackReportHtml(rack, svg).toUtf8();
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
            return QStringLiteral("%1: %2").arg(path, f.errorString());
        return {};
    }
    // PDF: Qt's rich text draws no inline SVG, so the rack comes as a picture of the same drawing.
    QTextDocument doc;
    QString html = rackReportHtml(rack, {});
    if (!ws.hosts().empty()) {
        const Diagram d = buildDiagram(ws.diagramInput());
        ExportOptions eo;
        const QSizeF size = composedSize(d, eo);
        const double scale = std::min(2.0, 2400.0 / std::max(1.0, size.width()));
        QImage image((size * scale).toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(scale, scale);
        paintComposed(p, d, eo);
        p.end();
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("rack.png")), image);
        html.replace(QLatin1String("<section id=\"servers\">"),
                     QStringLiteral(
                         "<section id=\"rack\"><h2>The rack</h2><img src=\"rack.png\" width=\"%1\"></section>"
                         "<section id=\"servers\">")
                         .arg(640));
    }
    doc.setHtml(html);
    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setTitle(QStringLiteral("Rack check"));
    pdf.setCreator(QStringLiteral("rackscope " RACKSCOPE_VERSION));
    doc.print(&pdf);
    if (!QFile::exists(path))
        return QStringLiteral("%1: the PDF could not be written").arg(path);
    return {};
}

} // namespace rackscope
