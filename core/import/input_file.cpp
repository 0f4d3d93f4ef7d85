#include "input_file.h"

#include <QFile>
#include <QFileInfo>
#include <QXmlStreamReader>

namespace rackscope {

QString readInputFile(const QString& path, qint64 maxBytes, QByteArray* content) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return QStringLiteral("cannot open: %1").arg(file.errorString());
    if (QFileInfo(path).isDir()) return QStringLiteral("is a directory");
    *content = file.read(maxBytes + 1);
    if (content->size() > maxBytes)
        return QStringLiteral("larger than the %1 MiB limit for this kind of file").arg(maxBytes / (1024 * 1024));
    if (content->trimmed().isEmpty()) return QStringLiteral("the file is empty");
    return {};
}

QString xmlParseError(const QByteArray& xml) {
    QXmlStreamReader r(xml);
    while (!r.atEnd()) r.readNext();
    return r.hasError() ? QStringLiteral("malformed XML at line %1: %2").arg(r.lineNumber()).arg(r.errorString())
                        : QString();
}

} // namespace rackscope
