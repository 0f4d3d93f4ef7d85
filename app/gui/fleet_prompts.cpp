#include "fleet_prompts.h"

#include <QApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QThread>
#include <mutex>

namespace rackscope::gui {
namespace {

// Runs `ask` on the GUI thread and waits for its answer.
template <typename T> T onGuiThread(const std::function<T()>& ask) {
    if (QThread::currentThread() == qApp->thread()) return ask();
    T answer{};
    QMetaObject::invokeMethod(qApp, [&] { answer = ask(); }, Qt::BlockingQueuedConnection);
    return answer;
}

} // namespace

bool askAboutHostKey(QWidget* parent, const HostKeyFacts& key) {
    QMessageBox box(QMessageBox::Question, QObject::tr("Unknown server"),
                    QObject::tr("The server %1 is not in known_hosts.\n\nIts %2 key has the fingerprint\n%3\n\n"
                                "Compare it with the one your administrator gives (ssh-keygen -lf on the server). "
                                "Trust it and record it in known_hosts?")
                        .arg(key.host, key.type, key.fingerprint),
                    QMessageBox::NoButton, parent);
    QPushButton* trust = box.addButton(QObject::tr("Trust and connect"), QMessageBox::AcceptRole);
    box.addButton(QObject::tr("Do not connect"), QMessageBox::RejectRole);
    box.setObjectName(QStringLiteral("hostKeyQuestion"));
    box.exec();
    return box.clickedButton() == trust;
}

void useDialogsFor(SshOptions& options, QWidget* parent) {
    QPointer<QWidget> owner(parent);
    // One question at a time, however many servers ask at once.
    static std::mutex asking;
    options.askAboutUnknownKey = [owner](const HostKeyFacts& key) {
        std::lock_guard lock(asking);
        return onGuiThread<bool>([&] { return askAboutHostKey(owner, key); });
    };
    options.askPassword = [owner](const QString& prompt) {
        std::lock_guard lock(asking);
        return onGuiThread<std::optional<QString>>([&]() -> std::optional<QString> {
            bool ok = false;
            const QString answer = QInputDialog::getText(owner, QObject::tr("Password"), prompt, QLineEdit::Password, {}, &ok);
            return ok ? std::optional(answer) : std::nullopt;
        });
    };
}

} // namespace rackscope::gui
