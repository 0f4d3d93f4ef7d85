// Stands in for perftest's ib_write_bw on a machine without an RDMA NIC, installed on a test host's PATH
// under that name. It takes ib_write_bw's arguments, refuses a device the host's /sys/class/infiniband
// lacks as perftest does, and meets its peer over TCP on the -p port exactly as perftest's out-of-band
// exchange does (a client with no server gets perftest's "Couldn't connect"). Each side then replays a
// real capture (RACKSCOPE_PERFTEST_STANDIN_SERVER / _CLIENT) with the requested device in its header. A
// device listed in the file RACKSCOPE_PERFTEST_STANDIN_FACTORS names ("mlx5_1 0.5" lines; read at each run,
// so a test can slow a link between runs) is slow: the two sides exchange their factors, and both print
// the capture's bandwidth times the smaller one, as a slow end slows the pair.
#include <arpa/inet.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <netdb.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

double ownFactor(const std::string& device) {
    std::ifstream in(env("RACKSCOPE_PERFTEST_STANDIN_FACTORS"));
    std::string name;
    double factor = 1;
    while (in >> name >> factor)
        if (name == device)
            return factor;
    return 1;
}

// The capture, line by line: the device put in, result rows scaled. Peak stays as captured (0.00 there).
void replay(const std::string& path, const std::string& device, double factor) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "stand-in: cannot read %s\n", path.c_str());
        std::exit(3);
    }
    std::string line;
    while (std::getline(in, line)) {
        if (const size_t at = line.find("Device         : "); at != std::string::npos) {
            const size_t start = at + 17, end = line.find_first_of(" \t", start);
            line.replace(start, (end == std::string::npos ? line.size() : end) - start, device);
        }
        long long bytes = 0, iterations = 0;
        double peak = 0, average = 0, rate = 0;
        char rest = 0;
        if (std::sscanf(line.c_str(), " %lld %lld %lf %lf %lf %c", &bytes, &iterations, &peak, &average,
                        &rate, &rest) == 5) {
            std::printf(" %-10lld %-16lld %-18.2f %-21.2f %.6f\n", bytes, iterations, peak, average * factor,
                        rate * factor);
            continue;
        }
        std::printf("%s\n", line.c_str());
    }
}

bool exchange(int fd, double mine, double* theirs) {
    char out[64];
    const int n = std::snprintf(out, sizeof out, "%.6f\n", mine);
    if (::write(fd, out, size_t(n)) != n)
        return false;
    char in[64] = {};
    size_t got = 0;
    while (got < sizeof in - 1 && (got == 0 || in[got - 1] != '\n')) {
        const ssize_t r = ::read(fd, in + got, sizeof in - 1 - got);
        if (r <= 0)
            return false;
        got += size_t(r);
    }
    *theirs = std::atof(in);
    return true;
}

} // namespace

int main(int argc, char** argv) {
    std::string device, peer;
    int tcpPort = 18515, duration = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "-d" && hasValue)
            device = argv[++i];
        else if (a == "-p" && hasValue)
            tcpPort = std::atoi(argv[++i]);
        else if (a == "-D" && hasValue)
            duration = std::atoi(argv[++i]);
        else if ((a == "-i" || a == "-s" || a == "-q" || a == "-x") && hasValue)
            ++i;
        else if (a == "-F" || a == "--report_gbits" || a.rfind("--use_cuda=", 0) == 0)
            continue;
        else if (a[0] == '-') {
            std::fprintf(stderr, "ib_write_bw: invalid option -- '%s'\n", a.c_str());
            return 1;
        } else
            peer = a;
    }
    struct stat st {};
    if (device.empty() || ::stat(("/sys/class/infiniband/" + device).c_str(), &st) != 0) {
        std::fprintf(stderr, "IB device %s not found\n Unable to find the Infiniband/RoCE device\n",
                     device.c_str());
        return 1;
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const double mine = ownFactor(device);
    double theirs = 1;
    int fd = -1;
    if (peer.empty()) {
        const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(uint16_t(tcpPort));
        if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
            ::listen(listener, 1) != 0) {
            std::fprintf(stderr, "Couldn't listen to port %d\n", tcpPort);
            return 1;
        }
        fd = ::accept(listener, nullptr, nullptr);
        ::close(listener);
    } else {
        addrinfo hints{}, *found = nullptr;
        hints.ai_family = AF_INET;
        hints.ai_socktype = SOCK_STREAM;
        if (::getaddrinfo(peer.c_str(), std::to_string(tcpPort).c_str(), &hints, &found) == 0) {
            fd = ::socket(AF_INET, SOCK_STREAM, 0);
            if (::connect(fd, found->ai_addr, found->ai_addrlen) != 0) {
                ::close(fd);
                fd = -1;
            }
            ::freeaddrinfo(found);
        }
        if (fd < 0) {
            std::fprintf(stderr,
                         "Couldn't connect to %s:%d\nUnable to open file descriptor for socket connection\n",
                         peer.c_str(), tcpPort);
            return 1;
        }
    }
    if (fd < 0 || !exchange(fd, mine, &theirs)) {
        std::fprintf(stderr, "Failed to exchange data between server and clients\n");
        return 1;
    }
    ::sleep(unsigned(duration)); // the test's duration, as -D runs it
    replay(env(peer.empty() ? "RACKSCOPE_PERFTEST_STANDIN_SERVER" : "RACKSCOPE_PERFTEST_STANDIN_CLIENT"),
           device, mine < theirs ? mine : theirs);
    ::close(fd);
    return 0;
}
