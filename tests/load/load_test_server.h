#pragma once
// The project's OpenAI-compatible test server (openai_test_server.cpp) as a
// child process on a free port (of 127.0.0.1 unless --address says), for the load tests and benchmarks.
#include <QDir>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace rackscope::test {

class LoadTestServer {
public:
    explicit LoadTestServer(const QStringList& args = {}) {
        process_.setProgram(QStringLiteral(RACKSCOPE_TEST_OPENAI_SERVER));
        process_.setArguments(args);
        process_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process_.start();
        if (!process_.waitForStarted(5000) || !process_.waitForReadyRead(5000))
            return;
        const QString line = QString::fromUtf8(process_.readLine()).trimmed(); // "listening on ADDRESS:PORT"
        port_ = line.section(QLatin1Char(':'), -1).toInt();
        address_ = line.section(QLatin1Char(' '), -1).section(QLatin1Char(':'), 0, 0).toStdString();
    }
    ~LoadTestServer() {
        process_.kill();
        process_.waitForFinished(5000);
    }
    bool ok() const { return port_ > 0; }
    long pid() const { return long(process_.processId()); }
    int port() const { return port_; }
    std::string url() const { return "http://" + address_ + ":" + std::to_string(port_) + "/v1"; }

    // The body of GET path (the server's own /test/ routes); empty if it did not answer in time.
    std::string get(const char* path) const {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return {};
        const timeval wait{5, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(uint16_t(port_));
        std::string all, body;
        const std::string request =
            std::string("GET ") + path + " HTTP/1.1\r\nHost: " + address_ + "\r\n\r\n";
        if (::inet_pton(AF_INET, address_.c_str(), &a.sin_addr) == 1 &&
            ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0 &&
            ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) > 0) {
            char buf[4096];
            for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) {
                all.append(buf, size_t(n));
                const size_t end = all.find("\r\n\r\n"), at = all.find("Content-Length: ");
                if (end == std::string::npos || at == std::string::npos)
                    continue;
                const size_t length = std::stoul(all.substr(at + 16));
                if (all.size() >= end + 4 + length) {
                    body = all.substr(end + 4, length);
                    break;
                }
            }
        }
        ::close(fd);
        return body;
    }

    // Runs every thread of the server on `cpu` alone, so that a benchmark's client and the server it measures
    // do not take turns on one core. False where the kernel refused.
    bool pinTo(int cpu) const {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        const QDir tasks(QStringLiteral("/proc/%1/task").arg(process_.processId()));
        bool pinned = false;
        for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            pinned = ::sched_setaffinity(pid_t(tid.toInt()), sizeof one, &one) == 0 || pinned;
        return pinned;
    }

    // Its threads ahead of every ordinary process (SCHED_FIFO at the lowest real-time priority; root or
    // CAP_SYS_NICE): a benchmark's stand-in server is then not held up by the machine's other work, whose
    // delay would read as the client's (on the VM the load bench was measured on, a process of the VM's own
    // took the server's core for 3 to 5 ms about once a second). Not for a server kept busy all the time: the
    // kernel throttles a real-time task that holds its core past 95 % of a second. False where it is not
    // allowed.
    bool runAheadOfOtherProcesses() const {
        sched_param first{};
        first.sched_priority = sched_get_priority_min(SCHED_FIFO);
        const QDir tasks(QStringLiteral("/proc/%1/task").arg(process_.processId()));
        bool set = false;
        for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            set = ::sched_setscheduler(pid_t(tid.toInt()), SCHED_FIFO, &first) == 0 || set;
        return set;
    }

private:
    QProcess process_;
    int port_ = 0;
    std::string address_;
};

} // namespace rackscope::test
