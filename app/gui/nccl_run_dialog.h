#pragma once
// A load run to start: the collective, nccl-tests' sizes and flags, the
// environment NCCL reads, the launcher and where it runs, whether to sample
// counters, and "find the slow one". The exact command line is shown as it
// is edited, before anything runs. The last choices are remembered.
#include "runs/nccl_run_spec.h"
#include "runs/straggler_hunt.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace rackscope::gui {

struct RunChoice {
    NcclRunSpec spec;
    QString launchHost; // empty: this machine
    bool counters = false;
    bool findSlow = false;
    HuntSchedule schedule = HuntSchedule::Pairs;
};

class NcclRunDialog : public QDialog {
    Q_OBJECT
public:
    explicit NcclRunDialog(const QString& hosts, QWidget* parent = nullptr);
    // What is on screen now; `error` says what is wrong with it, if anything.
    RunChoice choice(QString* error = nullptr) const;
    QString commandLine() const; // what the preview shows
    void accept() override;      // refuses a spec that cannot run, with a dialog

private:
    void updatePreview();
    QLineEdit *hosts_, *minBytes_, *maxBytes_, *launcherArgs_, *binaryDir_, *launchHost_;
    QComboBox *op_, *type_, *redop_, *launcher_, *schedule_;
    QSpinBox *factor_, *gpus_, *iters_, *warmup_, *ppn_;
    QPlainTextEdit *environment_, *preview_;
    QCheckBox *counters_, *findSlow_;
};

} // namespace rackscope::gui
