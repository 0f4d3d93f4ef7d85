#include "fleet_prompts.h"

#include <QApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QThread>
#include <chrono>
#include <future>
#include <mutex>

namespace rackscope::gui {
namespace {

using namespace std::chrono_literals;

// One question, asked on the GUI thread for a fleet's worker thread.
template <typename T> struct Question {
    std::promise<T> answer;
    std::atomic<bool> answered{false}, abandoned{false};
    QPointer<QDialog> dialog; // GUI thread only

    void give(T value) {
        if (!answered.exchange(true))
            answer.set_value(std::move(value));
    }
};

// One question at a time, however many servers ask at once.
std::timed_mutex asking;

// Opens the dialog that `open` makes, without waiting on the GUI thread: `open` calls its argument with the
// answer when the dialog closes. The worker waits for it, and gives up as soon as `cancel` is set (its fleet
// was stopped or replaced): the dialog is closed and the answer is `refused`.
template <typename T>
T askOnGuiThread(const std::function<QDialog*(std::function<void(T)>)>& open, const std::atomic<bool>* cancel,
                 T refused) {
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
    std::unique_lock lock(asking, std::defer_lock);
    while (!lock.try_lock_for(50ms))
        if (cancelled())
            return refused;
    if (QThread::currentThread() == qApp->thread())
        return refused; // only the fleet's threads ask; the GUI never waits
    auto q = std::make_shared<Question<T>>();
    std::future<T> answer = q->answer.get_future();
    QMetaObject::invokeMethod(
        qApp,
        [q, open] {
            if (!q->abandoned)
                q->dialog = open([q](T value) { q->give(std::move(value)); });
        },
        Qt::QueuedConnection);
    while (answer.wait_for(50ms) != std::future_status::ready) {
        if (!cancelled())
            continue;
        q->abandoned = true;
        QMetaObject::invokeMethod(
            qApp,
            [q] {
                if (q->dialog)
                    q->dialog->reject();
            },
            Qt::QueuedConnection);
        return refused;
    }
    return answer.get();
}

// Shown without a nested event loop; deleted when it has answered.
void showModal(QDialog* d) {
    d->setWindowModality(Qt::ApplicationModal);
    d->show();
}

} // namespace

QMessageBox* hostKeyQuestion(QWidget* parent, const HostKeyFacts& key) {
    auto* box = new QMessageBox(
        QMessageBox::Question, QObject::tr("Unknown server"),
        QObject::tr("The server %1 is not in known_hosts.\n\nIts %2 key has the fingerprint\n%3\n\n"
                    "Compare it with the one your administrator gives (ssh-keygen -lf on the server). "
                    "Trust it and record it in known_hosts?")
            .arg(key.host, key.type, key.fingerprint),
        QMessageBox::NoButton, parent);
    box->addButton(QObject::tr("Trust and connect"), QMessageBox::AcceptRole);
    box->addButton(QObject::tr("Do not connect"), QMessageBox::RejectRole);
    box->setObjectName(QStringLiteral("hostKeyQuestion"));
    return box;
}

void useDialogsFor(SshOptions& options, QWidget* parent) {
    QPointer<QWidget> owner(parent);
    options.askAboutUnknownKey = [owner](const HostKeyFacts& key, const std::atomic<bool>* cancel) {
        return askOnGuiThread<bool>(
            [owner, key](std::function<void(bool)> answer) -> QDialog* {
                QMessageBox* box = hostKeyQuestion(owner, key);
                QObject::connect(box, &QMessageBox::finished, box, [box, answer] {
                    answer(box->clickedButton() &&
                           box->buttonRole(box->clickedButton()) == QMessageBox::AcceptRole);
                    box->deleteLater();
                });
                showModal(box);
                return box;
            },
            cancel, false);
    };
    options.askPassword = [owner](const QString& prompt, const std::atomic<bool>* cancel) {
        return askOnGuiThread<std::optional<QString>>(
            [owner, prompt](std::function<void(std::optional<QString>)> answer) -> QDialog* {
                auto* dialog = new QInputDialog(owner);
                dialog->setObjectName(QStringLiteral("passwordQuestion"));
                dialog->setWindowTitle(QObject::tr("Password"));
                dialog->setLabelText(prompt);
                dialog->setTextEchoMode(QLineEdit::Password);
                QObject::connect(dialog, &QInputDialog::finished, dialog, [dialog, answer](int result) {
                    answer(result == QDialog::Accepted ? std::optional(dialog->textValue()) : std::nullopt);
                    dialog->deleteLater();
                });
                showModal(dialog);
                return dialog;
            },
            cancel, std::nullopt);
    };
}

} // namespace rackscope::gui
