#include "runs_panel.h"

#include "report/nccl_tests_report.h"
#include "runs/run_compare.h"

#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>

namespace rackscope::gui {
namespace {

enum Column { Label, Status, Peak, Record };

QString peakText(const NcclTestsRun& run) {
    const auto peak = peakBusbw(run);
    return peak ? QString::number(*peak, 'f', 2) : QString();
}

// A run's finding as its row says it, in the language installed now.
QString findingLine(const QString& where, const Finding& f) {
    const QString text = findingText(f);
    return where.isEmpty() ? text : where + QStringLiteral(": ") + text;
}

} // namespace

void RunsPanel::retranslate() {
    runs_->setHeaderLabels({tr("Run"), tr("Status"), tr("Peak busbw (GB/s)"), tr("Saved as")});
    findings_->setHeaderLabels({tr("Severity"), tr("Code"), tr("Message")});
    for (int i = 0; i < findings_->topLevelItemCount() && i < int(shownFindings_.size()); ++i) {
        const auto& [where, f] = shownFindings_[size_t(i)];
        findings_->topLevelItem(i)->setText(2, findingLine(where, f));
        findings_->topLevelItem(i)->setToolTip(2, findingText(f));
    }
    const QString names[] = {tr("Stop"), tr("Open saved run…"), tr("Baseline…"), tr("Export CSV…"),
                             tr("Export JSON…")};
    for (int i = 0; i < 5; ++i)
        buttons_[i]->setText(names[i]);
    chart_->retranslate();
}

RunsPanel::RunsPanel(QWidget* parent)
    : QWidget(parent), chart_(new RunChart(this)), runs_(new QTreeWidget(this)),
      findings_(new QTreeWidget(this)), console_(new QPlainTextEdit(this)) {
    runs_->setRootIsDecorated(false);
    runs_->header()->setSectionResizeMode(Label, QHeaderView::ResizeToContents);
    findings_->setRootIsDecorated(false);
    console_->setReadOnly(true);
    console_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    console_->setLineWrapMode(QPlainTextEdit::NoWrap);
    console_->setMaximumBlockCount(50000);

    auto* stopButton = buttons_[0] = new QPushButton(this);
    auto* openButton = buttons_[1] = new QPushButton(this);
    auto* baselineButton = buttons_[2] = new QPushButton(this);
    auto* csvButton = buttons_[3] = new QPushButton(this);
    auto* jsonButton = buttons_[4] = new QPushButton(this);
    retranslate();
    connect(stopButton, &QPushButton::clicked, this, &RunsPanel::stop);
    connect(openButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open saved run"), resultsDirectory(),
                                                          tr("Runs (*.rsrun)"));
        if (!path.isEmpty())
            emit recordChosen(path);
    });
    connect(baselineButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Baseline run"), resultsDirectory(), tr("Runs (*.rsrun)"));
        if (!path.isEmpty())
            openRecord(path, true);
    });
    connect(csvButton, &QPushButton::clicked, this, [this] { exportSelected(true); });
    connect(jsonButton, &QPushButton::clicked, this, [this] { exportSelected(false); });
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {stopButton, openButton, baselineButton, csvButton, jsonButton})
        buttons->addWidget(b);
    buttons->addStretch();

    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(runs_);
    left->addWidget(findings_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(chart_);
    split->setStretchFactor(1, 2);
    auto* outer = new QSplitter(Qt::Vertical, this);
    outer->addWidget(split);
    outer->addWidget(console_);
    outer->setStretchFactor(0, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(outer);
}

RunsPanel::~RunsPanel() {
    stop();
}

QString RunsPanel::resultsDirectory() const {
    return defaultResultsDirectory();
}

void RunsPanel::log(const QString& text) {
    console_->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss.zzz ")) + text);
}

void RunsPanel::addFindings(const QString& where, const std::vector<Finding>& findings) {
    for (const Finding& f : findings) {
        shownFindings_.emplace_back(where, f);
        auto* item =
            new QTreeWidgetItem(findings_, {severityText(f.severity), f.code, findingLine(where, f)});
        item->setToolTip(2, findingText(f));
        if (f.severity == Severity::Error)
            item->setForeground(0, QBrush(Qt::red));
    }
}

void RunsPanel::startRun(const RunRequest& request) {
    if (isRunning())
        return;
    run_ = std::make_unique<RecordedRun>();
    auto* item = new QTreeWidgetItem(runs_, {request.label.isEmpty()
                                                 ? QStringLiteral("%1 on %2")
                                                       .arg(collectiveName(request.spec.collective),
                                                            request.spec.hosts.join(QLatin1Char(',')))
                                                 : request.label,
                                             tr("starting")});
    const int series = chart_->data().addSeries(item->text(Label), SeriesRole::Live);
    connect(run_.get(), &RecordedRun::stage, this, [this, item](const QString& what) {
        item->setText(Status, what);
        log(what);
    });
    connect(run_.get(), &RecordedRun::outputLine, this,
            [this](const QString& l) { console_->appendPlainText(l); });
    connect(run_.get(), &RecordedRun::row, this, [this, series, item](const NcclTestsRow& r) {
        chart_->data().addRow(series, r);
        item->setText(Peak, QString::number(r.outOfPlace.busbw, 'f', 2));
    });
    connect(run_.get(), &RecordedRun::finished, this, [this, item](const RunOutcome& o) {
        const QString status = !o.error.isEmpty()  ? o.error
                               : o.exitStatus == 0 ? tr("finished")
                                                   : tr("exit status %1").arg(o.exitStatus);
        item->setText(Status, status);
        item->setToolTip(Status, status);
        item->setText(Record, o.record);
        if (!o.error.isEmpty() || o.exitStatus != 0)
            item->setForeground(Status, QBrush(Qt::red));
        log(tr("run ended: %1%2")
                .arg(status, o.record.isEmpty() ? QString() : tr("; saved to %1").arg(o.record)));
        for (const QString& e : o.counterErrors)
            log(tr("counters: %1").arg(e));
        addFindings(item->text(Label), o.findings);
        run_.release()->deleteLater(); // not from inside its own signal
        emit runFinished(o);
    });
    run_->start(request);
    log(QStringLiteral("$ ") + run_->command());
}

void RunsPanel::startHunt(const HuntOptions& options) {
    if (isRunning())
        return;
    hunt_ = std::make_unique<StragglerHunt>();
    connect(hunt_.get(), &StragglerHunt::groupStarted, this, &RunsPanel::groupStarted);
    connect(hunt_.get(), &StragglerHunt::groupFinished, this, &RunsPanel::groupFinished);
    connect(hunt_.get(), &StragglerHunt::finished, this, [this](const StragglerVerdict& v) {
        const std::vector<Finding> found = stragglerFindings(v);
        QStringList flagged;
        for (const Finding& f : found)
            flagged << f.subjects;
        addFindings({}, found);
        log(tr("median %1 GB/s; %2 slow hosts, %3 slow links")
                .arg(v.median, 0, 'f', 2)
                .arg(v.slowHosts.size())
                .arg(v.slowPairs.size()));
        hunt_.release()->deleteLater();
        emit huntFinished(v);
        emit flaggedHosts(flagged);
    });
    hunt_->start(options);
}

void RunsPanel::groupStarted(int round, const QStringList& hosts, const QString& command) {
    auto* item = new QTreeWidgetItem(
        runs_, {tr("round %1: %2").arg(round + 1).arg(hosts.join(QLatin1Char('+'))), tr("running")});
    item->setData(Label, Qt::UserRole, hosts.join(QLatin1Char('+')));
    log(QStringLiteral("$ ") + command);
}

void RunsPanel::groupFinished(const GroupRun& r) {
    const QString key = r.hosts.join(QLatin1Char('+'));
    for (int i = runs_->topLevelItemCount() - 1; i >= 0; --i) {
        QTreeWidgetItem* item = runs_->topLevelItem(i);
        if (item->data(Label, Qt::UserRole).toString() != key)
            continue;
        item->setText(Status, r.error.isEmpty() ? tr("finished") : r.error);
        item->setText(Peak, r.busbw ? QString::number(*r.busbw, 'f', 2) : QString());
        item->setText(Record, r.record);
        if (!r.error.isEmpty())
            item->setForeground(Status, QBrush(Qt::red));
        break;
    }
    addFindings(key, r.findings);
    if (r.record.isEmpty())
        return;
    QString error;
    const RunRecord rec = loadRunRecord(r.record, &error);
    if (error.isEmpty())
        chart_->data().addRun(key, SeriesRole::Earlier, rec.run);
    else
        log(tr("%1: %2").arg(r.record, error));
}

void RunsPanel::stop() {
    if (run_)
        run_->cancel();
    if (hunt_)
        hunt_->cancel();
}

bool RunsPanel::openRecord(const QString& path, bool asBaseline) {
    QString error;
    const RunRecord rec = loadRunRecord(path, &error);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not open the run:\n%1").arg(error));
        return false;
    }
    addRecord(rec, asBaseline);
    return true;
}

void RunsPanel::showSavedRuns(const std::vector<JudgedRun>& runs) {
    for (const JudgedRun& r : runs) {
        if (!runs_->findItems(r.record.path, Qt::MatchExactly, Record).isEmpty())
            continue; // listed already: this window's own run, or shown before
        addRecord(r.record, false);
        addFindings(r.record.meta.label, r.findings);
    }
}

void RunsPanel::addRecord(const RunRecord& rec, bool asBaseline) {
    if (asBaseline)
        chart_->data().removeRole(SeriesRole::Baseline);
    const QString name = (asBaseline ? tr("baseline: ") : QString()) + rec.meta.label;
    chart_->data().addRun(name, asBaseline ? SeriesRole::Baseline : SeriesRole::Earlier, rec.run);
    auto* item = new QTreeWidgetItem(runs_, {name,
                                             !rec.exitStatus       ? tr("record ends before the run did")
                                             : rec.error.isEmpty() ? tr("saved")
                                                                   : rec.error,
                                             peakText(rec.run), rec.path});
    item->setToolTip(Label, rec.meta.command);
    for (const QString& p : rec.problems)
        log(tr("%1: %2").arg(rec.path, p));
}

void RunsPanel::exportSelected(bool csv) {
    const QTreeWidgetItem* item = runs_->currentItem();
    const QString record = item ? item->text(Record) : QString();
    if (record.isEmpty()) {
        QMessageBox::information(this, tr("rackscope"), tr("Choose a saved run in the list first."));
        return;
    }
    QString error;
    const RunRecord rec = loadRunRecord(record, &error);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export run"), {},
                                                      csv ? tr("CSV (*.csv)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QFile out(path);
    if (!error.isEmpty() || !out.open(QIODevice::WriteOnly)) {
        QMessageBox::warning(this, tr("rackscope"),
                             tr("Could not export: %1").arg(error.isEmpty() ? out.errorString() : error));
        return;
    }
    out.write(csv ? runRowsToCsv(rec.run)
                  : QJsonDocument(ncclTestsToJson(rec.run, record)).toJson(QJsonDocument::Indented));
}

} // namespace rackscope::gui
