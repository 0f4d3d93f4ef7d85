// The charts' data: series filling in row by row as a run streams, earlier
// runs and a baseline beside it, and the expected line rate from real
// topologies (a known one, and one whose NICs give no speed).
#include "test_support.h"

#include "import/topology_loader.h"
#include "runs/run_chart_data.h"

using namespace rackscope;
using namespace rackscope::test;

class TestRunChartData : public QObject {
    Q_OBJECT
private slots:
    void lineRateFromRealTopologies() {
        // OCI BM.GPU.H100.8: 16 RDMA NICs of 200 Gb/s, 400 GB/s together.
        ImportResult oci =
            loadTopologyFile(fixture(QStringLiteral("nccl-topo-oci-bm-gpu-h100-8-kubernetes.xml")));
        QVERIFY(oci.host);
        oci.host->name = QStringLiteral("gpu-1");
        const LineRate rate = expectedBusbw({*oci.host});
        QCOMPARE(rate.busbwGBs, std::optional(400.0));
        QVERIFY2(rate.explanation.contains(QStringLiteral("16 RDMA NICs, 3200 Gb/s")),
                 qPrintable(rate.explanation));
        // Azure ND H100 v5's topology file gives no NIC speeds: unknown, and why.
        ImportResult azure = loadTopologyFile(fixture(QStringLiteral("nccl-topo-azure-ndv5.xml")));
        QVERIFY(azure.host);
        azure.host->name = QStringLiteral("nd-1");
        const LineRate unknown = expectedBusbw({*oci.host, *azure.host});
        QVERIFY(!unknown.busbwGBs);
        QVERIFY2(unknown.explanation.startsWith(QStringLiteral("nd-1 does not say the speed")),
                 qPrintable(unknown.explanation));
        QVERIFY(!expectedBusbw({}).busbwGBs);
        // The slowest host sets the rate.
        HostTopology slower = *oci.host;
        slower.name = QStringLiteral("gpu-2");
        slower.nics.resize(8);
        QCOMPARE(expectedBusbw({*oci.host, slower}).busbwGBs, std::optional(200.0));
    }

    void fillsAsRowsArrive() {
        const NcclTestsRun real = parseNcclTestsOutput(
            fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH200-oci-roce.txt")));
        RunChartData chart;
        const int baseline = chart.addRun(QStringLiteral("last week"), SeriesRole::Baseline, real);
        const int live = chart.addSeries(QStringLiteral("now"), SeriesRole::Live);
        NcclTestsParser parser;
        quint64 seen = chart.revision();
        size_t rows = 0;
        parser.onRow = [&](const NcclTestsRow& r) {
            chart.addRow(live, r);
            QVERIFY(chart.revision() > seen); // each row is a change the chart will draw
            seen = chart.revision();
            QCOMPARE(chart.series()[size_t(live)].sizes.size(), ++rows);
        };
        const QByteArray text =
            fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH200-oci-roce.txt"));
        for (qsizetype at = 0; at < text.size(); at += 37)
            parser.feed(text.mid(at, 37));
        parser.finish();
        QCOMPARE(rows, real.rows.size());
        QCOMPARE(chart.series()[size_t(live)].busbw, chart.series()[size_t(baseline)].busbw);
        QCOMPARE(chart.series()[size_t(live)].timeUs.back(), real.rows.back().outOfPlace.timeUs);
        // A share of the line rate only where the rate is known.
        QVERIFY(!chart.percentOfLineRate(100));
        chart.setLineRate({400.0, QStringLiteral("test")});
        QCOMPARE(*chart.percentOfLineRate(real.rows.back().outOfPlace.busbw),
                 100.0 * real.rows.back().outOfPlace.busbw / 400.0);
        chart.removeRole(SeriesRole::Baseline);
        QCOMPARE(chart.series().size(), size_t(1));
        chart.addRow(7, real.rows.front()); // no such series: ignored
        QCOMPARE(chart.series().size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestRunChartData)
#include "test_run_chart_data.moc"
