#pragma once
// How the diagram looks, in one place: the canvas, the exports and the legend
// take their colours and words from here, so they always agree.
#include "diagram/diagram.h"

#include <QColor>
#include <QString>

namespace rackscope {

struct ItemStyle {
    QColor fill, border, text;
};

ItemStyle itemStyle(ItemKind kind);
QColor railColour(int rail); // a fixed palette, the same rail the same colour everywhere
QColor highlightColour(HighlightKind kind);
QString highlightTitle(HighlightKind kind); // "GPU–NIC path crosses the CPU socket"
QString highlightBadge(HighlightKind kind); // a word for a server card's badge: "cross-socket"
// The order a server's verdicts are told in, worst first: its card is outlined in the first one's colour.
int highlightRank(HighlightKind kind);
QString itemKindTitle(ItemKind kind); // "GPU", "PCIe switch"

} // namespace rackscope
