#pragma once
// Runs one nccl-tests launch command, on this machine or on a launch host
// over SSH, and reads its output as it streams: each row as it arrives, every
// line for the console, and the whole run at the end.
#include "nccl_tests_output.h"
#include "transport/ssh_connection.h"

#include <QObject>
#include <QProcess>
#include <QThread>
#include <memory>

namespace rackscope {

// Why a launch that exited with `status` failed, from the last lines it
// printed: the launcher's own account (a lost daemon, a rank killed, srun's
// error) where there is one.
QString explainRunFailure(int status, const QStringList& lastLines);

class NcclRunner : public QObject {
    Q_OBJECT
public:
    explicit NcclRunner(QObject* parent = nullptr);
    ~NcclRunner() override;

    void startLocal(const QStringList& argv);
    // On `target`, with the same known_hosts and auth rules as the fleet.
    void startRemote(const SshTarget& target, const SshOptions& options, const QStringList& argv,
                     int timeoutMs);
    void cancel();
    const NcclTestsRun& run() const { return parser_.run(); }

signals:
    void row(const rackscope::NcclTestsRow& row);
    void outputLine(const QString& line);
    void finished(int exitStatus, const QString& error); // error: why it could not run or was cut short

private:
    void take(const QByteArray& bytes);
    void end(int status, QString error);
    NcclTestsParser parser_;
    QStringList lastLines_;
    QByteArray console_;
    std::unique_ptr<QProcess> process_;
    QThread* worker_ = nullptr;
    std::atomic<bool> cancel_{false};
};

} // namespace rackscope

Q_DECLARE_METATYPE(rackscope::NcclTestsRow)
