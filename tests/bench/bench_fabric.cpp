// Parse and analyse (tiers, rails, oversubscription, every finding, group
// proposals) the 40-switch NDR SuperPOD ibnetdiscover dump, beside a plain
// `grep -c` over the same file as a floor reference. Goal: under 100 ms.
#include "analysis/fabric_analysis.h"
#include "analysis/fabric_placement.h"
#include "import/ibnetdiscover_importer.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    const QString path = QStringLiteral(RACKSCOPE_FIXTURES_DIR "/ibnetdiscover-dgx-superpod-ndr-qm9701.txt");
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench_fabric: cannot read %s\n", qPrintable(path));
        return 1;
    }
    const int runs = 21;
    std::vector<double> ours, grep;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        f.seek(0);
        const rackscope::FabricImport r = rackscope::importIbnetdiscover(f.readAll(), path);
        if (!r.fabric)
            return 1;
        const rackscope::FabricAnalysis a = rackscope::analyseFabric(*r.fabric);
        QStringList hosts;
        for (const rackscope::FabricHost& h : a.hosts)
            hosts << h.name;
        if (a.tiers.size() != 40 || rackscope::proposeGroups(*r.fabric, a, hosts, 8).groups.empty())
            return 1;
        ours.push_back(double(t.nsecsElapsed()) / 1e6);
        QProcess p;
        p.setStandardOutputFile(QProcess::nullDevice());
        t.restart();
        p.start(QStringLiteral("grep"), {QStringLiteral("-c"), QStringLiteral("4xNDR"), path});
        if (!p.waitForFinished(10000))
            return 1;
        grep.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ours.begin(), ours.end());
    std::sort(grep.begin(), grep.end());
    const double o = ours[runs / 2], g = grep[runs / 2];
    std::printf("bench_fabric: %s (%lld bytes), median of %d runs\n",
                "ibnetdiscover-dgx-superpod-ndr-qm9701.txt", static_cast<long long>(f.size()), runs);
    std::printf("  grep -c (floor, whole process)      %8.2f ms\n", g);
    std::printf("  parse + analysis + groups (in proc) %8.2f ms   ratio %.2f to grep; goal < 100 ms\n", o,
                o / g);
    return 0;
}
