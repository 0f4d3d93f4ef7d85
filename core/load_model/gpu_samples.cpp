#include "gpu_samples.h"

#include <algorithm>
#include <map>

namespace rsload {
namespace {

struct Field {
    const char* key;
    std::optional<double> GpuReading::*member;
};
constexpr Field kFields[] = {
    {"util_pct", &GpuReading::utilPct},        {"mem_util_pct", &GpuReading::memUtilPct},
    {"mem_used_mib", &GpuReading::memUsedMiB}, {"mem_total_mib", &GpuReading::memTotalMiB},
    {"power_w", &GpuReading::powerW},          {"sm_clock_mhz", &GpuReading::smClockMHz},
};

Json valueOrNull(const std::optional<double>& v) {
    return v ? Json(*v) : Json();
}

std::string textOr(const Json& j, const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::optional<GpuReading> readingFromJson(const Json& j, std::string* why) {
    if (!j.is_object() || !j.contains("index") || !j["index"].is_number_integer()) {
        *why = "a GPU reading needs an integer index";
        return std::nullopt;
    }
    GpuReading r;
    r.index = j["index"].get<int>();
    r.uuid = textOr(j, "uuid");
    r.name = textOr(j, "name");
    for (const Field& f : kFields) {
        if (!j.contains(f.key) || j[f.key].is_null())
            continue;
        if (!j[f.key].is_number()) {
            *why = std::string("a GPU reading's ") + f.key + " is not a number";
            return std::nullopt;
        }
        r.*f.member = j[f.key].get<double>();
    }
    return r;
}

} // namespace

Json toJson(const GpuSample& s) {
    Json j{{"t_s", s.tS}, {"host", s.host}};
    if (!s.error.empty()) {
        j["error"] = s.error;
        return j;
    }
    Json gpus = Json::array();
    for (const GpuReading& r : s.gpus) {
        Json g{{"index", r.index},
               {"uuid", r.uuid.empty() ? Json() : Json(r.uuid)},
               {"name", r.name.empty() ? Json() : Json(r.name)}};
        for (const Field& f : kFields)
            g[f.key] = valueOrNull(r.*f.member);
        gpus.push_back(std::move(g));
    }
    j["gpus"] = std::move(gpus);
    return j;
}

std::optional<double> meanUtilisation(const GpuSample& s) {
    double sum = 0;
    int n = 0;
    for (const GpuReading& g : s.gpus)
        if (g.utilPct) {
            sum += *g.utilPct;
            ++n;
        }
    return n ? std::optional<double>(sum / n) : std::nullopt;
}

std::optional<GpuSample> gpuSampleFromJson(const Json& j, std::string* why) {
    if (!j.is_object() || !j.contains("t_s") || !j["t_s"].is_number()) {
        *why = "a GPU sample needs a number t_s";
        return std::nullopt;
    }
    GpuSample s;
    s.tS = j["t_s"].get<double>();
    s.host = textOr(j, "host");
    if (j.contains("error")) {
        if (!j["error"].is_string()) {
            *why = "a GPU sample's error is not text";
            return std::nullopt;
        }
        s.error = j["error"].get<std::string>();
        return s;
    }
    if (!j.contains("gpus") || !j["gpus"].is_array()) {
        *why = "a GPU sample needs a gpus array or an error";
        return std::nullopt;
    }
    for (const Json& g : j["gpus"]) {
        std::optional<GpuReading> r = readingFromJson(g, why);
        if (!r)
            return std::nullopt;
        s.gpus.push_back(std::move(*r));
    }
    return s;
}

GpuSample gpuSampleFromAgent(const Json& data, const std::string& host, double tS) {
    GpuSample s;
    s.tS = tS;
    s.host = host;
    const Json* gpus = data.is_object() && data.contains("gpus") ? &data["gpus"] : nullptr;
    if (!gpus || !gpus->is_object()) {
        s.error = "its agent reads no GPUs (an agent older than GPU sampling)";
        return s;
    }
    if (!gpus->value("available", false)) {
        const std::string reason = textOr(*gpus, "reason");
        s.error = reason.empty() ? "its agent could not read its GPUs and did not say why" : reason;
        return s;
    }
    std::string why;
    if (gpus->contains("gpus") && (*gpus)["gpus"].is_array())
        for (const Json& g : (*gpus)["gpus"])
            if (std::optional<GpuReading> r = readingFromJson(g, &why))
                s.gpus.push_back(std::move(*r));
    if (s.gpus.empty())
        s.error = why.empty() ? "NVML lists no GPU" : "its agent's GPU readings could not be read: " + why;
    return s;
}

GpuUseSummary summarizeGpuUse(const std::vector<GpuSample>& samples,
                              const std::vector<std::string>& workers) {
    GpuUseSummary out;
    out.workers = workers;
    struct Sums {
        GpuUse use;
        double util = 0, power = 0, clock = 0;
        int utilN = 0, powerN = 0, clockN = 0;
    };
    std::map<std::pair<std::string, int>, Sums> byGpu;
    std::map<std::string, std::string> firstError;
    std::map<std::string, bool> read;
    const auto peak = [](std::optional<double>& best, const std::optional<double>& v) {
        if (v)
            best = best ? std::max(*best, *v) : *v;
    };
    for (const GpuSample& s : samples) {
        if (!s.error.empty()) { // why a worker was not read, whenever it said so
            firstError.emplace(s.host, s.error);
            continue;
        }
        if (s.tS < 0)
            continue; // warm-up
        read[s.host] = true;
        for (const GpuReading& r : s.gpus) {
            Sums& sum = byGpu[{s.host, r.index}];
            GpuUse& u = sum.use;
            u.host = s.host;
            u.index = r.index;
            if (!r.uuid.empty())
                u.uuid = r.uuid;
            if (!r.name.empty())
                u.name = r.name;
            ++u.samples;
            peak(u.utilPeak, r.utilPct);
            peak(u.memUsedPeakMiB, r.memUsedMiB);
            peak(u.powerPeakW, r.powerW);
            if (r.memTotalMiB)
                u.memTotalMiB = r.memTotalMiB;
            const auto add = [](double& total, int& n, const std::optional<double>& v) {
                if (v) {
                    total += *v;
                    ++n;
                }
            };
            add(sum.util, sum.utilN, r.utilPct);
            add(sum.power, sum.powerN, r.powerW);
            add(sum.clock, sum.clockN, r.smClockMHz);
        }
    }
    const auto meanOf = [](double total, int n) {
        return n ? std::optional<double>(total / n) : std::nullopt;
    };
    const auto rank = [&](const std::string& host) {
        return size_t(std::find(workers.begin(), workers.end(), host) - workers.begin());
    };
    for (auto& [key, sum] : byGpu) {
        sum.use.utilMean = meanOf(sum.util, sum.utilN);
        sum.use.powerMeanW = meanOf(sum.power, sum.powerN);
        sum.use.smClockMeanMHz = meanOf(sum.clock, sum.clockN);
        out.gpus.push_back(sum.use);
    }
    std::stable_sort(out.gpus.begin(), out.gpus.end(), [&](const GpuUse& a, const GpuUse& b) {
        return std::make_pair(rank(a.host), a.index) < std::make_pair(rank(b.host), b.index);
    });
    std::vector<std::string> hosts = workers;
    for (const auto& [host, error] : firstError)
        if (std::find(hosts.begin(), hosts.end(), host) == hosts.end())
            hosts.push_back(host);
    for (const std::string& host : hosts) {
        if (read.count(host))
            continue;
        const auto e = firstError.find(host);
        out.unread.emplace_back(host, e != firstError.end() ? e->second : "no reading came during the run");
    }
    return out;
}

Json toJson(const GpuUseSummary& s) {
    Json gpus = Json::array();
    for (const GpuUse& u : s.gpus)
        gpus.push_back(Json{{"host", u.host},
                            {"index", u.index},
                            {"uuid", u.uuid.empty() ? Json() : Json(u.uuid)},
                            {"name", u.name.empty() ? Json() : Json(u.name)},
                            {"samples", u.samples},
                            {"mean_util_pct", valueOrNull(u.utilMean)},
                            {"peak_util_pct", valueOrNull(u.utilPeak)},
                            {"peak_mem_used_mib", valueOrNull(u.memUsedPeakMiB)},
                            {"mem_total_mib", valueOrNull(u.memTotalMiB)},
                            {"mean_power_w", valueOrNull(u.powerMeanW)},
                            {"peak_power_w", valueOrNull(u.powerPeakW)},
                            {"mean_sm_clock_mhz", valueOrNull(u.smClockMeanMHz)}});
    Json unread = Json::object();
    for (const auto& [host, why] : s.unread)
        unread[host] = why;
    return Json{{"workers", s.workers}, {"gpus", gpus}, {"unread", unread}};
}

} // namespace rsload
