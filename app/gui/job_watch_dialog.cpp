#include "job_watch_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace rackscope::gui {

JobWatchDialog::JobWatchDialog(const QStringList& servers, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Watch a running NCCL job"));
    auto* form = new QFormLayout(this);
    auto* about =
        new QLabel(tr("NCCL 2.24 and later serve the job's state on port 28028 of every node of the "
                      "job (RAS). rackscope asks one node through its SSH connection and marks the "
                      "ranks that are missing, dead or behind on the picture."),
                   this);
    about->setWordWrap(true);
    form->addRow(about);
    node_ = new QComboBox(this);
    node_->setEditable(true);
    node_->addItems(servers);
    node_->addItem(QStringLiteral("localhost"));
    form->addRow(tr("Node of the job:"), node_);
    port_ = new QSpinBox(this);
    port_->setRange(1, 65535);
    port_->setValue(28028);
    form->addRow(tr("RAS port:"), port_);
    interval_ = new QDoubleSpinBox(this);
    interval_->setRange(0.5, 3600);
    interval_->setValue(5);
    interval_->setSuffix(tr(" s"));
    form->addRow(tr("Ask every:"), interval_);
    verbose_ = new QCheckBox(tr("List every rank (VERBOSE STATUS)"), this);
    form->addRow(verbose_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Watch"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

JobWatchRequest JobWatchDialog::request() const {
    return {node_->currentText().trimmed(), port_->value(), interval_->value(), verbose_->isChecked()};
}

} // namespace rackscope::gui
