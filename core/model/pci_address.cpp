#include "pci_address.h"

#include <QRegularExpression>

namespace rackscope {

std::optional<PciAddress> PciAddress::parse(const QString& text) {
    static const QRegularExpression re(
        QStringLiteral("^(?:([0-9a-fA-F]{1,8}):)?([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-7])$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    PciAddress a;
    a.domain = m.captured(1).isEmpty() ? 0 : m.captured(1).toUInt(nullptr, 16);
    a.bus = m.captured(2).toUInt(nullptr, 16);
    a.device = m.captured(3).toUInt(nullptr, 16);
    a.function = m.captured(4).toUInt(nullptr, 16);
    if (a.device > 0x1f)
        return std::nullopt;
    return a;
}

QString PciAddress::toString() const {
    return QStringLiteral("%1:%2:%3.%4")
        .arg(domain, 4, 16, QLatin1Char('0'))
        .arg(bus, 2, 16, QLatin1Char('0'))
        .arg(device, 2, 16, QLatin1Char('0'))
        .arg(function);
}

} // namespace rackscope
