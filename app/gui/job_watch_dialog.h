#pragma once
// Run → Watch a running NCCL job: which node of the job to ask (a server shown, or this machine), its RAS
// port, how often, and whether every rank is listed.
#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace rackscope::gui {

struct JobWatchRequest {
    QString node; // an SSH server shown, or "localhost"
    int port = 28028;
    double intervalS = 5;
    bool verbose = false;
};

class JobWatchDialog : public QDialog {
    Q_OBJECT
public:
    // `servers`: the servers shown over SSH, offered first.
    explicit JobWatchDialog(const QStringList& servers, QWidget* parent = nullptr);
    JobWatchRequest request() const;

private:
    QComboBox* node_;
    QSpinBox* port_;
    QDoubleSpinBox* interval_;
    QCheckBox* verbose_;
};

} // namespace rackscope::gui
