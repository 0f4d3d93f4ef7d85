#include "diagram.h"

#include <QHash>
#include <algorithm>
#include <array>

namespace rackscope {
namespace {

constexpr std::array<std::pair<ItemKind, const char*>, kItemKinds> kKinds{
    {{ItemKind::Core, "core"},
     {ItemKind::Spine, "spine"},
     {ItemKind::Leaf, "leaf"},
     {ItemKind::Switch, "switch"},
     {ItemKind::Host, "host"},
     {ItemKind::Package, "package"},
     {ItemKind::Numa, "numa"},
     {ItemKind::HostBridge, "host-bridge"},
     {ItemKind::PciSwitch, "pcie-switch"},
     {ItemKind::Gpu, "gpu"},
     {ItemKind::Nic, "nic"},
     {ItemKind::NvSwitch, "nvswitch"},
     {ItemKind::Other, "pci-device"}}};

constexpr std::array<const char*, kHighlightKinds> kHighlights{
    "cross-socket", "no-gpudirect", "pcie-degraded", "link-below-speed", "port-down",
    "rail-break",   "slow-host",    "run-transport", "nic-through-peer", "nvlink-fabric",
    "check-failed", "check-warned", "job-rank"};

} // namespace

QString itemKindName(ItemKind kind) {
    for (const auto& [k, name] : kKinds)
        if (k == kind)
            return QLatin1String(name);
    return {};
}

QString highlightKindName(HighlightKind kind) {
    return QLatin1String(kHighlights[static_cast<std::size_t>(kind)]);
}

std::optional<HighlightKind> highlightKindFromName(const QString& name) {
    for (std::size_t i = 0; i < kHighlights.size(); ++i)
        if (name == QLatin1String(kHighlights[i]))
            return static_cast<HighlightKind>(i);
    return std::nullopt;
}

bool DiagramItem::container() const {
    return kind == ItemKind::Host || kind == ItemKind::Package || kind == ItemKind::Numa ||
           kind == ItemKind::HostBridge || kind == ItemKind::PciSwitch;
}

namespace {

// The ends of a name from each separator on, shortest first: "a-b-c" -> "c", "b-c", "a-b-c".
QStringList endsOf(const QString& name) {
    QStringList ends;
    for (int i = int(name.size()) - 1; i > 0; --i)
        if (QStringLiteral("-_.:/ ").contains(name[i - 1]))
            ends << name.mid(i);
    ends << name;
    return ends;
}

} // namespace

void giveShortLabels(Diagram& d) {
    const auto family = [](ItemKind k) {
        return k == ItemKind::Host ? 0
               : k == ItemKind::Core || k == ItemKind::Spine || k == ItemKind::Leaf || k == ItemKind::Switch
                   ? 1
                   : -1;
    };
    std::array<QHash<QString, int>, 2> uses; // how many names of a family have each end
    for (const DiagramItem& it : d.items)
        if (const int f = family(it.kind); f >= 0)
            for (const QString& end : endsOf(it.label))
                ++uses[std::size_t(f)][end];
    for (DiagramItem& it : d.items)
        if (const int f = family(it.kind); f >= 0) {
            it.shortLabel = it.label;
            for (const QString& end : endsOf(it.label))
                if (uses[std::size_t(f)].value(end) == 1) {
                    it.shortLabel = end;
                    break;
                }
        }
}

double labelWidth(const QString& text, double pixels) {
    double ems = 0; // DejaVu Sans Bold: capitals and digits up to about 0.78 em, lower case 0.68
    for (const QChar c : text)
        ems += c.isUpper() || c.isDigit() ? 0.78 : c.isLower() ? 0.68 : c.isSpace() ? 0.35 : 0.5;
    return ems * pixels;
}

QRectF portRect(const DiagramItem& nic, int port) {
    constexpr double kPortW = 14, kPortH = 8, kPortGap = 4;
    const int n = int(nic.ports.size());
    const double w = std::clamp((nic.rect.width() - 46) / n - kPortGap, 3.0, kPortW);
    const double left = nic.rect.right() - 6 - n * (w + kPortGap) + kPortGap;
    return {left + port * (w + kPortGap), nic.rect.top() - kPortH / 2, w, kPortH};
}

int Diagram::find(const QString& id) const {
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].id == id)
            return int(i);
    return -1;
}

std::vector<int> Diagram::search(const QString& text) const {
    std::vector<int> found;
    const QString t = text.trimmed();
    if (t.isEmpty())
        return found;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const DiagramItem& it = items[i];
        for (const QString* field : {&it.label, &it.detail, &it.pci, &it.id})
            if (field->contains(t, Qt::CaseInsensitive)) {
                found.push_back(int(i));
                break;
            }
    }
    return found;
}

std::vector<int> Diagram::children(int item) const {
    std::vector<int> out;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].parent == item)
            out.push_back(int(i));
    return out;
}

std::vector<int> Diagram::pathPartners(int item) const {
    std::vector<int> out;
    const auto add = [&](int i) {
        if (i != item && std::find(out.begin(), out.end(), i) == out.end())
            out.push_back(i);
    };
    for (const DiagramLink& l : links)
        if (l.kind == LinkKind::GpuNic && (l.a == item || l.b == item))
            add(l.a == item ? l.b : l.a);
    for (const Highlight& h : highlights)
        if (h.kind == HighlightKind::CrossSocket || h.kind == HighlightKind::NoGpuDirect ||
            h.kind == HighlightKind::NicThroughPeer)
            if (std::find(h.items.begin(), h.items.end(), item) != h.items.end())
                for (int i : h.items)
                    add(i);
    return out;
}

std::vector<const Highlight*> Diagram::highlightsOf(int item) const {
    std::vector<const Highlight*> out;
    for (const Highlight& h : highlights)
        for (int i : h.items)
            if (i == item) {
                out.push_back(&h);
                break;
            }
    return out;
}

} // namespace rackscope
