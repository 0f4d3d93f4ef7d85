#pragma once
#include <QString>
#include <compare>
#include <optional>

namespace rackscope {

// A PCI function address, dddd:bb:dd.f.
struct PciAddress {
    unsigned domain = 0;
    unsigned bus = 0;
    unsigned device = 0;
    unsigned function = 0;

    // Accepts "dddd:bb:dd.f" and the short "bb:dd.f"; case-insensitive hex.
    static std::optional<PciAddress> parse(const QString& text);
    QString toString() const;
    auto operator<=>(const PciAddress&) const = default;
};

} // namespace rackscope
