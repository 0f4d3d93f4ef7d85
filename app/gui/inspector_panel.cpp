#include "inspector_panel.h"

#include "render/diagram_style.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QStyledItemDelegate>

namespace rackscope::gui {
namespace {

// Rows as tall as their value wrapped in its column's width: a long value wraps instead of ending in "…".
class WrappingDelegate : public QStyledItemDelegate {
public:
    explicit WrappingDelegate(QTreeView* view) : QStyledItemDelegate(view), view_(view) {}
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        if (index.column() != 1) // the fact's name keeps its one line
            return QStyledItemDelegate::sizeHint(option, index);
        QStyleOptionViewItem o = option;
        initStyleOption(&o, index);
        const int width = std::max(40, view_->header()->sectionSize(index.column()) - 12);
        const QRect text = o.fontMetrics.boundingRect(QRect(0, 0, width, 1 << 20),
                                                      Qt::TextWordWrap | Qt::TextWrapAnywhere, o.text);
        return {width, std::max(QStyledItemDelegate::sizeHint(option, index).height(), text.height() + 4)};
    }

private:
    QTreeView* view_;
};

} // namespace

InspectorPanel::InspectorPanel(QWidget* parent) : QTreeWidget(parent) {
    setObjectName(QStringLiteral("inspector"));
    setRootIsDecorated(false);
    setWordWrap(true);
    retranslate(); // the columns, before their sizes are set
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setTextElideMode(Qt::ElideNone);
    setItemDelegate(new WrappingDelegate(this));
    connect(header(), &QHeaderView::sectionResized, this, [this] { scheduleDelayedItemsLayout(); });
}

void InspectorPanel::retranslate() {
    setHeaderLabels({tr("Fact"), tr("Value")});
}

QTreeWidgetItem* InspectorPanel::row(const QString& fact, const QString& value) {
    auto* r = new QTreeWidgetItem(this, {fact, value});
    r->setToolTip(1, value);
    return r;
}

void InspectorPanel::showItem(const WorkspaceView& view, int item) {
    clear();
    const Diagram& d = view.diagram;
    if (item < 0 || item >= int(d.items.size()))
        return;
    const DiagramItem& it = d.items[size_t(item)];
    row(tr("item"), QStringLiteral("%1 (%2)").arg(it.label, itemKindTitle(it.kind)));
    if (!it.detail.isEmpty())
        row(tr("summary"), it.detail);
    for (const auto& [fact, value] : it.facts)
        row(QCoreApplication::translate("rackscope", fact.toLatin1().constData()), value);
    for (const Highlight* h : d.highlightsOf(item)) {
        QTreeWidgetItem* r = row(highlightTitle(h->kind),
                                 (h->path.isEmpty() ? QString() : h->path + QStringLiteral(": ")) + h->why);
        r->setForeground(0, highlightColour(h->kind));
    }
    // The GPU's paths to every NIC (and the NIC's to every GPU), as the analysis found them.
    const InspectedHost* h = view.workspace.host(it.host);
    if (!h || (it.kind != ItemKind::Gpu && it.kind != ItemKind::Nic))
        return;
    for (const GpuNicPair& p : h->analysis.gpuNic) {
        if (p.gpu != it.label && p.nic != it.label)
            continue;
        const QString gpudirect = !p.gpudirect ? tr("unknown") : *p.gpudirect ? tr("yes") : tr("no");
        row(it.kind == ItemKind::Gpu ? tr("path to %1").arg(p.nic) : tr("path from %1").arg(p.gpu),
            tr("%1; GPUDirect RDMA %2%3")
                .arg(!p.path      ? tr("unknown")
                     : p.ncclPath ? tr("%1, NCCL: %2").arg(pathTypeName(*p.path), pathTypeName(*p.ncclPath))
                                  : pathTypeName(*p.path),
                     gpudirect,
                     p.gpudirectReason.isEmpty() ? QString()
                                                 : QStringLiteral(" (%1)").arg(p.gpudirectReason)));
    }
}

} // namespace rackscope::gui
