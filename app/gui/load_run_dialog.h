#pragma once
// Run → Inference load run…: the endpoint, the model, the load's shape and
// its lengths, SLOs, and where the load comes from (this machine's agent, or
// the agents of the servers named), and whose GPUs to sample (by default the
// servers connected). It answers a LoadRequest, or says what
// is wrong with the form.
#include "load_model/trace_file.h"
#include "runs/load_runner.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace rackscope::gui {

class LoadRunDialog : public QDialog {
    Q_OBJECT
public:
    // `connectedServers`: a hostlist of the servers connected, whose GPUs are sampled unless the user says
    // not.
    explicit LoadRunDialog(const QString& connectedServers = {}, QWidget* parent = nullptr);
    // The request the form describes (hosts as a hostlist, the fleet left to the caller), or the problem.
    std::optional<LoadRequest> request(QString* problem) const;
    QLineEdit* urlEdit() const { return url_; }
    QLineEdit* modelEdit() const { return model_; }
    QLineEdit* hostsEdit() const { return hosts_; }
    QLineEdit* metricsEdit() const { return metrics_; }
    QLineEdit* workersEdit() const { return workers_; }
    QLineEdit* sloEdit() const { return slo_; }
    QSpinBox* requestsBox() const { return requests_; }
    QLineEdit* caFileEdit() const { return caFile_; }
    QCheckBox* insecureBox() const { return insecure_; }
    QComboBox* capacityBox() const { return capacity_; } // none, by rate, by concurrency
    QSpinBox* turnsBox() const { return turns_; }
    QLineEdit* traceEdit() const { return trace_; }

private:
    void check();
    QLineEdit *url_, *model_, *inputLen_, *outputLen_, *slo_, *hosts_, *metrics_, *workers_, *apiKeyEnv_,
        *caFile_, *trace_;
    QCheckBox* insecure_;
    QComboBox* endpoint_;
    QComboBox* capacity_;
    QSpinBox *concurrency_, *requests_, *warmup_, *turns_;
    mutable std::pair<QString, rsload::TraceRead> traceRead_; // the trace file last read, by its path
    QDoubleSpinBox *rate_, *burstiness_;
    QLabel* problem_;
};

} // namespace rackscope::gui
