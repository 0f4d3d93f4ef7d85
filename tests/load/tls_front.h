#pragma once
// A real TLS terminator (socat) in front of the project's test server, as nginx or a gateway sits in front
// of an inference server, with a self-signed certificate the openssl command makes for it: for load runs
// over https.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

namespace rackscope::test {

class TlsFront {
public:
    // The certificate names `subjectAltName` ("IP:127.0.0.1", "DNS:elsewhere.example"); its files go in `dir`
    // under `name`. Forwards to 127.0.0.1:backendPort.
    TlsFront(const QString& dir, const QString& name, int backendPort,
             const QString& subjectAltName = QStringLiteral("IP:127.0.0.1")) {
        const QString cert = QDir(dir).filePath(name + QStringLiteral("-cert.pem")),
                      key = QDir(dir).filePath(name + QStringLiteral("-key.pem"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                       QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                       QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=rackscope test"), QStringLiteral("-addext"),
                       QStringLiteral("subjectAltName=") + subjectAltName, QStringLiteral("-keyout"), key,
                       QStringLiteral("-out"), cert});
        if (!openssl.waitForFinished(20000) || openssl.exitCode() != 0) {
            error_ = QStringLiteral("openssl req failed: ") +
                     QString::fromLocal8Bit(openssl.readAllStandardError());
            return;
        }
        QFile pem(cert);
        if (pem.open(QIODevice::ReadOnly))
            certPem_ = pem.readAll().toStdString();
        port_ = freePort();
        const QString log = QDir(dir).filePath(
            name + QStringLiteral("-socat.log")); // its handshake errors, which some tests cause
        socat_.start(
            QStringLiteral("socat"),
            {QStringLiteral("-lf"), log,
             QStringLiteral("OPENSSL-LISTEN:%1,bind=127.0.0.1,reuseaddr,fork,cert=%2,key=%3,verify=0")
                 .arg(port_)
                 .arg(cert, key),
             QStringLiteral("TCP:127.0.0.1:%1").arg(backendPort)});
        if (!socat_.waitForStarted(5000)) {
            error_ = QStringLiteral("socat did not start (is it installed?)");
            return;
        }
        for (int i = 0; i < 500 && !listening(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (listening())
            return;
        QFile said(log);
        error_ = QStringLiteral("socat is not listening on port %1: ").arg(port_) +
                 QString::fromLocal8Bit(said.open(QIODevice::ReadOnly) ? said.readAll() : QByteArray());
    }
    ~TlsFront() {
        socat_.kill();
        socat_.waitForFinished(5000);
    }
    bool ok() const { return error_.isEmpty() && !certPem_.empty(); }
    QString error() const { return error_; }
    std::string url() const { return "https://127.0.0.1:" + std::to_string(port_) + "/v1"; }
    const std::string& certPem() const { return certPem_; }

private:
    QProcess socat_;
    int port_ = 0;
    std::string certPem_;
    QString error_;

    static int freePort() {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), len) == 0 &&
                        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
        ::close(fd);
        return ok ? ntohs(a.sin_port) : 0;
    }
    bool listening() const {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(uint16_t(port_));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        return ok;
    }
};

} // namespace rackscope::test
