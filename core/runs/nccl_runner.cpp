#include "nccl_runner.h"

#include "logging.h"
#include "transport/shell_quote.h"

#include <QRegularExpression>
#include <algorithm>

namespace rackscope {

QString explainRunFailure(int status, const QStringList& lastLines) {
    // The launchers' and NCCL's own accounts first, then any line that sounds like one.
    static const QRegularExpression strong(
        QStringLiteral("lost communication|srun: error|exited on signal|NCCL WARN|Test NCCL failure|Test "
                       "CUDA failure|rackscope-nccl-bench:|"
                       "unable to launch|not able to|ORTE does not know"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression weak(
        QStringLiteral("error|lost|abort|kill|fail|terminat|denied|not found|cannot|unable"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression node(
        QStringLiteral("Remote daemon: .* on node (\\S+)|on node (\\S+) exited"));
    auto lastMatching = [&](const QRegularExpression& re) {
        for (auto it = lastLines.rbegin(); it != lastLines.rend(); ++it) {
            const QString l = it->trimmed();
            if (!l.isEmpty() && !l.startsWith(QLatin1Char('#')) && !l.startsWith(QLatin1Char('-')) &&
                re.match(l).hasMatch())
                return l;
        }
        return QString();
    };
    // Open MPI's block about a benchmark it could not start names it on an "Executable:" line and the
    // host on a "Node:" line; its NOTE about misspelt options is not the reason.
    auto field = [&](QLatin1String name) {
        for (const QString& l : lastLines)
            if (l.trimmed().startsWith(name))
                return l.trimmed().mid(name.size()).trimmed();
        return QString();
    };
    static const QRegularExpression notStarted(
        QStringLiteral("unable to find the specified executable|could not access\\s+or execute an executable|"
                       "unable to launch the specified application"));
    QString why;
    if (std::any_of(lastLines.begin(), lastLines.end(),
                    [](const QString& l) { return notStarted.match(l).hasMatch(); }) &&
        !field(QLatin1String("Executable:")).isEmpty())
        why = QStringLiteral("%1: not found, or not executable, on %2 (mpirun could not start it)")
                  .arg(field(QLatin1String("Executable:")), field(QLatin1String("Node:")).isEmpty()
                                                                ? QStringLiteral("the node")
                                                                : field(QLatin1String("Node:")));
    if (why.isEmpty())
        why = lastMatching(strong);
    if (why.isEmpty())
        why = lastMatching(weak);
    for (const QString& l : lastLines)
        if (const auto m = node.match(l); m.hasMatch()) {
            why += QStringLiteral(" (node %1)").arg(m.captured(1).isEmpty() ? m.captured(2) : m.captured(1));
            break;
        }
    const QString head = QStringLiteral("the run ended with exit status %1").arg(status);
    return why.isEmpty() ? head : head + QStringLiteral(": ") + why.left(300);
}

NcclRunner::NcclRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<rackscope::NcclTestsRow>();
    parser_.onRow = [this](const NcclTestsRow& r) { emit row(r); };
}

NcclRunner::~NcclRunner() {
    cancel();
    if (process_ && process_->state() != QProcess::NotRunning) {
        process_->kill();
        process_->waitForFinished(3000);
    }
    if (worker_) {
        worker_->wait();
        delete worker_;
    }
}

void NcclRunner::cancel() {
    cancel_ = true;
    if (process_ && process_->state() != QProcess::NotRunning)
        process_->terminate();
}

void NcclRunner::take(const QByteArray& bytes) {
    parser_.feed(bytes);
    console_ += bytes;
    qsizetype start = 0;
    for (qsizetype nl; (nl = console_.indexOf('\n', start)) >= 0; start = nl + 1) {
        const QString l = QString::fromUtf8(console_.mid(start, nl - start));
        lastLines_ << l;
        if (lastLines_.size() > 40)
            lastLines_.removeFirst();
        emit outputLine(l);
    }
    console_.remove(0, start);
}

void NcclRunner::end(int status, QString error) {
    if (!console_.isEmpty())
        take("\n"); // a last line without its newline
    parser_.finish();
    if (error.isEmpty() && status != 0)
        error = explainRunFailure(status, lastLines_);
    qCDebug(lcRuns) << "nccl run ended, status" << status << error;
    emit finished(status, error);
}

void NcclRunner::startLocal(const QStringList& argv) {
    qCDebug(lcRuns) << "nccl run, here:" << shellCommand(argv).line;
    process_ = std::make_unique<QProcess>();
    process_->setProcessChannelMode(
        QProcess::MergedChannels); // mpirun's own messages belong in the console too
    connect(process_.get(), &QProcess::readyRead, this, [this] { take(process_->readAll()); });
    connect(process_.get(), &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        take(process_->readAll());
        end(code, status == QProcess::CrashExit
                      ? (cancel_ ? QStringLiteral("cancelled") : QStringLiteral("the launcher crashed"))
                      : QString());
    });
    connect(process_.get(), &QProcess::errorOccurred, this, [this, argv](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            emit finished(-1,
                          QStringLiteral("cannot start %1: %2").arg(argv.value(0), process_->errorString()));
    });
    process_->start(argv.value(0), argv.mid(1));
}

void NcclRunner::startRemote(const SshTarget& target, const SshOptions& options, const QStringList& argv,
                             int timeoutMs) {
    SshOptions o = options;
    o.cancel = &cancel_;
    const QString line = shellCommand(argv).line;
    qCDebug(lcRuns) << "nccl run, on" << target.alias << ":" << line;
    worker_ = QThread::create([this, target, o, line, timeoutMs] {
        SshConnection ssh;
        auto done = [this](int status, const QString& error) {
            QMetaObject::invokeMethod(
                this, [this, status, error] { end(status, error); }, Qt::QueuedConnection);
        };
        if (auto e = ssh.open(target, o))
            return done(-1, stageName(e->stage) + QStringLiteral(": ") + e->message);
        SshError startError;
        auto channel = ssh.start(line + QStringLiteral(" 2>&1"), &startError);
        if (!channel)
            return done(-1, startError.message);
        for (;;) {
            QByteArray l;
            const SshChannel::Read r = channel->readLine(&l, 1 << 20, timeoutMs);
            if (r == SshChannel::Read::Line) {
                l += '\n';
                QMetaObject::invokeMethod(
                    this, [this, l] { take(l); }, Qt::QueuedConnection);
                continue;
            }
            if (r == SshChannel::Read::Eof)
                return done(channel->exitStatus().value_or(-1), {});
            if (r == SshChannel::Read::Timeout)
                return done(-1, QStringLiteral("no output for %1 s").arg(timeoutMs / 1000));
            if (r == SshChannel::Read::Cancelled)
                return done(-1, QStringLiteral("cancelled"));
            if (r == SshChannel::Read::TooLong)
                return done(-1, QStringLiteral("the run printed a line longer than 1 MiB"));
            return done(-1, QStringLiteral("the connection to %1 dropped").arg(ssh.peer()));
        }
    });
    worker_->start();
}

} // namespace rackscope
