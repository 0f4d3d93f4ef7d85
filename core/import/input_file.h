#pragma once
// What every file reader shares: a bounded read with one-line errors, and
// the XML parse error that explains why a document was refused.
#include <QByteArray>
#include <QString>

namespace rackscope {

// Reads at most maxBytes; an empty error means `content` holds the file.
QString readInputFile(const QString& path, qint64 maxBytes, QByteArray* content);
// "malformed XML at line N: ..." where the document is not well-formed, else empty.
QString xmlParseError(const QByteArray& xml);

} // namespace rackscope
