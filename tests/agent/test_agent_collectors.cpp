// The agent's collectors on real captured trees and on small trees built
// here in the kernel's formats. Plain agent code, driven from Qt Test.
#include "agent/sysfs_builder.h"
#include "test_support.h"

#include "collect/collectors.h"
#include "collect/counters.h"
#include "collect/ethtool_stats.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <QDirIterator>
#include <set>

using namespace rackscope::test;
using rsagent::HostFs;
using rsagent::Json;

namespace {

const QString kIbCapture = QStringLiteral("gpud_sys-class-infiniband_h100-8xCX7-NDR-plus-BF3-bond");

// A sysfs root whose class/infiniband is the real capture, linked in place (never copied).
struct IbRoot {
    SysfsBuilder tree;
    IbRoot() { tree.link(QStringLiteral("class/infiniband"), fixture(kIbCapture)); }
    HostFs fs() const { return HostFs(tree.root().toStdString(), tree.root().toStdString() + "/proc"); }
};

QString readFixtureText(const QString& rel) {
    QFile f(fixture(kIbCapture + QLatin1Char('/') + rel));
    f.open(QIODevice::ReadOnly);
    return QString::fromUtf8(f.readAll()).trimmed();
}

} // namespace

class TestAgentCollectors : public QObject {
    Q_OBJECT
private slots:
    // This machine's topology, with the PCI devices hwloc's pci plugin finds, and without the plugins that
    // would open X displays, start a GPU runtime, or bring in libxml2 (hwloc's own exporter writes the XML).
    void liveTopologyLoadsNoDisplayOrGpuRuntimePlugin() {
        const Json t = rsagent::collectTopology(HostFs("/sys", "/proc"));
        QVERIFY2(t.value("available", false), t.dump().c_str());
        const std::string xml = t["hwloc_xml"].get<std::string>();
        QVERIFY(xml.find("<topology") != std::string::npos);
        QVERIFY(xml.find("type=\"PCIDev\"") != std::string::npos);
        QFile maps(QStringLiteral("/proc/self/maps"));
        QVERIFY(maps.open(QIODevice::ReadOnly));
        const QByteArray mapped = maps.readAll();
        for (const char* plugin :
             {"hwloc_gl.so", "hwloc_opencl.so", "hwloc_xml_libxml.so", "libX11", "libOpenCL"})
            QVERIFY2(!mapped.contains(plugin), plugin);
    }

    void counterDeltasByKind() {
        using rsagent::counterDelta;
        QCOMPARE(counterDelta(10, 25, {}).delta, std::optional<uint64_t>(15));
        const auto wrap = counterDelta(0xfffffff0u, 0x10, {32, false});
        QCOMPARE(wrap.delta, std::optional<uint64_t>(0x20));
        QCOMPARE(wrap.note, std::string("wrapped"));
        QCOMPARE(counterDelta(100, 5, {64, false}).note, std::string("reset"));
        QVERIFY(!counterDelta(100, 5, {64, false}).delta);
        // link_downed is 8 bits and saturates: 250 -> 255 is at least 5, and 255 -> 255 tells nothing.
        const auto kind = rsagent::ibCounterKind("link_downed");
        QCOMPARE(kind.bits, 8);
        QVERIFY(kind.saturating);
        QCOMPARE(counterDelta(250, 255, kind).delta, std::optional<uint64_t>(5));
        QCOMPARE(counterDelta(250, 255, kind).note, std::string("saturated"));
        QVERIFY(!counterDelta(255, 255, kind).delta);
        QCOMPARE(counterDelta(9, 3, kind).note, std::string("reset"));
        QCOMPARE(rsagent::ibCounterKind("port_xmit_data").bits, 64);
    }

    void netCountersWrapOnlyNearTheTop() {
        rsagent::CounterReading a{{"net/eth0/rx_bytes", 0xfffffff0u}, {"net/eth0/tx_bytes", 1000}};
        rsagent::CounterReading b{{"net/eth0/rx_bytes", 0x10}, {"net/eth0/tx_bytes", 10}};
        const Json d = rsagent::counterDeltas(a, b, 1000);
        QCOMPARE(d["net/eth0/rx_bytes"]["delta"].get<uint64_t>(), uint64_t(0x20));
        QCOMPARE(d["net/eth0/rx_bytes"]["rate_per_s"].get<double>(), 32.0);
        QVERIFY(d["net/eth0/tx_bytes"]["delta"].is_null()); // a drop from low values is a reset
        QCOMPARE(d["net/eth0/tx_bytes"]["note"].get<std::string>(), std::string("reset"));
    }

    void capturedInfinibandTree() {
        IbRoot root;
        const Json r = rsagent::collectRdma(root.fs());
        QVERIFY(r["available"].get<bool>());
        const QStringList devices = QDir(fixture(kIbCapture)).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(int(r["devices"].size()), int(devices.size()));
        for (const Json& d : r["devices"]) {
            const QString name = QString::fromStdString(d["name"].get<std::string>());
            QCOMPARE(QString::fromStdString(d["fw_ver"].get<std::string>()),
                     readFixtureText(name + QStringLiteral("/fw_ver")));
            const Json& port = d["ports"][0];
            QCOMPARE(QString::fromStdString(port["rate"].get<std::string>()),
                     readFixtureText(name + QStringLiteral("/ports/1/rate")));
            QCOMPARE(QString::fromStdString(port["link_layer"].get<std::string>()),
                     readFixtureText(name + QStringLiteral("/ports/1/link_layer")));
            const QString state = readFixtureText(name + QStringLiteral("/ports/1/state")); // "4: ACTIVE"
            QCOMPARE(port["state"]["code"].get<int>(), state.section(QLatin1Char(':'), 0, 0).toInt());
            QCOMPARE(QString::fromStdString(port["state"]["name"].get<std::string>()),
                     state.section(QLatin1Char(':'), 1).trimmed());
            QVERIFY(port["active_mtu"].is_null()); // verbs are not asked about a captured tree
        }
        QCOMPARE(r["devices"].back()["ports"][0]["link_layer"].get<std::string>(),
                 std::string("Ethernet")); // mlx5_bond_0
    }

    void capturedCountersAreAllRead() {
        IbRoot root;
        const auto reading = rsagent::readCounters(root.fs());
        int files = 0;
        for (QDirIterator it(fixture(kIbCapture), QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
            const QString path = it.next();
            if (path.contains(QStringLiteral("/counters/")) || path.contains(QStringLiteral("/hw_counters/")))
                ++files;
        }
        int ib = 0;
        for (const auto& [key, value] : reading)
            ib += key.rfind("ib/", 0) == 0;
        QCOMPARE(ib, files);
        QCOMPARE(reading.at("ib/mlx5_1/1/link_downed"), uint64_t(255));
        // Two readings of an unchanged capture: zero deltas, and the 8-bit counter stuck at 255 says so.
        const Json d = rsagent::counterDeltas(reading, reading, 1000);
        QVERIFY(d["ib/mlx5_1/1/link_downed"]["delta"].is_null());
        QCOMPARE(d["ib/mlx5_1/1/link_downed"]["note"].get<std::string>(), std::string("saturated"));
        QCOMPARE(d["ib/mlx5_0/1/port_xmit_data"]["delta"].get<uint64_t>(), uint64_t(0));
    }

    void roceEcnAndTrust() {
        SysfsBuilder t;
        for (int p = 0; p < 8; ++p) {
            t.write(QStringLiteral("class/net/eth4/ecn/roce_np/enable/%1").arg(p), p == 3 ? "1\n" : "0\n");
            t.write(QStringLiteral("class/net/eth4/ecn/roce_rp/enable/%1").arg(p), p == 3 ? "1\n" : "0\n");
        }
        t.write(QStringLiteral("class/net/eth4/qos/trust"), "dscp\n");
        t.write(QStringLiteral("class/net/eth0/mtu"), "1500\n"); // no QoS files: left out
        t.write(QStringLiteral("class/infiniband/mlx5_2/tc/1/traffic_class"),
                "106\n"); // as mlnx_qos' guide sets it
        const Json q = rsagent::collectRoceQos(HostFs(t.root().toStdString(), "/nonexistent"));
        QVERIFY(q["available"].get<bool>());
        QCOMPARE(int(q["interfaces"].size()), 1);
        const Json& eth4 = q["interfaces"][0];
        QCOMPARE(eth4["ecn_roce_np"]["3"].get<bool>(), true);
        QCOMPARE(eth4["ecn_roce_np"]["2"].get<bool>(), false);
        QCOMPARE(eth4["trust"].get<std::string>(), std::string("dscp"));
        QCOMPARE(eth4["pfc"].get<std::string>(), std::string("not exposed"));
        QCOMPARE(q["rdma_traffic_class"][0]["traffic_class"].get<std::string>(), std::string("106"));
        const Json none =
            rsagent::collectRoceQos(HostFs(t.root().toStdString() + "/nothing", "/nonexistent"));
        QVERIFY(!none["available"].get<bool>());
    }

    void degradedLinkAndAcs() {
        SysfsBuilder t;
        const QStringList chain = {QStringLiteral("0000:00:01.0"), QStringLiteral("0000:16:00.0")};
        t.pciDevice({}, chain[0], "0x060400");
        t.pciDevice({chain[0]}, chain[1], "0x060400");
        const QString gpu = t.pciDevice(chain, QStringLiteral("0000:17:00.0"), "0x030200");
        t.write(gpu + QStringLiteral("/current_link_speed"), "16.0 GT/s PCIe\n");
        t.write(gpu + QStringLiteral("/current_link_width"), "8\n");
        t.write(gpu + QStringLiteral("/max_link_speed"), "32.0 GT/s PCIe\n");
        t.write(gpu + QStringLiteral("/max_link_width"), "16\n");
        t.write(QStringLiteral("devices/pci0000:00/0000:00:01.0/0000:16:00.0/config"),
                SysfsBuilder::configWithAcs(0x001d));
        t.write(QStringLiteral("devices/pci0000:00/0000:00:01.0/config"),
                QByteArray(256, '\0')); // not root: short read
        const Json p = rsagent::collectPcie(HostFs(t.root().toStdString(), "/nonexistent"));
        QVERIFY(p["available"].get<bool>());
        QCOMPARE(int(p["devices"].size()), 1); // bridges are reported above their devices, not as devices
        const Json& d = p["devices"][0];
        QCOMPARE(d["link"]["current_width"].get<int>(), 8);
        QCOMPARE(d["link"]["max_speed"].get<std::string>(), std::string("32.0 GT/s PCIe"));
        QVERIFY(d["upstream_bridges"] == Json::array({"0000:16:00.0", "0000:00:01.0"}));
        const Json& acs = p["bridges"][0]["acs"];
        QCOMPARE(acs["ctrl"].get<std::string>(), std::string("0x001d"));
        QVERIFY(acs["enabled"] == Json::array({"SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd"}));
        QVERIFY(!p["bridges"][1]["acs"]["available"].get<bool>());
        QVERIFY(p["bridges"][1]["acs"]["reason"].get<std::string>().find("root") != std::string::npos);
    }

    void peerMemoryAndIommu() {
        SysfsBuilder t;
        t.write(QStringLiteral("sys/kernel/mm/memory_peers/nv_mem/version"), "1.3\n");
        t.write(QStringLiteral("sys/class/iommu/dmar0/x"), "");
        t.write(QStringLiteral("proc/cmdline"), "BOOT_IMAGE=/vmlinuz intel_iommu=on iommu=pt quiet\n");
        t.write(QStringLiteral("proc/sys/kernel/osrelease"), "5.15.0-91-generic\n");
        const Json g = rsagent::collectGpuDirect(
            HostFs(t.root().toStdString() + "/sys", t.root().toStdString() + "/proc"));
        QVERIFY(g["peer_memory"]["usable"].get<bool>());
        QCOMPARE(g["iommu"]["mode"].get<std::string>(), std::string("passthrough"));
        QVERIFY(g["iommu"]["kernel_parameters"] == Json::array({"intel_iommu=on", "iommu=pt"}));
        QVERIFY(g["dmabuf"]["kernel_supports_rdma_dmabuf"].get<bool>());
    }

    void ethtoolStatisticsMatchEthtool() {
        const QString ethtool = QStandardPaths::findExecutable(
            QStringLiteral("ethtool"), {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
        QVERIFY2(!ethtool.isEmpty(), "ethtool (Debian package ethtool) is needed as the reference");
        int compared = 0;
        for (const QString& ifname :
             QDir(QStringLiteral("/sys/class/net")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QProcess p;
            p.start(ethtool, {QStringLiteral("-S"), ifname});
            p.waitForFinished(10000);
            if (p.exitCode() != 0)
                continue; // no driver statistics on this interface
            std::set<std::string> theirs;
            static const QRegularExpression row(QStringLiteral("^\\s+(\\S.*?):\\s+\\d+$"));
            for (const QString& line : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n')))
                if (const auto m = row.match(line); m.hasMatch())
                    theirs.insert(m.captured(1).toStdString());
            std::set<std::string> ours;
            for (const auto& [name, value] : rsagent::ethtoolStats(ifname.toStdString()))
                ours.insert(name);
            QVERIFY2(ours == theirs, qPrintable(ifname));
            ++compared;
        }
        if (compared == 0)
            QSKIP("no interface here has driver statistics (ethtool -S)");
    }

    void routesFromProc() {
        SysfsBuilder t;
        t.write(QStringLiteral("proc/net/route"),
                "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
                "eth0\t00000000\t0100D50A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
                "eth0\t0000D50A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n");
        t.write(QStringLiteral("proc/net/ipv6_route"),
                "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
                "fe800000000000000000000000000001 00000400 00000001 00000000 00000003 eth0\n"
                "fd000000000000000000000000000000 40 00000000000000000000000000000000 00 "
                "00000000000000000000000000000000 00000100 00000001 00000000 00000001 eth0\n");
        t.write(QStringLiteral("sys/class/net/eth0/mtu"), "9000\n");
        const Json n =
            rsagent::collectNet(HostFs(t.root().toStdString() + "/sys", t.root().toStdString() + "/proc"));
        QCOMPARE(n["ipv4_routes"][0]["gateway"].get<std::string>(), std::string("10.213.0.1"));
        QVERIFY(n["ipv4_routes"][0]["default"].get<bool>());
        QCOMPARE(n["ipv4_routes"][1]["destination"].get<std::string>(), std::string("10.213.0.0"));
        QCOMPARE(n["ipv4_routes"][1]["mask"].get<std::string>(), std::string("255.255.255.0"));
        QCOMPARE(n["ipv6_routes"][0]["gateway"].get<std::string>(), std::string("fe80::1"));
        QVERIFY(n["ipv6_routes"][0]["default"].get<bool>());
        QCOMPARE(n["ipv6_routes"][1]["destination"].get<std::string>(), std::string("fd00::"));
        QCOMPARE(n["ipv6_routes"][1]["prefix_length"].get<int>(), 64);
        QCOMPARE(n["interfaces"][0]["mtu"].get<int>(), 9000);
        QVERIFY(n["interfaces"][0]["addresses"].is_null()); // a captured tree has no live addresses
    }

    void lldpJson0() {
        // lldpcli -f json0 show neighbors, as lldpd 1.0 prints it.
        const std::string sample =
            R"({"lldp":[{"interface":[{"name":"veth1","via":"LLDP","rid":"1","age":"0 day, 00:00:05",
            "chassis":[{"id":[{"type":"mac","value":"aa:bb:cc:00:00:01"}],"name":[{"value":"leaf01"}],
                        "mgmt-ip":[{"value":"10.213.0.1"}]}],
            "port":[{"id":[{"type":"ifname","value":"swp7"}],"descr":[{"value":"swp7"}],"mfs":[{"value":"9216"}]}],
            "vlan":[{"vlan-id":"100","pvid":true,"value":"vlan100"}]}]}]})";
        const Json n = rsagent::parseLldpNeighbors(sample);
        QVERIFY(n["available"].get<bool>());
        const Json& e = n["neighbors"][0];
        QCOMPARE(e["interface"].get<std::string>(), std::string("veth1"));
        QCOMPARE(e["system_name"].get<std::string>(), std::string("leaf01"));
        QCOMPARE(e["port_id"].get<std::string>(), std::string("swp7"));
        QCOMPARE(e["chassis_id_type"].get<std::string>(), std::string("mac"));
        QCOMPARE(e["mfs"].get<std::string>(), std::string("9216"));
        QVERIFY(e["vlans"] == Json::array({"100"}));
        // The real capture from an OpenWrt switch: no neighbours, and not an error.
        QFile f(fixture(QStringLiteral("lldpcli-json0-openwrt-switch-statistics-interfaces-chassis.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Json whole = Json::parse(f.readAll().toStdString());
        for (const auto& [key, value] : whole.items())
            if (key.find("neighbors") != std::string::npos) {
                const Json parsed = rsagent::parseLldpNeighbors(value.dump());
                QVERIFY(parsed["available"].get<bool>());
                QCOMPARE(int(parsed["neighbors"].size()), 0);
            }
        QVERIFY(!rsagent::parseLldpNeighbors("not json")["available"].get<bool>());
        QVERIFY(!rsagent::parseLldpNeighbors("[1,2]")["available"].get<bool>());
    }
};

QTEST_GUILESS_MAIN(TestAgentCollectors)
#include "test_agent_collectors.moc"
