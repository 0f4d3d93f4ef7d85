// `nvidia-imex-ctl -N`: a legend, the time, "Nodes:" with one line per node ("Node #0   - 172.31.48.81 -
// READY - Version: 570.172"; no Version column before 570.1xx), the connectivity matrix ("Nodes From\To"
// header, a row per node of C/N/I/R/D/A/!V!/!M!) and "Domain State: UP".
#include "nvlink_text_readers.h"

#include <QRegularExpression>

namespace rackscope {
namespace {

const QRegularExpression kNode(QStringLiteral(
    "^Node #(\\d+)\\s+-\\s+(\\S+)\\s+-\\s+(\\S(?:.*?\\S)?)\\s*(?:-\\s*Version:\\s*(\\S+))?\\s*$"));
const QRegularExpression kHeader(QStringLiteral("^Nodes From\\\\To\\s+(.*)$"));
const QRegularExpression kRow(QStringLiteral("^(\\d+)\\s+(.*)$"));
const QRegularExpression kDomain(QStringLiteral("^Domain State:\\s*(\\S+)"));
const QRegularExpression
    kTime(QStringLiteral("^\\d{1,2}/\\d{1,2}/\\d{4} \\d{1,2}:\\d{2}:\\d{2}(?:\\.\\d+)?$"));
const QRegularExpression kSpace(QStringLiteral("\\s+"));
const QStringList kCodes = {QStringLiteral("C"),   QStringLiteral("N"),  QStringLiteral("I"),
                            QStringLiteral("R"),   QStringLiteral("D"),  QStringLiteral("A"),
                            QStringLiteral("!V!"), QStringLiteral("!M!")};

} // namespace

void readImexCtl(const std::vector<SourceLine>& lines, const QString& host, const QString& location,
                 NvlinkTextRead* out) {
    std::optional<ImexView> view;
    int columns = -1, found = 0;
    auto start = [&](const SourceLine& l) {
        if (!view) {
            view.emplace();
            view->host = host;
            view->source = QStringLiteral("%1:%2").arg(location).arg(l.number);
        }
    };
    auto finish = [&] {
        if (view) {
            out->fabric.imex.push_back(std::move(*view));
            ++found;
        }
        view.reset();
        columns = -1;
    };
    for (const SourceLine& l : lines) {
        const QString text = l.text.trimmed();
        if (text == QLatin1String("Connectivity Table Legend:")) {
            finish(); // a second capture in the same paste
            start(l);
        } else if (kTime.match(text).hasMatch() && view) {
            view->taken = text;
        } else if (const auto n = kNode.match(text); n.hasMatch()) {
            start(l);
            view->nodes.push_back({n.captured(1).toInt(), n.captured(2), n.captured(3), n.captured(4)});
        } else if (const auto h = kHeader.match(text); h.hasMatch()) {
            start(l);
            columns = int(h.captured(1).split(kSpace, Qt::SkipEmptyParts).size());
        } else if (const auto r = kRow.match(text); r.hasMatch() && columns > 0) {
            const QStringList codes = r.captured(2).split(kSpace, Qt::SkipEmptyParts);
            const bool known =
                std::all_of(codes.begin(), codes.end(), [](const QString& c) { return kCodes.contains(c); });
            if (!known || int(codes.size()) != columns) {
                out->notes << QStringLiteral("%1:%2: connectivity row of node %3 has %4 entries for %5 nodes")
                                  .arg(location)
                                  .arg(l.number)
                                  .arg(r.captured(1))
                                  .arg(codes.size())
                                  .arg(columns);
                continue;
            }
            if (int(view->connectivity.size()) == r.captured(1).toInt())
                view->connectivity.push_back(codes);
        } else if (const auto d = kDomain.match(text); d.hasMatch()) {
            start(l);
            view->domainState = d.captured(1);
            finish();
        }
    }
    if (view)
        out->notes
            << QStringLiteral("%1: the nvidia-imex-ctl output ends before \"Domain State\"").arg(location);
    finish();
    if (found > 0)
        out->kinds << QStringLiteral("nvidia-imex-ctl -N");
}

} // namespace rackscope
