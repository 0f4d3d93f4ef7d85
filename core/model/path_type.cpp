#include "path_type.h"

namespace rackscope {

QString pathTypeName(PathType type, std::optional<int> nvlinks) {
    switch (type) {
    case PathType::X:
        return QStringLiteral("X");
    case PathType::NV:
        return nvlinks ? QStringLiteral("NV%1").arg(*nvlinks) : QStringLiteral("NV");
    case PathType::PIX:
        return QStringLiteral("PIX");
    case PathType::PXB:
        return QStringLiteral("PXB");
    case PathType::P2C:
        return QStringLiteral("P2C");
    case PathType::PXN:
        return QStringLiteral("PXN");
    case PathType::PHB:
        return QStringLiteral("PHB");
    case PathType::NODE:
        return QStringLiteral("NODE");
    case PathType::SYS:
        return QStringLiteral("SYS");
    }
    return {};
}

std::optional<PathType> parsePathType(const QString& text, int* nvlinks) {
    const QString t = text.trimmed();
    if (t == QLatin1String("X"))
        return PathType::X;
    if (t == QLatin1String("PIX"))
        return PathType::PIX;
    if (t == QLatin1String("PXB"))
        return PathType::PXB;
    if (t == QLatin1String("P2C"))
        return PathType::P2C;
    if (t == QLatin1String("PXN"))
        return PathType::PXN;
    if (t == QLatin1String("PHB"))
        return PathType::PHB;
    if (t == QLatin1String("NODE"))
        return PathType::NODE;
    if (t == QLatin1String("SYS") || t == QLatin1String("SOC"))
        return PathType::SYS;
    if (t.startsWith(QLatin1String("NV")) && t.size() > 2) {
        bool ok = false;
        const int count = t.mid(2).toInt(&ok);
        if (!ok || count <= 0)
            return std::nullopt;
        if (nvlinks)
            *nvlinks = count;
        return PathType::NV;
    }
    return std::nullopt;
}

int ncclRank(PathType type) {
    switch (type) {
    case PathType::X:
        return 0;
    case PathType::NV:
        return 1;
    case PathType::PIX:
        return 2;
    case PathType::PXB:
        return 3;
    case PathType::P2C:
        return 4;
    case PathType::PXN:
        return 5;
    case PathType::PHB:
    case PathType::NODE:
        return 6;
    case PathType::SYS:
        return 7;
    }
    return 7;
}

} // namespace rackscope
