#pragma once
// The Inference load dock: a run's live charts as it goes, saved runs opened
// again, and the runs compared side by side; every request exported as CSV.
#include "load_chart.h"
#include "runs/load_results.h"
#include "runs/load_runner.h"
#include "runs/saved_load_run.h"

namespace rackscope::gui {

class InferencePanel : public QWidget {
    Q_OBJECT
public:
    explicit InferencePanel(QWidget* parent = nullptr);
    void retranslate();

    LoadChart* chart() const { return chart_; }
    LoadRunner* runner() const { return runner_; }
    // Starts a run (its fleet and results folder already chosen); false, with a dialog, when one is going.
    bool start(LoadRequest request);
    // A saved run (its folder, or a sweep's), drawn again and added to the comparison; a folder that cannot
    // be read is said in a dialog and changes nothing.
    bool openResults(const QString& directory);
    // The workspace's load runs (opened, or from a session) that this panel has not shown yet.
    void showSavedRuns(const std::vector<SavedLoadRun>& runs);
    void clearComparison();
    bool exportCsv(const QString& path); // every request of the runs opened or compared
    // The last run finished or opened as one HTML page (load --report's); false, said, when there is none.
    bool exportReport(const QString& path);

signals:
    void log(const QString& host, const QString& what);

private:
    void onStepFinished(const LoadStepResult& r);
    QString serverStatus(const rsload::ServerMetricsSummary& m) const;
    QString gpuStatus(const rsload::GpuUseSummary& g) const;
    QString capacityText(const CapacitySearch& search) const;
    void compare(std::vector<LoadResults> runs);
    void showSaved(const QString& location, std::vector<LoadResults> runs);

    LoadChart* chart_;
    LoadRunner* runner_;
    std::vector<LoadResults> compared_;
    QStringList shown_; // saved runs' folders shown, as opened
    QString lastRun_;   // the folder of the run last finished or opened: what a report is written of
};

} // namespace rackscope::gui
