// Stands in for NCCL's RAS service (a running NCCL 2.24+ job's localhost:28028) on a machine without a GPU,
// and answers its client the way NCCL's client_support.cc does: "CLIENT PROTOCOL n" gets "SERVER PROTOCOL 2",
// "TIMEOUT s" gets OK, "SET FORMAT json" gets OK where it has JSON to serve (else the "ERROR: Unknown
// command" of an NCCL before 2.28), STATUS and VERBOSE STATUS get a real captured report, and the
// connection closes after it. The captures are given in order: the n-th STATUS gets the n-th (the last one
// from then on), so a watch sees the job change between refreshes.
//   rackscope-ras-standin --port P [--address A] [--text F1,F2..] [--json F1,F2..] [--log FILE]
//                         [--replace FROM=TO]... [--silent | --garbage]
// --replace puts the test's own host addresses where the capture has the real job's.
// --silent accepts and never answers; --garbage answers every line with bytes that are not the protocol.
// "listening PORT" on stdout says the port is bound (--port 0: a free one).
#include <arpa/inet.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <netinet/in.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

struct Options {
    int port = 28028;
    std::string address = "127.0.0.1", log;
    std::vector<std::string> text, json;
    std::vector<std::pair<std::string, std::string>> replace;
    bool silent = false, garbage = false;
};

Options options;
std::atomic<size_t> statusCount{0};
std::mutex logMutex;

std::vector<std::string> split(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');)
        out.push_back(item);
    return out;
}

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    for (const auto& [from, to] : options.replace)
        for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
            text.replace(at, from.size(), to);
    return text;
}

void sendAll(int fd, const std::string& data) {
    for (size_t done = 0; done < data.size();) {
        const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        done += size_t(n);
    }
}

void logCommand(const std::string& command) {
    if (options.log.empty())
        return;
    std::lock_guard lock(logMutex);
    std::ofstream(options.log, std::ios::app) << command << '\n';
}

bool startsWithNoCase(const std::string& s, const char* prefix) {
    return ::strncasecmp(s.c_str(), prefix, std::strlen(prefix)) == 0;
}

void serve(int fd) {
    bool json = false;
    std::string pending;
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) {
        pending.append(buf, size_t(n));
        for (size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
            std::string command = pending.substr(0, nl);
            pending.erase(0, nl + 1);
            if (!command.empty() && command.back() == '\r')
                command.pop_back();
            logCommand(command);
            if (options.silent)
                continue;
            if (options.garbage) {
                sendAll(fd, std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n", 12));
                continue;
            }
            if (startsWithNoCase(command, "client protocol ")) {
                sendAll(fd, "SERVER PROTOCOL 2\n");
            } else if (startsWithNoCase(command, "timeout ")) {
                sendAll(fd, "OK\n");
            } else if (startsWithNoCase(command, "set format ")) {
                const std::string format = command.substr(11);
                if (::strcasecmp(format.c_str(), "json") == 0 && !options.json.empty()) {
                    json = true;
                    sendAll(fd, "OK\n");
                } else if (::strcasecmp(format.c_str(), "text") == 0 && !options.json.empty()) {
                    json = false;
                    sendAll(fd, "OK\n");
                } else {
                    sendAll(fd, "ERROR: Unknown command " + command + "\n");
                }
            } else if (::strcasecmp(command.c_str(), "status") == 0 ||
                       ::strcasecmp(command.c_str(), "verbose status") == 0) {
                const std::vector<std::string>& files = json ? options.json : options.text;
                const size_t nth = statusCount++;
                if (!files.empty())
                    sendAll(fd, fileText(files[std::min(nth, files.size() - 1)]));
                ::close(fd);
                return;
            } else {
                sendAll(fd, "ERROR: Unknown command " + command + "\n");
            }
        }
    }
    ::close(fd);
}

} // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a != "--silent" && a != "--garbage" && i + 1 >= argc) {
            std::fprintf(stderr, "ras stand-in: %s needs a value\n", a.c_str());
            return 2;
        }
        if (a == "--port")
            options.port = std::atoi(argv[++i]);
        else if (a == "--address")
            options.address = argv[++i];
        else if (a == "--text")
            options.text = split(argv[++i]);
        else if (a == "--json")
            options.json = split(argv[++i]);
        else if (a == "--replace") {
            const std::string pair = argv[++i];
            const size_t eq = pair.find('=');
            options.replace.emplace_back(pair.substr(0, eq),
                                         eq == std::string::npos ? "" : pair.substr(eq + 1));
        } else if (a == "--log")
            options.log = argv[++i];
        else if (a == "--silent")
            options.silent = true;
        else if (a == "--garbage")
            options.garbage = true;
        else {
            std::fprintf(stderr, "ras stand-in: unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(options.port));
    ::inet_pton(AF_INET, options.address.c_str(), &a.sin_addr);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener, 64) != 0) {
        std::perror("ras stand-in: bind");
        return 1;
    }
    socklen_t len = sizeof a;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
    std::printf("listening %d\n", ntohs(a.sin_port));
    std::fflush(stdout);
    for (int fd; (fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;)
        std::thread(serve, fd).detach();
    return 0;
}
