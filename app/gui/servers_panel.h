#pragma once
// The Servers dock: each server with its connection stage or where it came
// from, the seconds it took, and why it failed (in the row and its tooltip).
// With a fabric, servers are grouped by pod, as the diagram draws them.
#include "diagram/diagram.h"

#include <QTreeWidget>

namespace rackscope::gui {

class ServersPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit ServersPanel(QWidget* parent = nullptr);
    void retranslate();

    QTreeWidgetItem* item(const QString& host); // made when the server is not listed yet
    void setStatus(const QString& host, const QString& status);
    void setFailed(const QString& host, const QString& why);
    void setSeconds(const QString& host, double seconds);
    void markFlagged(const QStringList& hosts);
    // Groups the servers as the diagram's pods (those cabled to the same leaves), titled by its captions;
    // servers in no pod under "not on the fabric". No pods, no groups.
    void group(const std::vector<DiagramGroup>& pods);

signals:
    void serverChosen(const QString& host);
};

} // namespace rackscope::gui
