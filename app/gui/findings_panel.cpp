#include "findings_panel.h"

#include <QHeaderView>

namespace rackscope::gui {
namespace {

enum Column { SeverityColumn, Code, Subject, Message };

// Which item a finding is about: a device of its host, else the host, else a switch by name.
QString targetOf(const Diagram& d, const QString& host, const QStringList& subjects) {
    for (const QString& s : subjects)
        if (!host.isEmpty() && d.find(host + QLatin1Char('/') + s) >= 0)
            return host + QLatin1Char('/') + s;
    for (const QString& s : subjects) // a run's findings name "host/GPU0"
        if (d.find(s) >= 0)
            return s;
    if (!host.isEmpty())
        return QStringLiteral("host:") + host;
    for (const QString& s : subjects) {
        const QString first = s.section(QStringLiteral(" - "), 0, 0).section(QLatin1Char('['), 0, 0);
        const QString asHost = QStringLiteral("host:") + first.section(QLatin1Char(' '), 0, 0);
        if (d.find(asHost) >= 0)
            return asHost;
        for (const DiagramItem& it : d.items)
            if (it.label == first)
                return it.id;
    }
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
}

void FindingsPanel::showFindings(const WorkspaceView& view) {
    clear();
    for (const WorkspaceFinding& wf : view.findings) {
        const Finding& f = wf.finding;
        const QString subject = (wf.host.isEmpty() ? QString() : wf.host + QStringLiteral(": ")) +
                                f.subjects.join(QStringLiteral(", "));
        auto* it = new QTreeWidgetItem(this, {severityName(f.severity), f.code, subject, f.message});
        it->setToolTip(Message, f.message);
        it->setData(SeverityColumn, Qt::UserRole, targetOf(view.diagram, wf.host, f.subjects));
        if (f.severity == Severity::Error)
            it->setForeground(SeverityColumn, QBrush(Qt::red));
        else if (f.severity == Severity::Warning)
            it->setForeground(SeverityColumn, QBrush(QColor(0xc0, 0x60, 0x00)));
    }
}

} // namespace rackscope::gui
