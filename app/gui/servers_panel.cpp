#include "servers_panel.h"

#include <QHeaderView>

namespace rackscope::gui {
namespace {
enum Column { Name, Status, Seconds };
const QString kGroup = QStringLiteral("group");
} // namespace

ServersPanel::ServersPanel(QWidget* parent) : QTreeWidget(parent) {
    setObjectName(QStringLiteral("servers"));
    setRootIsDecorated(false);
    retranslate(); // the columns, before their sizes are set
    // Nothing cut: each column as wide as its text, scrolled sideways when the dock is narrow.
    header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    header()->setStretchLastSection(false);
    setTextElideMode(Qt::ElideNone);
    connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it) {
        if (it->data(Name, Qt::UserRole).toString().isEmpty())
            emit serverChosen(it->text(Name));
    });
}

void ServersPanel::retranslate() {
    setHeaderLabels({tr("Server"), tr("Status"), tr("Seconds")});
}

QTreeWidgetItem* ServersPanel::item(const QString& host) {
    for (QTreeWidgetItem* found : findItems(host, Qt::MatchExactly | Qt::MatchRecursive, Name))
        if (found->childCount() == 0 && found->data(Name, Qt::UserRole).toString().isEmpty())
            return found;
    return new QTreeWidgetItem(this, {host});
}

void ServersPanel::setStatus(const QString& host, const QString& status) {
    QTreeWidgetItem* it = item(host);
    it->setText(Status, status);
    it->setToolTip(Status, status);
    it->setForeground(Status, QBrush());
}

void ServersPanel::setFailed(const QString& host, const QString& why) {
    QTreeWidgetItem* it = item(host);
    it->setText(Status, why);
    it->setToolTip(Status, why);
    it->setForeground(Status, QBrush(Qt::red));
}

void ServersPanel::setSeconds(const QString& host, double seconds) {
    item(host)->setText(Seconds, QString::number(seconds, 'f', 2));
}

void ServersPanel::markFlagged(const QStringList& hosts) {
    for (const QString& h : hosts) {
        QTreeWidgetItem* it = item(h);
        it->setForeground(Name, QBrush(Qt::red));
        it->setText(Status, tr("flagged slow by the load runs"));
    }
}

void ServersPanel::group(const std::vector<DiagramGroup>& pods) {
    if (pods.empty())
        return;
    std::vector<QTreeWidgetItem*> items;
    while (topLevelItemCount()) {
        QTreeWidgetItem* top = takeTopLevelItem(0);
        if (top->data(Name, Qt::UserRole).toString().isEmpty()) {
            items.push_back(top);
            continue;
        }
        for (QTreeWidgetItem* child : top->takeChildren())
            items.push_back(child);
        delete top;
    }
    std::vector<QTreeWidgetItem*> groups(pods.size() + 1, nullptr); // the last: servers in no pod
    const auto groupOf = [&](const QString& host) {
        std::size_t i = 0;
        while (i < pods.size() && !pods[i].servers.contains(host))
            ++i;
        QTreeWidgetItem*& g = groups[i];
        if (!g) {
            const bool inPod = i < pods.size();
            g = new QTreeWidgetItem({inPod ? pods[i].captions.front() : tr("not on the fabric")});
            if (inPod)
                g->setToolTip(Name, tr("under %1").arg(pods[i].leaves.join(QStringLiteral(", "))));
            g->setData(Name, Qt::UserRole, kGroup);
        }
        return g;
    };
    for (QTreeWidgetItem* it : items)
        groupOf(it->text(Name))->addChild(it);
    for (QTreeWidgetItem* g : groups) // in the diagram's order of pods
        if (g) {
            addTopLevelItem(g);
            g->setFirstColumnSpanned(true);
        }
    setRootIsDecorated(true);
    expandAll();
}

} // namespace rackscope::gui
