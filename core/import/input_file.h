#pragma once
// What every file reader shares: a bounded read with one-line errors, and
// the XML parse error that explains why a document was refused.
#include <QByteArray>
#include <QString>

namespace rackscope {

// Reads at most maxBytes; an empty error means `content` holds the file. A FIFO or device is read too
// (`<(ssh node nvidia-smi topo -m)`), but never waited on for ever: a FIFO no one writes to reads as
// empty, and one that stays silent for idleMs is given up with a reason.
QString readInputFile(const QString& path, qint64 maxBytes, QByteArray* content, int idleMs = 30000);
// The same, with no "empty" check: for files an empty one is fine for (a key, a certificate).
QString readBoundedFile(const QString& path, qint64 maxBytes, QByteArray* content, int idleMs = 30000);
// "malformed XML at line N: ..." where the document is not well-formed, else empty.
QString xmlParseError(const QByteArray& xml);

} // namespace rackscope
