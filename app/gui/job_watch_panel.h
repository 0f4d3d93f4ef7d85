#pragma once
// The NCCL job dock: what a watched job's RAS said last (the ranks missing, dead or behind, where they run,
// what to look at next) and a timeline of every answer; choosing an answer shows it, choosing a rank asks
// for its server or GPU to be selected on the canvas. It only shows: the watch (job/ras_watch.h) and the
// verdict (job/ras_verdict.h) are the core's.
#include "job/ras_verdict.h"
#include "job/ras_watch.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QTreeWidget;

namespace rackscope::gui {

class JobWatchPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxAnswers = 2000; // the oldest go first
    explicit JobWatchPanel(QWidget* parent = nullptr);
    void retranslate();
    // A new `where` starts a new timeline; an empty one keeps the job shown (stopping).
    void setWatching(const QString& where, bool watching);
    // A new answer, with its verdict where it had a report; shown unless an older one is being read.
    void addSnapshot(const RasSnapshot& s, const std::optional<RasVerdict>& verdict);
    QListWidget* timeline() const { return timeline_; }
    QTreeWidget* verdict() const { return verdict_; }
    QString summary() const;

signals:
    void stopRequested();
    void itemChosen(const QString& host, const QString& device);

private:
    void show(int index);
    struct Entry {
        RasSnapshot snapshot;
        std::optional<RasVerdict> verdict;
    };
    std::vector<Entry> entries_;
    QString where_;
    bool watching_ = false;
    QLabel* status_;
    QPushButton* stop_;
    QTreeWidget* verdict_;
    QListWidget* timeline_;
};

} // namespace rackscope::gui
