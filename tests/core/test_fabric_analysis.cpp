// Rails, leaf counts and oversubscription on the real SuperPOD capture,
// checked against the test's own plain reading of the file; design files
// merged with discovered fabrics; hop distances and group proposals.
#include "test_support.h"

#include "analysis/fabric_analysis.h"
#include "analysis/fabric_merge.h"
#include "analysis/fabric_placement.h"
#include "import/fabric_file.h"
#include "import/ibnetdiscover_importer.h"
#include "report/fabric_report.h"

#include <map>
#include <set>

using namespace rackscope;
using namespace rackscope::test;

namespace {

const QString kSuperpod = QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt");

// The file read the plain way: which switch each server device is cabled to,
// and how many cables each leaf has to servers and to other switches.
struct PlainReading {
    std::map<QString, std::map<QString, QString>> leafOf; // host -> device -> switch guid
    std::map<QString, int> toServers, toSwitches;         // switch guid -> cables
};

PlainReading readPlainly(const QByteArray& text) {
    PlainReading r;
    QString current, host, device;
    bool currentIsSwitch = false;
    std::map<QString, bool> isSwitch;
    std::map<QString, std::vector<QString>> switchPeers;
    for (const QString& line : QString::fromUtf8(text).split(QLatin1Char('\n'))) {
        const QStringList quoted = line.split(QLatin1Char('"'));
        if (line.startsWith(QLatin1String("Switch")) || line.startsWith(QLatin1String("Ca"))) {
            current = quoted.value(1);
            currentIsSwitch = line.startsWith(QLatin1String("Switch"));
            isSwitch[current] = currentIsSwitch;
            const QStringList words = quoted.value(3).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            host = words.size() == 2 && !currentIsSwitch ? words[0] : QString();
            device = words.size() == 2 ? words[1] : QString();
        } else if (line.startsWith(QLatin1Char('[')) && !current.isEmpty()) {
            const QString peer = quoted.value(1);
            if (currentIsSwitch)
                switchPeers[current].push_back(peer);
            else if (!host.isEmpty() && peer.startsWith(QLatin1String("S-")))
                r.leafOf[host][device] = peer;
        }
    }
    for (const auto& [sw, peers] : switchPeers)
        for (const QString& p : peers)
            if (isSwitch[p])
                r.toSwitches[sw]++;
    for (const auto& [h, devices] : r.leafOf)
        for (const auto& [d, sw] : devices)
            r.toServers[sw]++;
    return r;
}

QStringList subjectsOf(const FabricAnalysis& a, const char* code, int subjectIndex = 0) {
    QStringList out;
    for (const Finding& f : a.findings)
        if (f.code == QLatin1String(code))
            out << f.subjects.value(subjectIndex);
    out.sort();
    return out;
}

Fabric design(const QByteArray& text) {
    const FabricFileImport r = importFabricFile(text, QStringLiteral("design.fabric"));
    if (!r.fabric)
        qFatal("design: %s", qPrintable(r.error));
    return *r.fabric;
}

} // namespace

class TestFabricAnalysis : public QObject {
    Q_OBJECT
private slots:
    void superpodRailsAndBreaks() {
        const QByteArray text = fixtureBytes(kSuperpod);
        const FabricImport r = importIbnetdiscover(text, kSuperpod);
        QVERIFY(r.fabric);
        const FabricAnalysis a = analyseFabric(*r.fabric);
        PlainReading plain = readPlainly(text);
        QCOMPARE(int(a.hosts.size()), int(plain.leafOf.size()));

        // Each leaf's rail is the device most of its servers cable there; any
        // other device on it breaks the rail.
        std::map<QString, std::map<QString, int>> devicesOnLeaf;
        for (const auto& [h, devices] : plain.leafOf)
            for (const auto& [d, sw] : devices)
                devicesOnLeaf[sw][d]++;
        std::map<QString, QString> railOf;
        std::set<QString> railDevices;
        for (const auto& [sw, counts] : devicesOnLeaf) {
            int total = 0;
            auto best = counts.begin();
            for (auto it = counts.begin(); it != counts.end(); ++it) {
                total += it->second;
                if (it->second > best->second)
                    best = it;
            }
            if (best->second * 2 > total)
                railOf[sw] = best->first, railDevices.insert(best->first);
        }
        QStringList expectedBreaks;
        for (const auto& [h, devices] : plain.leafOf)
            for (const auto& [d, sw] : devices)
                if (railOf.count(sw) && railOf[sw] != d)
                    expectedBreaks << h + QLatin1Char(' ') + d;
        expectedBreaks.sort();
        QStringList breaks;
        for (const Finding& f : a.findings)
            if (f.code == QLatin1String("fabric-rail-break")) {
                breaks << f.subjects[0] + QLatin1Char(' ') + f.subjects[1];
                // It targets the cable itself: one link, whose server end is that host's device.
                QCOMPARE(f.target.host, f.subjects[0]);
                QCOMPARE(f.target.devices, QStringList{f.subjects[1]});
                QCOMPARE(f.target.links.size(), size_t(1));
                const Fabric& fabric = *r.fabric;
                const FabricLink& cable = fabric.links.at(f.target.links[0]);
                const FabricNode* a_ = fabric.node(cable.a);
                const FabricNode* b_ = fabric.node(cable.b);
                QVERIFY((a_ && a_->host == f.subjects[0] && a_->device == f.subjects[1]) ||
                        (b_ && b_->host == f.subjects[0] && b_->device == f.subjects[1]));
            }
        breaks.sort();
        QCOMPARE(breaks, expectedBreaks);
        // The capture holds one server with two cables swapped between rails.
        QVERIFY(breaks.contains(QStringLiteral("b08-p1-dgx-08-c01 HCA-5")));
        QVERIFY(breaks.contains(QStringLiteral("b08-p1-dgx-08-c01 HCA-6")));
        QCOMPARE(int(a.rails.size()), int(railDevices.size()));

        // Hosts reaching other than the usual number of leaves.
        std::map<int, int> howMany;
        for (const auto& [h, devices] : plain.leafOf) {
            std::set<QString> leaves;
            for (const auto& [d, sw] : devices)
                leaves.insert(sw);
            howMany[int(leaves.size())]++;
        }
        const int usual = std::max_element(howMany.begin(), howMany.end(), [](auto x, auto y) {
                              return x.second < y.second;
                          })->first;
        QStringList odd;
        for (const auto& [h, devices] : plain.leafOf) {
            std::set<QString> leaves;
            for (const auto& [d, sw] : devices)
                leaves.insert(sw);
            if (int(leaves.size()) != usual)
                odd << h;
        }
        odd.sort();
        QCOMPARE(subjectsOf(a, "fabric-host-leaf-count"), odd);
        QCOMPARE(usual, 4);

        // Every cable is 4xNDR, so a leaf's oversubscription is its server cables over its switch cables.
        QCOMPARE(int(a.leaves.size()), 31);
        for (const LeafLoad& l : a.leaves) {
            QCOMPARE(l.downlinks, plain.toServers[l.leaf]);
            QCOMPARE(l.uplinks, plain.toSwitches[l.leaf]);
            QVERIFY(l.ratio());
            QVERIFY(qFuzzyCompare(*l.ratio(), double(l.downlinks) / l.uplinks));
        }
        QVERIFY(subjectsOf(a, "fabric-link-below-peers").isEmpty());
    }

    void linkRates() {
        QCOMPARE(linkGbps(QStringLiteral("4x"), QStringLiteral("NDR")), std::optional<double>(400));
        QCOMPARE(linkGbps(QStringLiteral("4x"), QStringLiteral("EDR")), std::optional<double>(100));
        QCOMPARE(linkGbps(QStringLiteral("4x"), QStringLiteral("SDR")), std::optional<double>(8));
        QCOMPARE(linkGbps({}, QStringLiteral("100G")), std::optional<double>(100));
        QCOMPARE(linkGbps({}, QStringLiteral("NDR")), std::nullopt);
        QCOMPARE(linkGbps(QStringLiteral("4x"), QStringLiteral("WARP")), std::nullopt);
    }

    void slowLinkAmongItsPeers() {
        // The SuperPOD with one leaf-spine cable trained down to 4xHDR.
        FabricImport r = importIbnetdiscover(fixtureBytes(kSuperpod), kSuperpod);
        QVERIFY(r.fabric);
        auto spineCable =
            std::find_if(r.fabric->links.begin(), r.fabric->links.end(), [&](const FabricLink& l) {
                return r.fabric->node(l.a)->description.contains(QStringLiteral("IBSPINE")) ||
                       r.fabric->node(l.b)->description.contains(QStringLiteral("IBSPINE"));
            });
        QVERIFY(spineCable != r.fabric->links.end());
        spineCable->speed = QStringLiteral("HDR");
        const FabricAnalysis a = analyseFabric(*r.fabric);
        const QStringList slow = subjectsOf(a, "fabric-link-below-peers");
        QCOMPARE(slow.size(), 1);
        QVERIFY2(slow[0].contains(QStringLiteral("IBSPINE")), qPrintable(slow[0]));
    }

    void designMergedWithDiscovery() {
        const FabricImport sdr = importIbnetdiscover(
            fixtureBytes(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt")), QStringLiteral("sdr"));
        QVERIFY(sdr.fabric);
        // The design names the real switch by its GUID, expects QDR, and one cable the capture does not have.
        const FabricNode* sw = nullptr;
        const FabricNode* ca = nullptr;
        for (const FabricNode& n : sdr.fabric->nodes) {
            if (n.kind == FabricNodeKind::Switch)
                sw = &n;
            else if (!ca && !n.host.isEmpty())
                ca = &n;
        }
        QVERIFY(sw && ca);
        int usedPort = 0;
        std::set<int> used;
        for (const FabricLink& l : sdr.fabric->links)
            used.insert((l.a == sw->id ? l.aPort : l.bPort).toInt());
        int freePort = 1;
        while (used.count(freePort))
            ++freePort;
        for (const FabricLink& l : sdr.fabric->links)
            if (l.a == ca->id || l.b == ca->id)
                usedPort = (l.a == sw->id ? l.aPort : l.bPort).toInt();
        // Its lines: the real cable, a second server on that cable's switch port, and the first server on a
        // free port.
        const QByteArray plan =
            QStringLiteral("rackscope-fabric 1\nexpect width=4x speed=QDR\nswitch edge01 tier=leaf guid=%1\n"
                           "link %2/%3 edge01:%4\nlink other01/mlx5_0 edge01:%4\nlink %2/%3 edge01:%5\n")
                .arg(sw->guid, ca->host, ca->device)
                .arg(usedPort)
                .arg(freePort)
                .toUtf8();
        const Fabric merged = mergeFabrics({*sdr.fabric, design(plan)});
        const FabricAnalysis a = analyseFabric(merged);
        // Every real cable runs at SDR where the design expects QDR.
        QCOMPARE(subjectsOf(a, "fabric-link-below-expected").size(), int(sdr.fabric->links.size()));
        QCOMPARE(subjectsOf(a, "fabric-link-missing").size(), 1);
        // The design's cable to a port the capture shows elsewhere is a conflict, not an overwrite.
        QCOMPARE(merged.conflicts.size(), 1);
        QVERIFY2(merged.conflicts[0].contains(QStringLiteral("[%1]").arg(usedPort)) &&
                     merged.conflicts[0].contains(QStringLiteral("other01")),
                 qPrintable(merged.conflicts[0]));
        QCOMPARE(subjectsOf(a, "fabric-source-conflict").size(), 1);
        int switches = 0;
        for (const FabricNode& n : merged.nodes)
            switches += n.kind == FabricNodeKind::Switch;
        QCOMPARE(switches, 1);
    }

    void statedTierAgainstTheCabling() {
        const Fabric f =
            design("rackscope-fabric 1\nswitch s1 tier=spine\nswitch l1 tier=leaf\nswitch l2 tier=spine\n"
                   "link n1/mlx5_0 l1:1\nlink n2/mlx5_0 l2:1\nlink l1:9 s1:1\nlink l2:9 s1:2\n");
        const FabricAnalysis a = analyseFabric(f);
        QCOMPARE(subjectsOf(a, "fabric-tier-differs"), QStringList{QStringLiteral("l2")});
        QCOMPARE(a.tiers.at(QStringLiteral("l2")),
                 2); // the design's word is kept, and the difference reported
    }

    void hopsAndGroups() {
        const FabricImport r = importIbnetdiscover(fixtureBytes(kSuperpod), kSuperpod);
        const FabricAnalysis a = analyseFabric(*r.fabric);
        const FabricDistances d(*r.fabric, a);
        // Servers of one scalable unit share their rail leaves; across units a spine is between them.
        QCOMPARE(d.switchHops(QStringLiteral("a08-p1-dgx-04-c16"), QStringLiteral("a08-p1-dgx-04-c17")),
                 std::optional<int>(1));
        QCOMPARE(d.switchHops(QStringLiteral("a08-p1-dgx-04-c16"), QStringLiteral("b05-p1-dgx-05-c01")),
                 std::optional<int>(3));
        QCOMPARE(d.switchHops(QStringLiteral("a08-p1-dgx-04-c16"), QStringLiteral("nosuchhost")),
                 std::nullopt);
        QStringList all;
        for (const FabricHost& h : a.hosts)
            all << h.name;
        const Placement p = proposeGroups(*r.fabric, a, all, 8);
        int placed = int(p.unplaced.size());
        for (const PlacementGroup& g : p.groups) {
            QCOMPARE(g.hosts.size(), 8);
            placed += int(g.hosts.size());
            if (!g.sharedLeaves.isEmpty())
                QCOMPARE(g.maxHops, std::optional<int>(1));
        }
        QCOMPARE(placed, int(all.size()));
        QVERIFY(p.unplaced.size() < 8);
        // Most groups stay under one leaf.
        const auto underOneLeaf =
            std::count_if(p.groups.begin(), p.groups.end(),
                          [](const PlacementGroup& g) { return !g.sharedLeaves.isEmpty(); });
        QVERIFY2(underOneLeaf * 10 >= qsizetype(p.groups.size()) * 8,
                 qPrintable(QString::number(underOneLeaf)));
    }

    void dotExport() {
        const FabricImport r = importIbnetdiscover(
            fixtureBytes(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt")), QStringLiteral("sdr"));
        const QString dot = fabricToDot(*r.fabric, analyseFabric(*r.fabric));
        QVERIFY(dot.startsWith(QLatin1String("// rackscope fabric")));
        QVERIFY(dot.contains(QLatin1String("graph fabric {")));
        int hosts = 0;
        for (const FabricNode& n : r.fabric->nodes)
            hosts += !n.host.isEmpty();
        QCOMPARE(int(dot.count(QLatin1String("[shape=ellipse"))), hosts);
        QCOMPARE(int(dot.count(QLatin1String(" -- "))), int(r.fabric->links.size()));
        QVERIFY(dot.contains(QLatin1String("4xSDR")));
    }
};

QTEST_GUILESS_MAIN(TestFabricAnalysis)
#include "test_fabric_analysis.moc"
