#include "rack_check_panel.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rackscope::gui {
namespace {
enum EvidenceColumn { VerdictColumn, SubjectColumn, EvidenceText, ActionColumn };
}

QColor RackCheckPanel::verdictColour(Verdict v) {
    switch (v) {
    case Verdict::Pass:
        return QColor(0xc8, 0xe6, 0xc9);
    case Verdict::Unknown:
        return QColor(0xe0, 0xe0, 0xe0);
    case Verdict::Warn:
        return QColor(0xff, 0xe0, 0x82);
    case Verdict::Fail:
        return QColor(0xef, 0x9a, 0x9a);
    }
    return Qt::white;
}

QString RackCheckPanel::verdictText(Verdict v) {
    switch (v) {
    case Verdict::Pass:
        return tr("pass");
    case Verdict::Unknown:
        return tr("unknown");
    case Verdict::Warn:
        return tr("warn");
    case Verdict::Fail:
        return tr("fail");
    }
    return {};
}

RackCheckPanel::RackCheckPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("rackCheck"));
    run_ = new QPushButton(this);
    run_->setObjectName(QStringLiteral("runRackCheck"));
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("rackCheckSummary"));
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("rackCheckTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setDefaultSectionSize(72);
    evidence_ = new QTreeWidget(this);
    evidence_->setObjectName(QStringLiteral("rackCheckEvidence"));
    evidence_->setRootIsDecorated(false);
    evidence_->setWordWrap(true);
    evidence_->setUniformRowHeights(false);

    auto* top = new QHBoxLayout;
    top->addWidget(run_);
    top->addWidget(summary_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(evidence_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(run_, &QPushButton::clicked, this, &RackCheckPanel::runRequested);
    connect(table_, &QTableWidget::cellClicked, this, &RackCheckPanel::showCell);
    connect(table_, &QTableWidget::cellActivated, this, &RackCheckPanel::showCell);
    retranslate(); // the columns, before their sizes are set
    evidence_->header()->setStretchLastSection(false);
    evidence_->header()->setSectionResizeMode(EvidenceText, QHeaderView::Stretch);
}

void RackCheckPanel::setRunning(bool running) {
    run_->setEnabled(!running);
    if (running)
        summary_->setText(tr("Checking…"));
}

void RackCheckPanel::retranslate() {
    run_->setText(tr("Check the rack"));
    run_->setToolTip(
        tr("Every server the window shows, by every check: counts, links, placement, GPUDirect, "
           "ports, MTU, QoS, cabling, NVLink, versions, and what differs from the rack's majority"));
    evidence_->setHeaderLabels({tr("Verdict"), tr("Subject"), tr("Evidence"), tr("What to do")});
    if (!rack_.servers.empty())
        showCheck(RackCheck(rack_)); // the verdict words and titles in the language now installed
    else
        summary_->setText(tr("No check yet: open or connect to servers, then check the rack."));
}

void RackCheckPanel::fillHeaders() {
    QStringList ids;
    for (const QString& id : columns_)
        ids << id;
    table_->setHorizontalHeaderLabels(ids);
    for (int c = 0; c < int(columns_.size()); ++c)
        if (const CheckInfo* info = checkInfo(columns_[size_t(c)]))
            table_->horizontalHeaderItem(c)->setToolTip(
                QCoreApplication::translate("rackscope", info->title));
}

void RackCheckPanel::showCheck(const RackCheck& rack) {
    rack_ = rack;
    columns_.clear();
    for (const CheckInfo& info : checkCatalogue()) // the catalogue's order, the checks that were run
        for (const ServerCheck& s : rack_.servers)
            if (s.check(QLatin1String(info.id))) {
                columns_.push_back(QLatin1String(info.id));
                break;
            }
    table_->clear();
    table_->setRowCount(int(rack_.servers.size()));
    table_->setColumnCount(int(columns_.size()));
    fillHeaders();
    std::array<int, 4> counts{};
    for (int r = 0; r < int(rack_.servers.size()); ++r) {
        const ServerCheck& s = rack_.servers[size_t(r)];
        ++counts[size_t(s.verdict)];
        auto* head = new QTableWidgetItem(QStringLiteral("%1  %2").arg(s.host, verdictText(s.verdict)));
        head->setBackground(verdictColour(s.verdict));
        head->setToolTip(s.source);
        table_->setVerticalHeaderItem(r, head);
        for (int c = 0; c < int(columns_.size()); ++c) {
            const CheckResult* check = s.check(columns_[size_t(c)]);
            if (!check)
                continue;
            auto* cell = new QTableWidgetItem(verdictText(check->verdict));
            cell->setBackground(verdictColour(check->verdict));
            cell->setData(Qt::UserRole, int(check->verdict));
            if (!check->items.empty())
                cell->setToolTip(check->items.front().evidence);
            table_->setItem(r, c, cell);
        }
    }
    if (rack_.servers.empty())
        summary_->setText(tr("Nothing to check: open or connect to servers first."));
    else
        summary_->setText(tr("%1 servers: %2 pass, %3 warn, %4 fail, %5 unknown (%6)")
                              .arg(rack_.servers.size())
                              .arg(counts[size_t(Verdict::Pass)])
                              .arg(counts[size_t(Verdict::Warn)])
                              .arg(counts[size_t(Verdict::Fail)])
                              .arg(counts[size_t(Verdict::Unknown)])
                              .arg(QLocale().toString(rack_.checkedAt.toLocalTime(), QLocale::ShortFormat)));
    table_->resizeColumnsToContents(); // every check's name whole
    evidence_->clear();
    run_->setEnabled(true);
}

void RackCheckPanel::showCell(int row, int column) {
    if (row < 0 || row >= int(rack_.servers.size()) || column < 0 || column >= int(columns_.size()))
        return;
    const ServerCheck& s = rack_.servers[size_t(row)];
    const CheckResult* check = s.check(columns_[size_t(column)]);
    evidence_->clear();
    if (!check)
        return;
    for (const CheckItem& i : check->items) {
        auto* it = new QTreeWidgetItem(evidence_, {verdictText(i.verdict), i.subject, i.evidence, i.action});
        it->setBackground(VerdictColumn, verdictColour(i.verdict));
        it->setToolTip(EvidenceText, i.evidence);
        it->setToolTip(ActionColumn, i.action);
    }
    evidence_->resizeColumnToContents(VerdictColumn);
    evidence_->resizeColumnToContents(SubjectColumn);
    evidence_->setColumnWidth(ActionColumn, evidence_->viewport()->width() / 3);
    // What the worst item concerns: the server, or its device where one is named.
    QString subject;
    for (const CheckItem& i : check->items)
        if (i.verdict == check->verdict) {
            subject = i.subject;
            break;
        }
    emit itemChosen(s.host, subject);
}

} // namespace rackscope::gui
