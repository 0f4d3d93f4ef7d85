#pragma once
// The search for a deployment's capacity at an SLO: the highest request rate
// (or concurrency) at which the SLO still holds. It brackets (doubling from
// the start until the SLO breaks, or halving until it holds), then bisects
// until the bracket is within the tolerance, then runs the best holding value
// again: if the repeat breaks, that value counts as broken and the search goes
// on below it. The capacity is the highest value that held every time it ran,
// with the bracket as its uncertainty. Plain logic: the runner runs each step.
#include <optional>
#include <string>
#include <vector>

namespace rackscope {

struct CapacityStep {
    double value = 0;
    bool held = false;
    bool repeat = false; // the confirming run of a value that held
};

class CapacitySearch {
public:
    enum class By { Rate, Concurrency };
    // start > 0; tolerance: the bracket's width over its low end at which bisection stops (rate), or 1
    // (concurrency); maxSteps bounds the whole search.
    CapacitySearch(By by, double start, double tolerance = 0.05, int maxSteps = 20);

    By by() const { return by_; }
    std::optional<double> next() const; // the value to run next; none when the search is over
    bool nextIsRepeat() const { return repeating_; }
    void record(bool held); // the outcome of running next()

    const std::vector<CapacityStep>& steps() const { return steps_; }
    std::optional<double> capacity() const { return low_; }     // highest value that held every time
    std::optional<double> brokenAbove() const { return high_; } // lowest value that broke
    // "about 81.2 requests/s (between 78.1 and 84.4)", or why there is none.
    std::string describe() const;

private:
    double snap(double v) const;
    void plan();

    By by_;
    double tolerance_;
    int maxSteps_;
    std::optional<double> low_, high_;
    std::optional<double> next_;
    bool repeating_ = false, confirmed_ = false;
    std::vector<CapacityStep> steps_;
};

} // namespace rackscope
