#include "connect_dialog.h"

#include "model/hostlist.h"
#include "transport/ssh_config.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace rackscope::gui {
namespace {
const char kRecent[] = "connect/recentHostLists";
}

ConnectDialog::ConnectDialog(QWidget* parent)
    : QDialog(parent), hosts_(new QComboBox(this)), sshConfig_(new QLineEdit(this)),
      knownHosts_(new QLineEdit(this)), jumpHost_(new QLineEdit(this)), concurrency_(new QSpinBox(this)),
      timeout_(new QSpinBox(this)) {
    setWindowTitle(tr("Connect to servers"));
    hosts_->setEditable(true);
    hosts_->addItems(QSettings().value(QLatin1String(kRecent)).toStringList());
    hosts_->setCurrentText(hosts_->count() ? hosts_->itemText(0) : QString());
    hosts_->lineEdit()->setPlaceholderText(tr("gpu[001-064],login"));
    sshConfig_->setPlaceholderText(tr("~/.ssh/config"));
    knownHosts_->setPlaceholderText(tr("~/.ssh/known_hosts"));
    jumpHost_->setPlaceholderText(tr("as the SSH config says (user@bastion:22)"));
    QSettings settings;
    sshConfig_->setText(settings.value(QStringLiteral("connect/sshConfig")).toString());
    knownHosts_->setText(settings.value(QStringLiteral("connect/knownHosts")).toString());
    jumpHost_->setText(settings.value(QStringLiteral("connect/jumpHost")).toString());
    concurrency_->setRange(1, 1024);
    concurrency_->setValue(settings.value(QStringLiteral("connect/concurrency"), 32).toInt());
    timeout_->setRange(1, 3600);
    timeout_->setValue(30);
    timeout_->setSuffix(tr(" s"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Hosts:"), hosts_);
    form->addRow(tr("SSH &config:"), sshConfig_);
    form->addRow(tr("&Known hosts:"), knownHosts_);
    form->addRow(tr("&Jump host:"), jumpHost_);
    form->addRow(tr("At &once:"), concurrency_);
    form->addRow(tr("&Timeout per stage:"), timeout_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);
    form->addRow(buttons);
}

ConnectRequest ConnectDialog::request() const {
    return {hosts_->currentText().trimmed(), sshConfig_->text().trimmed(), knownHosts_->text().trimmed(),
            jumpHost_->text().trimmed(),     concurrency_->value(),        timeout_->value()};
}

void ConnectDialog::accept() {
    const QString list = hosts_->currentText().trimmed();
    if (const HostlistResult r = expandHostlist(list); !r.error.isEmpty() || r.hosts.isEmpty()) {
        QMessageBox::warning(
            this, windowTitle(),
            tr("The host list cannot be read: %1").arg(r.error.isEmpty() ? tr("it is empty") : r.error));
        return;
    }
    SshJump jump;
    if (!jumpHost_->text().trimmed().isEmpty() && !SshConfig::parseJump(jumpHost_->text().trimmed(), &jump)) {
        QMessageBox::warning(this, windowTitle(),
                             tr("The jump host is not [user@]host[:port]: %1").arg(jumpHost_->text()));
        return;
    }
    QSettings settings; // where and how, never a password
    QStringList recent = settings.value(QLatin1String(kRecent)).toStringList();
    recent.removeAll(list);
    recent.prepend(list);
    settings.setValue(QLatin1String(kRecent), recent.mid(0, 10));
    settings.setValue(QStringLiteral("connect/sshConfig"), sshConfig_->text().trimmed());
    settings.setValue(QStringLiteral("connect/knownHosts"), knownHosts_->text().trimmed());
    settings.setValue(QStringLiteral("connect/jumpHost"), jumpHost_->text().trimmed());
    settings.setValue(QStringLiteral("connect/concurrency"), concurrency_->value());
    QDialog::accept();
}

} // namespace rackscope::gui
