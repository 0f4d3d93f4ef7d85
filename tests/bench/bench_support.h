#pragma once
// What the benchmarks share: a median, and the median wall time of a whole
// process whose output goes nowhere.
#include <QElapsedTimer>
#include <QProcess>
#include <QStringList>
#include <algorithm>
#include <vector>

namespace rackscope::bench {

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// -1 when a run fails; its stderr goes to ours, so the reason shows.
inline double timeProcess(const QString& program, const QStringList& args, int runs) {
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        QProcess p;
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.setStandardOutputFile(QProcess::nullDevice());
        QElapsedTimer t;
        t.start();
        p.start(program, args);
        if (!p.waitForFinished(600000) || p.exitCode() != 0)
            return -1;
        times.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    return median(times);
}

} // namespace rackscope::bench
