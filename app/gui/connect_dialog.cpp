#include "connect_dialog.h"

#include "transport/hostlist.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QFormLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>

namespace rackscope::gui {
namespace {
const char kRecent[] = "connect/recentHostLists";
}

ConnectDialog::ConnectDialog(QWidget* parent)
    : QDialog(parent), hosts_(new QComboBox(this)), sshConfig_(new QLineEdit(this)), knownHosts_(new QLineEdit(this)),
      concurrency_(new QSpinBox(this)), timeout_(new QSpinBox(this)) {
    setWindowTitle(tr("Connect to servers"));
    hosts_->setEditable(true);
    hosts_->addItems(QSettings().value(QLatin1String(kRecent)).toStringList());
    hosts_->setCurrentText(hosts_->count() ? hosts_->itemText(0) : QString());
    hosts_->lineEdit()->setPlaceholderText(tr("gpu[001-064],login"));
    sshConfig_->setPlaceholderText(tr("~/.ssh/config"));
    knownHosts_->setPlaceholderText(tr("~/.ssh/known_hosts"));
    concurrency_->setRange(1, 1024);
    concurrency_->setValue(32);
    timeout_->setRange(1, 3600);
    timeout_->setValue(30);
    timeout_->setSuffix(tr(" s"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Hosts:"), hosts_);
    form->addRow(tr("SSH &config:"), sshConfig_);
    form->addRow(tr("&Known hosts:"), knownHosts_);
    form->addRow(tr("At &once:"), concurrency_);
    form->addRow(tr("&Timeout per stage:"), timeout_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);
    form->addRow(buttons);
}

ConnectRequest ConnectDialog::request() const {
    return {hosts_->currentText().trimmed(), sshConfig_->text().trimmed(), knownHosts_->text().trimmed(), concurrency_->value(), timeout_->value()};
}

void ConnectDialog::accept() {
    const QString list = hosts_->currentText().trimmed();
    if (const HostlistResult r = expandHostlist(list); !r.error.isEmpty() || r.hosts.isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("The host list cannot be read: %1").arg(r.error.isEmpty() ? tr("it is empty") : r.error));
        return;
    }
    QStringList recent = QSettings().value(QLatin1String(kRecent)).toStringList();
    recent.removeAll(list);
    recent.prepend(list);
    QSettings().setValue(QLatin1String(kRecent), recent.mid(0, 10));
    QDialog::accept();
}

} // namespace rackscope::gui
