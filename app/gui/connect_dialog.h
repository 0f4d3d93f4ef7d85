#pragma once
// Where to connect: a host list with ranges, the SSH config and known_hosts
// to use, a jump host, how many servers at once and how long each stage may
// take. Recent sessions are remembered (QSettings); passwords never are.
#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace rackscope::gui {

struct ConnectRequest {
    QString hosts;      // a hostlist: "gpu[001-064],login"
    QString sshConfig;  // empty: ~/.ssh/config
    QString knownHosts; // empty: ~/.ssh/known_hosts
    QString jumpHost;   // [user@]host[:port] every server is reached through; empty: as the config says
    int concurrency = 32;
    int timeoutS = 30;
};

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);
    ConnectRequest request() const;
    void accept() override; // remembers the host list

private:
    QComboBox* hosts_;
    QLineEdit* sshConfig_;
    QLineEdit* knownHosts_;
    QLineEdit* jumpHost_;
    QSpinBox* concurrency_;
    QSpinBox* timeout_;
};

} // namespace rackscope::gui
