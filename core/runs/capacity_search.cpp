#include "capacity_search.h"

#include <cmath>
#include <cstdio>

namespace rackscope {

namespace {
constexpr double kMinRate = 0.01; // below one request a minute and a half: no capacity to speak of
}

CapacitySearch::CapacitySearch(By by, double start, double tolerance, int maxSteps)
    : by_(by), tolerance_(tolerance), maxSteps_(maxSteps) {
    next_ = snap(start);
}

double CapacitySearch::snap(double v) const {
    return by_ == By::Concurrency ? std::max(1.0, std::round(v)) : std::max(kMinRate, v);
}

std::optional<double> CapacitySearch::next() const {
    return next_;
}

void CapacitySearch::record(bool held) {
    if (!next_)
        return;
    const double v = *next_;
    steps_.push_back({v, held, repeating_});
    if (repeating_) {
        repeating_ = false;
        if (held) {
            confirmed_ = true;
        } else { // it held once and broke once: not a value the deployment serves reliably
            high_ = v;
            low_.reset();
            for (const CapacityStep& s : steps_) // the best value below it that never broke
                if (s.value < v && s.held) {
                    bool everBroke = false;
                    for (const CapacityStep& t : steps_)
                        everBroke = everBroke || (t.value == s.value && !t.held);
                    if (!everBroke && (!low_ || s.value > *low_))
                        low_ = s.value;
                }
        }
    } else if (held) {
        low_ = low_ ? std::max(*low_, v) : v;
    } else {
        high_ = high_ ? std::min(*high_, v) : v;
    }
    plan();
}

void CapacitySearch::plan() {
    next_.reset();
    if (int(steps_.size()) >= maxSteps_)
        return;
    const bool narrow =
        low_ && high_ &&
        (by_ == By::Concurrency ? *high_ - *low_ <= 1 : (*high_ - *low_) <= tolerance_ * *low_);
    if (low_ && !high_) {
        next_ = snap(*low_ * 2); // still holding: double
    } else if (high_ && !low_) {
        const double half = snap(*high_ / 2);
        if (half < *high_)
            next_ = half; // broken from the start: halve
    } else if (!narrow) {
        const double mid = snap((*low_ + *high_) / 2);
        if (mid > *low_ && mid < *high_)
            next_ = mid;
    }
    if (!next_ && low_ && high_ && !confirmed_) { // the bracket is narrow: run the best value again
        next_ = *low_;
        repeating_ = true;
    }
}

std::string CapacitySearch::describe() const {
    const char* unit = by_ == By::Rate ? "requests/s" : "requests in flight";
    const auto fmt = [&](double v) {
        char b[64];
        std::snprintf(b, sizeof b, by_ == By::Rate ? "%.3g" : "%.0f", v);
        return std::string(b);
    };
    if (!low_ && high_)
        return "the SLO broke at every value tried, down to " +
               fmt(steps_.empty() ? *high_ : steps_.back().value) + " " + unit;
    if (!low_)
        return "no step ran";
    if (!high_)
        return "at least " + fmt(*low_) + " " + unit + " (the SLO held at every value tried)";
    return "about " + fmt(*low_) + " " + unit + " (held at " + fmt(*low_) + ", broke at " + fmt(*high_) +
           (confirmed_ ? "; held again when repeated)" : "; not repeated)");
}

} // namespace rackscope
