#include "diagram.h"

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
    "rail-break",   "slow-host",    "run-transport", "nic-through-peer"};

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
