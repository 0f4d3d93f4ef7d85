#include "job_watch_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rackscope::gui {
namespace {

// One line of the timeline: when, and what the answer said.
QString timelineText(const RasSnapshot& s, const std::optional<RasVerdict>& v) {
    const QString at = s.at.toString(QStringLiteral("HH:mm:ss"));
    if (!s.answer.error.isEmpty())
        return JobWatchPanel::tr("%1  no answer: %2").arg(at, s.answer.error);
    if (v && v->healthy())
        return JobWatchPanel::tr("%1  no rank missing, dead or behind").arg(at);
    int severe = 0;
    if (v)
        for (const RasGroupVerdict& g : v->groups)
            severe += g.severe ? 1 : 0;
    return JobWatchPanel::tr("%1  %n group(s) of ranks named, %2 missing or dead", nullptr,
                             v ? int(v->groups.size()) : 0)
        .arg(at)
        .arg(severe);
}

} // namespace

JobWatchPanel::JobWatchPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    stop_ = new QPushButton(this);
    connect(stop_, &QPushButton::clicked, this, &JobWatchPanel::stopRequested);
    top->addWidget(status_, 1);
    top->addWidget(stop_);
    layout->addLayout(top);
    auto* split = new QSplitter(Qt::Vertical, this);
    verdict_ = new QTreeWidget(split);
    verdict_->setHeaderHidden(true);
    verdict_->setWordWrap(true);
    timeline_ = new QListWidget(split);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    connect(timeline_, &QListWidget::currentRowChanged, this, &JobWatchPanel::show);
    connect(verdict_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        const QString host = item->data(0, Qt::UserRole).toString();
        if (!host.isEmpty())
            emit itemChosen(host, item->data(0, Qt::UserRole + 1).toString());
    });
    retranslate();
}

void JobWatchPanel::retranslate() {
    stop_->setText(tr("Stop watching"));
    stop_->setEnabled(watching_);
    status_->setText(where_.isEmpty() ? tr("No job watched: Run → Watch a running NCCL job…")
                     : watching_      ? tr("Watching the NCCL job at %1").arg(where_)
                                      : tr("Stopped watching the NCCL job at %1").arg(where_));
    for (int i = 0; i < timeline_->count(); ++i)
        timeline_->item(i)->setText(timelineText(entries_[size_t(i)].snapshot, entries_[size_t(i)].verdict));
    if (timeline_->currentRow() >= 0)
        show(timeline_->currentRow());
}

void JobWatchPanel::setWatching(const QString& where, bool watching) {
    if (watching && where != where_) {
        entries_.clear();
        timeline_->clear();
        verdict_->clear();
    }
    if (!where.isEmpty())
        where_ = where;
    watching_ = watching;
    retranslate();
}

void JobWatchPanel::addSnapshot(const RasSnapshot& s, const std::optional<RasVerdict>& verdict) {
    const bool following = timeline_->currentRow() < 0 || timeline_->currentRow() == timeline_->count() - 1;
    entries_.push_back({s, verdict});
    timeline_->addItem(timelineText(s, verdict));
    if (timeline_->count() > kMaxAnswers) {
        entries_.erase(entries_.begin());
        delete timeline_->takeItem(0);
    }
    if (following)
        timeline_->setCurrentRow(timeline_->count() - 1);
}

QString JobWatchPanel::summary() const {
    return timeline_->count() ? timeline_->item(timeline_->count() - 1)->text() : QString();
}

void JobWatchPanel::show(int index) {
    verdict_->clear();
    if (index < 0 || size_t(index) >= entries_.size())
        return;
    const Entry& e = entries_[size_t(index)];
    const NcclRasAnswer& a = e.snapshot.answer;
    if (!a.error.isEmpty()) {
        new QTreeWidgetItem(verdict_, {tr("No answer: %1").arg(a.error)});
        return;
    }
    auto* head = new QTreeWidgetItem(
        verdict_,
        {tr("NCCL %1, %2 report in %3 s")
             .arg(a.report->ncclVersion.isEmpty() ? tr("(version not given)") : a.report->ncclVersion,
                  a.report->format)
             .arg(e.snapshot.seconds, 0, 'f', 2)});
    for (const QString& n : a.notes)
        new QTreeWidgetItem(head, {n});
    if (!a.report->repaired.isEmpty())
        new QTreeWidgetItem(head, {a.report->repaired});
    if (e.verdict->healthy()) {
        new QTreeWidgetItem(verdict_, {tr("No rank is missing, dead or behind")});
        return;
    }
    for (const RasGroupVerdict& g : e.verdict->groups) {
        auto* item = new QTreeWidgetItem(verdict_, {g.text});
        item->setForeground(0, g.severe ? QColor(0xc6, 0x28, 0x28) : QColor(0xb2, 0x6a, 0x00));
        item->setData(0, Qt::UserRole, g.server);
        item->setData(0, Qt::UserRole + 1, g.gpus.value(0));
        item->setToolTip(0, g.text);
        for (const QString& n : g.next) {
            auto* next = new QTreeWidgetItem(item, {tr("Next: %1").arg(n)});
            next->setToolTip(0, n);
        }
        item->setExpanded(true);
    }
    for (const QString& address : e.verdict->unplaced)
        new QTreeWidgetItem(verdict_, {tr("%1 is not among the servers shown").arg(address)});
}

} // namespace rackscope::gui
