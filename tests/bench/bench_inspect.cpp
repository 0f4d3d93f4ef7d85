// `rackscope-cli inspect` on the largest hwloc fixture beside
// `lstopo-no-graphics --input` on the same file, both as whole processes,
// in one run. Goal: ratio at most 1.0.
#include "analysis/host_analysis.h"
#include "bench_support.h"
#include "import/topology_loader.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <algorithm>
#include <cstdio>

int main() {
    const QDir dir(QStringLiteral(RACKSCOPE_FIXTURES_DIR));
    QFileInfoList files = dir.entryInfoList({QStringLiteral("hwloc-*.xml")}, QDir::Files);
    files.erase(
        std::remove_if(files.begin(), files.end(),
                       [](const QFileInfo& f) { return f.fileName().endsWith(QLatin1String(".v3.xml")); }),
        files.end());
    if (files.isEmpty()) {
        fprintf(stderr, "bench_inspect: no hwloc fixtures in %s\n", qPrintable(dir.path()));
        return 1;
    }
    const QFileInfo largest =
        *std::max_element(files.begin(), files.end(),
                          [](const QFileInfo& a, const QFileInfo& b) { return a.size() < b.size(); });
    const QString lstopo = QStandardPaths::findExecutable(QStringLiteral("lstopo-no-graphics"));
    if (lstopo.isEmpty()) {
        fprintf(stderr, "bench_inspect: lstopo-no-graphics not found (Debian package hwloc-nox)\n");
        return 1;
    }
    const int runs = 21;
    const QString path = largest.absoluteFilePath();
    const double ours =
        rackscope::bench::timeProcess(QStringLiteral(RACKSCOPE_CLI), {QStringLiteral("inspect"), path}, runs);
    const double theirs = rackscope::bench::timeProcess(lstopo, {QStringLiteral("--input"), path}, runs);
    const double startup =
        rackscope::bench::timeProcess(QStringLiteral(RACKSCOPE_CLI), {QStringLiteral("--version")}, runs);
    if (ours < 0 || theirs < 0 || startup < 0) {
        fprintf(stderr, "bench_inspect: a run failed (rackscope-cli %.1f, lstopo %.1f)\n", ours, theirs);
        return 1;
    }
    // In-process cost of import + analysis alone, for the record.
    std::vector<double> inproc;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        auto r = rackscope::loadTopologyFile(path);
        if (!r.host)
            return 1;
        const auto a = rackscope::analyzeHost(*r.host);
        inproc.push_back(double(t.nsecsElapsed()) / 1e6);
        if (a.gpuNic.size() > 1000000)
            return 1; // keep the work observable
    }
    printf("bench_inspect: %s (%lld bytes), median of %d runs\n", qPrintable(largest.fileName()),
           static_cast<long long>(largest.size()), runs);
    const double work = rackscope::bench::median(inproc);
    printf("  lstopo-no-graphics --input    %8.2f ms   (reference, whole process)\n", theirs);
    printf("  rackscope-cli inspect         %8.2f ms   whole process; ratio %.2f (goal <= 1.0)\n", ours,
           ours / theirs);
    printf("  rackscope-cli --version       %8.2f ms   start-up floor of a Qt process\n", startup);
    printf("  import+analysis in process    %8.2f ms   ratio %.2f against lstopo's whole run\n", work,
           work / theirs);
    return 0;
}
