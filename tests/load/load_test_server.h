#pragma once
// The project's OpenAI-compatible test server (openai_test_server.cpp) as a
// child process on a free port of 127.0.0.1, for the load tests and benchmarks.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace rackscope::test {

class LoadTestServer {
public:
    explicit LoadTestServer(const QStringList& args = {}) {
        process_.setProgram(QStringLiteral(RACKSCOPE_TEST_OPENAI_SERVER));
        process_.setArguments(args);
        process_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process_.start();
        if (!process_.waitForStarted(5000) || !process_.waitForReadyRead(5000)) return;
        const QString line = QString::fromUtf8(process_.readLine()).trimmed(); // "listening on 127.0.0.1:PORT"
        port_ = line.section(QLatin1Char(':'), -1).toInt();
    }
    ~LoadTestServer() {
        process_.kill();
        process_.waitForFinished(5000);
    }
    bool ok() const { return port_ > 0; }
    int port() const { return port_; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

private:
    QProcess process_;
    int port_ = 0;
};

} // namespace rackscope::test
