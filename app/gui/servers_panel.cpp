#include "servers_panel.h"

#include <QHeaderView>
#include <map>

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

// A pod, often a rack, is the servers under the same leaves.
void ServersPanel::group(const Fabric& fabric, const FabricAnalysis& analysis) {
    // A fabric without switches (this machine's NICs, servers whose LLDP sees nothing) groups nothing.
    if (std::none_of(analysis.hosts.begin(), analysis.hosts.end(),
                     [](const FabricHost& h) { return !h.leaves.isEmpty(); }))
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
    std::map<QString, QTreeWidgetItem*> groups;
    for (QTreeWidgetItem* it : items) {
        QStringList leaves;
        if (const FabricHost* h = analysis.host(it->text(Name)))
            for (const QString& id : h->leaves)
                leaves << (fabric.node(id) ? switchName(*fabric.node(id)) : id);
        leaves.sort();
        const QString key =
            leaves.isEmpty() ? tr("not on the fabric")
            : leaves.size() == 1
                ? leaves.front()
                : tr("%1 leaves: %2").arg(leaves.size()).arg(leaves.join(QStringLiteral(", ")));
        QTreeWidgetItem*& g = groups[key];
        if (!g) {
            g = new QTreeWidgetItem(this, {key});
            g->setData(Name, Qt::UserRole, kGroup);
            g->setFirstColumnSpanned(true);
        }
        g->addChild(it);
    }
    setRootIsDecorated(true);
    expandAll();
}

} // namespace rackscope::gui
