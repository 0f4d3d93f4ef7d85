#include "load_timeline.h"

#include <algorithm>
#include <cmath>

namespace rackscope {

void LoadTimeline::clear() {
    windows_.clear();
    ttft_.clear();
    tpot_.clear();
    e2el_.clear();
    clientsInFlight_.clear();
    inFlight_.clear();
    server_.clear();
    gpus_.clear();
    steps_.clear();
    ++revision_;
}

void LoadTimeline::add(const rsload::RequestRecord& r) {
    if (r.warmup)
        return;
    const double end = r.sentS + r.e2elMs.value_or(0) / 1000.0;
    const double index = std::floor(end / windowS_);
    LoadWindow& w = windows_[int64_t(index)];
    w.startS = index * windowS_;
    ++revision_;
    if (!r.ok()) {
        ++w.failed;
        return;
    }
    ++w.completed;
    w.outputTokens += r.outputTokens.value_or(0);
    if (r.ttftMs) {
        w.ttft.push_back(*r.ttftMs);
        ttft_.push_back(*r.ttftMs);
    }
    if (auto t = r.tpotMs()) {
        w.tpot.push_back(*t);
        tpot_.push_back(*t);
    }
    if (r.e2elMs)
        e2el_.push_back(*r.e2elMs);
}

void LoadTimeline::progress(const std::string& client, double elapsedS, int64_t inFlight) {
    clientsInFlight_[client] = inFlight;
    int64_t total = 0;
    for (const auto& [name, n] : clientsInFlight_)
        total += n;
    inFlight_.emplace_back(elapsedS, total);
    ++revision_;
}

void LoadTimeline::serverSample(const rsload::ServerSample& s) {
    if (s.tS < 0 || !s.error.empty())
        return;
    server_.push_back(s);
    ++revision_;
}

void LoadTimeline::gpuSample(const rsload::GpuSample& s) {
    if (s.tS < 0 || !s.error.empty())
        return;
    auto it = std::find_if(gpus_.begin(), gpus_.end(), [&](const auto& w) { return w.first == s.host; });
    if (it == gpus_.end())
        it = gpus_.insert(gpus_.end(), {s.host, {}});
    it->second.push_back(s);
    ++revision_;
}

void LoadTimeline::replay(const std::vector<rsload::RequestRecord>& records) {
    std::vector<std::pair<double, int>>
        changes; // (time, +1 sent / -1 ended), ends before sends at one instant
    for (const rsload::RequestRecord& r : records) {
        add(r);
        if (r.warmup || !r.e2elMs)
            continue;
        changes.emplace_back(r.sentS, +1);
        changes.emplace_back(r.sentS + *r.e2elMs / 1000.0, -1);
    }
    std::sort(changes.begin(), changes.end());
    int64_t open = 0;
    for (const auto& [at, change] : changes) {
        open += change;
        if (!inFlight_.empty() && inFlight_.back().first == at)
            inFlight_.back().second = open;
        else
            inFlight_.emplace_back(at, open);
    }
    ++revision_;
}

void LoadTimeline::addStep(double value, const rsload::LoadSummary& s) {
    // the highest percentile asked for (99 by default); unknown (NaN: not drawn) when nothing measured it
    const auto tail = [&](const char* m) {
        const rsload::MetricStats& st = s.metrics.at(m);
        return st.count && !st.percentiles.empty() ? st.percentiles.back().second : std::nan("");
    };
    steps_.push_back({value, s.requestThroughput, s.outputThroughput, tail("ttft"), tail("tpot")});
    ++revision_;
}

std::vector<std::pair<double, size_t>> LoadTimeline::histogram(const std::string& metric, int bins) const {
    const std::vector<double>& v = metric == "ttft" ? ttft_ : metric == "tpot" ? tpot_ : e2el_;
    std::vector<std::pair<double, size_t>> out;
    if (v.empty() || bins <= 0)
        return out;
    const double top = *std::max_element(v.begin(), v.end());
    const double width = top > 0 ? top / bins : 1.0;
    for (int i = 0; i < bins; ++i)
        out.emplace_back(width * (i + 0.5), 0);
    for (double x : v)
        ++out[size_t(std::min(bins - 1, int(x / width)))].second;
    return out;
}

} // namespace rackscope
