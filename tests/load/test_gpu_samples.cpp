// The workers' GPU readings of a load run: what an agent's sample event says becomes a sample (its readings,
// or why there are none), samples round-trip through gpu_metrics.jsonl and bad lines are refused with the
// reason, and the summary per GPU leaves the warm-up out and never turns silence into zeros. Mangled and
// random lines are refused or read, never crash (run under ASan/UBSan with the rest).
#include "load_model/gpu_samples.h"

#include <QRandomGenerator>
#include <QTest>

using namespace rsload;

namespace {

Json agentData(double util, std::optional<double> power) {
    return Json::parse(R"({"seq":3,"interval_ms":500.2,"gpus":{"available":true,"source":"NVML /x","gpus":[
        {"index":0,"uuid":"GPU-a","name":"NVIDIA H100 80GB HBM3","util_pct":0,"mem_util_pct":1,"mem_used_mib":1000.5,
         "mem_total_mib":81559.0,"power_w":null,"sm_clock_mhz":1980},
        {"index":1,"uuid":"GPU-b","name":"NVIDIA H100 80GB HBM3","util_pct":0,"mem_util_pct":null,"mem_used_mib":4.0,
         "mem_total_mib":81559.0,"power_w":null,"sm_clock_mhz":null}]}})")
        .patch(Json::array({{{"op", "replace"}, {"path", "/gpus/gpus/0/util_pct"}, {"value", util}},
                            {{"op", "replace"},
                             {"path", "/gpus/gpus/0/power_w"},
                             {"value", power ? Json(*power) : Json()}}}));
}

} // namespace

class TestGpuSamples : public QObject {
    Q_OBJECT
private slots:
    void anAgentsEventBecomesASample() {
        const GpuSample s = gpuSampleFromAgent(agentData(87, 612.5), "node3", 1.5);
        QVERIFY(s.error.empty());
        QCOMPARE(s.host, std::string("node3"));
        QCOMPARE(s.tS, 1.5);
        QCOMPARE(s.gpus.size(), size_t(2));
        QCOMPARE(*s.gpus[0].utilPct, 87.0);
        QCOMPARE(*s.gpus[0].powerW, 612.5);
        QCOMPARE(*s.gpus[0].memUsedMiB, 1000.5);
        QCOMPARE(s.gpus[1].uuid, std::string("GPU-b"));
        QVERIFY(!s.gpus[1].powerW && !s.gpus[1].smClockMHz && !s.gpus[1].memUtilPct);

        const GpuSample unread = gpuSampleFromAgent(
            Json::parse(
                R"({"seq":0,"gpus":{"available":false,"reason":"NVML (libnvidia-ml.so.1) not found"}})"),
            "node4", 0);
        QCOMPARE(unread.error, std::string("NVML (libnvidia-ml.so.1) not found"));
        QVERIFY(unread.gpus.empty());
        const GpuSample older = gpuSampleFromAgent(Json::parse(R"({"seq":0,"counters":{}})"), "node5", 0);
        QVERIFY2(older.error.find("older") != std::string::npos, older.error.c_str());
        const GpuSample none =
            gpuSampleFromAgent(Json::parse(R"({"gpus":{"available":true,"gpus":[]}})"), "node6", 0);
        QCOMPARE(none.error, std::string("NVML lists no GPU"));
        const GpuSample broken = gpuSampleFromAgent(
            Json::parse(R"({"gpus":{"available":true,"gpus":[{"index":0,"util_pct":"high"}]}})"), "node7", 0);
        QVERIFY2(broken.error.find("util_pct") != std::string::npos, broken.error.c_str());
    }

    void samplesRoundTripAndBadOnesAreRefused() {
        const GpuSample s = gpuSampleFromAgent(agentData(50, std::nullopt), "node3", 2.0);
        std::string why;
        const auto back = gpuSampleFromJson(toJson(s), &why);
        QVERIFY2(back, why.c_str());
        QVERIFY(toJson(*back) == toJson(s));
        QVERIFY(!back->gpus[0].powerW);
        GpuSample failed;
        failed.host = "node4";
        failed.error = "connect: refused";
        QCOMPARE(gpuSampleFromJson(toJson(failed), &why)->error, failed.error);
        for (const char* text :
             {"[]", "{}", "null", R"({"t_s":"1","host":"a","gpus":[]})", R"({"t_s":1,"host":"a"})",
              R"({"t_s":1,"error":5})", R"({"t_s":1,"gpus":[{"util_pct":3}]})",
              R"({"t_s":1,"gpus":[{"index":0,"power_w":"x"}]})", R"({"t_s":1,"gpus":{"index":0}})"}) {
            why.clear();
            QVERIFY2(!gpuSampleFromJson(Json::parse(text), &why), text);
            QVERIFY(!why.empty());
        }
    }

    // Per GPU, over the measured phase: mean and peak utilisation and power, peak memory, mean SM clock; a
    // worker never read is named with its first reason, a worker asked for that never answered too.
    void theSummaryPerGpu() {
        std::vector<GpuSample> series{
            gpuSampleFromAgent(agentData(99, 700), "node3", -0.5), // warm-up: left out
            gpuSampleFromAgent(agentData(40, 300), "node3", 0.0),
            gpuSampleFromAgent(agentData(80, std::nullopt), "node3", 0.5), // power silent here
            gpuSampleFromAgent(agentData(60, 500), "node3", 1.0),
        };
        GpuSample down;
        down.host = "node4";
        down.tS = -0.2;
        down.error = "node4: connect: No route to host";
        series.push_back(down);
        const GpuUseSummary u = summarizeGpuUse(series, {"node4", "node3", "node9"});
        QCOMPARE(u.gpus.size(), size_t(2));
        const GpuUse& g0 = u.gpus[0];
        QCOMPARE(g0.host, std::string("node3"));
        QCOMPARE(g0.samples, int64_t(3));
        QCOMPARE(*g0.utilMean, 60.0);
        QCOMPARE(*g0.utilPeak, 80.0);
        QCOMPARE(*g0.powerMeanW, 400.0); // of the two readings that said
        QCOMPARE(*g0.powerPeakW, 500.0);
        QCOMPARE(*g0.memUsedPeakMiB, 1000.5);
        QCOMPARE(*g0.smClockMeanMHz, 1980.0);
        QVERIFY(!u.gpus[1].powerMeanW && !u.gpus[1].smClockMeanMHz);
        QCOMPARE(u.unread.size(), size_t(2));
        QCOMPARE(u.unread[0].first, std::string("node4"));
        QCOMPARE(u.unread[0].second, down.error);
        QCOMPARE(u.unread[1].first, std::string("node9"));
        const Json j = toJson(u);
        QVERIFY(j["gpus"][1]["mean_power_w"].is_null());
        QCOMPARE(j["unread"]["node9"].get<std::string>(), std::string("no reading came during the run"));
    }

    void randomInput() {
        QRandomGenerator rng(20261206);
        const std::string line = toJson(gpuSampleFromAgent(agentData(70, 450.25), "node3", 1.0)).dump();
        for (int round = 0; round < 2000; ++round) {
            std::string b = line;
            for (int k = 0; k < 1 + int(rng.bounded(6)); ++k)
                b[rng.bounded(quint32(b.size()))] = char(rng.bounded(256));
            if (rng.bounded(4) == 0)
                b.resize(rng.bounded(quint32(b.size())));
            const Json j = Json::parse(b, nullptr, false);
            if (j.is_discarded())
                continue;
            std::string why;
            if (!gpuSampleFromJson(j, &why))
                QVERIFY(!why.empty());
            (void)gpuSampleFromAgent(j, "h", 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestGpuSamples)
#include "test_gpu_samples.moc"
