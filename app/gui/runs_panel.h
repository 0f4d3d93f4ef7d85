#pragma once
// The load-run console: the runs of this session and those reopened from
// the results folder, the live chart, the launcher's output with times, and
// what the runs found (counters that rose, NCCL's transport, slow hosts).
#include "run_chart.h"
#include "runs/recorded_run.h"
#include "runs/run_findings.h"
#include "runs/straggler_hunt.h"

#include <QWidget>
#include <memory>

class QPlainTextEdit;
class QTreeWidget;

class QPushButton;

namespace rackscope::gui {

class RunsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunsPanel(QWidget* parent = nullptr);
    ~RunsPanel() override;

    void retranslate(); // its own words, in the language now installed
    void startRun(const RunRequest& request);
    void startHunt(const HuntOptions& options);
    // One group of a hunt: listed when it starts; when it ends, its peak and its
    // saved rows charted beside the others.
    void groupStarted(int round, const QStringList& hosts, const QString& command);
    void groupFinished(const GroupRun& run);
    void stop();
    bool isRunning() const { return run_ || hunt_; }
    bool openRecord(const QString& path,
                    bool asBaseline = false); // false, with a dialog, when it cannot be read
    // The workspace's saved runs (opened, from a session, or this window's own once saved): each one listed
    // and charted once, with its findings.
    void showSavedRuns(const std::vector<JudgedRun>& runs);
    void setLineRate(const LineRate& rate) { chart_->data().setLineRate(rate); }
    QString resultsDirectory() const;

    RunChart* chart() const { return chart_; }
    QTreeWidget* runList() const { return runs_; }
    QTreeWidget* findingList() const { return findings_; }
    QPlainTextEdit* console() const { return console_; }

signals:
    void runFinished(const rackscope::RunOutcome& outcome);
    void huntFinished(const rackscope::StragglerVerdict& verdict);
    void flaggedHosts(const QStringList& hosts); // slow hosts and the hosts of slow links
    void recordChosen(const QString& path);      // a saved run to open in the workspace

private:
    void log(const QString& text);
    void addFindings(const QString& where, const std::vector<Finding>& findings);
    void exportSelected(bool csv);
    void addRecord(const RunRecord& record, bool asBaseline);

    RunChart* chart_;
    QTreeWidget* runs_;
    QTreeWidget* findings_;
    std::vector<std::pair<QString, Finding>>
        shownFindings_; // (where, finding) by row: rendered again in another language
    QPlainTextEdit* console_;
    QPushButton* buttons_[5]; // stop, open, baseline, CSV, JSON
    std::unique_ptr<RecordedRun> run_;
    std::unique_ptr<StragglerHunt> hunt_;
};

} // namespace rackscope::gui
