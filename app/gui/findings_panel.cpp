#include "findings_panel.h"

#include <QHeaderView>

namespace rackscope::gui {
namespace {

enum Column { SeverityColumn, Code, Subject, Message };

// Which item a finding is about, by its target: a device of its server, the server, else what the
// fabric's nodes and links it names are drawn as.
QString targetOf(const Diagram& d, const Workspace& ws, const QString& host, const Finding& f) {
    const auto drawn = [&](const QString& id) { return d.find(id) >= 0; };
    const QString server = f.target.host.isEmpty() ? host : f.target.host;
    for (const QString& device : f.target.devices)
        if (const QString id = server + QLatin1Char('/') + device; drawn(id))
            return id;
    if (const QString id = QStringLiteral("host:") + server; !server.isEmpty() && drawn(id))
        return id;
    if (!ws.fabric())
        return {};
    const Fabric& fabric = *ws.fabric();
    QStringList nodes = f.target.nodes;
    for (std::size_t l : f.target.links)
        if (l < fabric.links.size())
            nodes << fabric.links[l].a << fabric.links[l].b;
    for (const QString& id : nodes)
        if (const FabricNode* n = fabric.node(id))
            if (QString item = fabricNodeItemId(*n, ws.hosts(), drawn); !item.isEmpty())
                return item;
    return {};
}

} // namespace

FindingsPanel::FindingsPanel(QWidget* parent) : QTreeWidget(parent) {
    setObjectName(QStringLiteral("findings"));
    setRootIsDecorated(false);
    retranslate(); // the columns, before their sizes are set
    header()->setSectionResizeMode(Message, QHeaderView::Stretch);
    const auto choose = [this](QTreeWidgetItem* it) {
        emit itemChosen(it->data(SeverityColumn, Qt::UserRole).toString());
    };
    connect(this, &QTreeWidget::itemActivated, this, choose);
    connect(this, &QTreeWidget::itemClicked, this, choose);
}

void FindingsPanel::retranslate() {
    setHeaderLabels({tr("Severity"), tr("Code"), tr("Subject"), tr("Message")});
    // The sentences again in the language now installed, from their sources and values.
    for (int i = 0; i < topLevelItemCount() && i < int(shown_.size()); ++i) {
        const QString text = findingText(shown_[size_t(i)]);
        topLevelItem(i)->setText(Message, text);
        topLevelItem(i)->setToolTip(Message, text);
    }
}

void FindingsPanel::showFindings(const WorkspaceView& view) {
    clear();
    shown_.clear();
    for (const WorkspaceFinding& wf : view.findings) {
        const Finding& f = wf.finding;
        shown_.push_back(f);
        const QString subject = (wf.host.isEmpty() ? QString() : wf.host + QStringLiteral(": ")) +
                                f.subjects.join(QStringLiteral(", "));
        const QString text = findingText(f);
        auto* it = new QTreeWidgetItem(this, {severityText(f.severity), f.code, subject, text});
        it->setToolTip(Message, text);
        it->setData(SeverityColumn, Qt::UserRole, targetOf(view.diagram, view.workspace, wf.host, f));
        if (f.severity == Severity::Error)
            it->setForeground(SeverityColumn, QBrush(Qt::red));
        else if (f.severity == Severity::Warning)
            it->setForeground(SeverityColumn, QBrush(QColor(0xc0, 0x60, 0x00)));
    }
}

} // namespace rackscope::gui
