#pragma once
// The RAS stand-in (tests/runs/ras_standin.cpp) as a test starts it: on this machine or in a namespace
// host, on a port of its own, stopped when the test's object goes.
#include <QProcess>
#include <QStringList>
#include <QTest>

namespace rackscope::test {

class RasStandin {
public:
    // `netns`: the network namespace of a test host to run in (empty: here). Port 0 takes a free one.
    RasStandin(const QStringList& args, const QString& netns = {}, int port = 0) {
        QStringList all{QStringLiteral("--port"), QString::number(port)};
        all += args;
        if (netns.isEmpty()) {
            process_.start(QStringLiteral(RACKSCOPE_RAS_STANDIN), all);
        } else {
            all.prepend(QStringLiteral(RACKSCOPE_RAS_STANDIN));
            all = QStringList{QStringLiteral("netns"), QStringLiteral("exec"), netns} + all;
            process_.start(QStringLiteral("ip"), all);
        }
        if (!process_.waitForStarted(5000))
            return;
        for (int i = 0; i < 200 && !process_.canReadLine(); ++i)
            process_.waitForReadyRead(50);
        const QByteArray line = process_.readLine().trimmed();
        if (line.startsWith("listening "))
            port_ = quint16(line.mid(10).toUInt());
    }
    ~RasStandin() {
        process_.kill();
        process_.waitForFinished(3000);
    }
    quint16 port() const { return port_; } // 0 when it did not start

private:
    QProcess process_;
    quint16 port_ = 0;
};

} // namespace rackscope::test
