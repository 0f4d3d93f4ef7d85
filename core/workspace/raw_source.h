#pragma once
#include <QByteArray>
#include <QString>

namespace rackscope {

// One source as read: where it came from, the server it is (when a cluster
// file or a session names it), and its bytes, kept so a session can be saved with them.
struct RawSource {
    QString location;
    QString host;
    QByteArray content;
};

} // namespace rackscope
