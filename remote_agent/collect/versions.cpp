#include "collectors.h"
#include "dynlib.h"

#include <sstream>
#include <sys/utsname.h>

namespace rsagent {
namespace {

std::optional<std::string> osPrettyName() {
    const auto text = readFileText("/etc/os-release", 65536);
    if (!text)
        return std::nullopt;
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            std::string v = line.substr(12);
            if (v.size() >= 2 && v.front() == '"' && v.back() == '"')
                v = v.substr(1, v.size() - 2);
            return v;
        }
    return std::nullopt;
}

// rdma-core's version is in libibverbs' file name: libibverbs.so.1.14.44.0 -> 44.0.
Json rdmaCoreVersion() {
    DynLib lib("libibverbs.so.1");
    if (!lib.loaded())
        return unavailable("libibverbs.so.1 not found");
    char resolved[4096];
    const std::string path = lib.path();
    std::string file = ::realpath(path.c_str(), resolved) ? resolved : path;
    file = file.substr(file.rfind('/') + 1);
    const auto so = file.find(".so.");
    std::string digits = so == std::string::npos ? std::string() : file.substr(so + 4); // 1.14.44.0
    int parts[4] = {};
    if (std::sscanf(digits.c_str(), "%d.%d.%d.%d", &parts[0], &parts[1], &parts[2], &parts[3]) == 4)
        return std::to_string(parts[2]) + "." + std::to_string(parts[3]);
    return unavailable("cannot read a version from " + file);
}

Json ncclVersion() {
    DynLib lib("libnccl.so.2");
    if (!lib.loaded())
        return unavailable("libnccl.so.2 not found");
    auto get = lib.get<int (*)(int*)>("ncclGetVersion");
    int code = 0;
    if (!get || get(&code) != 0)
        return unavailable("ncclGetVersion failed");
    // NCCL_VERSION(X,Y,Z) is X*10000+Y*100+Z since 2.9, X*1000+Y*100+Z before.
    const int major = code >= 10000 ? code / 10000 : code / 1000;
    const int minor = code >= 10000 ? code / 100 % 100 : code / 100 % 10;
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

Json cudaDriverVersion() {
    DynLib lib("libcuda.so.1");
    if (!lib.loaded())
        return unavailable("libcuda.so.1 not found");
    auto get = lib.get<int (*)(int*)>("cuDriverGetVersion");
    int v = 0;
    if (!get || get(&v) != 0)
        return unavailable("cuDriverGetVersion failed");
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

} // namespace

Json collectVersions(const HostFs& fs) {
    utsname u{};
    ::uname(&u);
    Json nvidia = unavailable("/proc/driver/nvidia/version not present");
    if (auto v = fs.proc("driver/nvidia/version"))
        nvidia = v->substr(0, v->find('\n'));
    Json ofed = unavailable("no MLNX_OFED (mlx5_core without a module version is the inbox driver)");
    if (auto v = fs.sys("module/mlx5_core/version"))
        ofed = Json{{"mlx5_core", *v}};
    return Json{{"kernel", orNull(fs.proc("sys/kernel/osrelease"))},
                {"machine", std::string(u.machine)},
                {"os", orNull(osPrettyName())},
                {"nvidia_driver", nvidia},
                {"cuda_driver", cudaDriverVersion()},
                {"nccl", ncclVersion()},
                {"rdma_core", rdmaCoreVersion()},
                {"ofed", ofed}};
}

} // namespace rsagent
