#pragma once
// The output of perftest's bandwidth tests (ib_write_bw and its siblings) as people run and paste them:
// client or server side, with `--report_gbits` (Gb/sec) or without (MB/sec, perftest's 2^20 bytes),
// one size, all sizes (-a) or one row per period (--run_infinitely), CUDA chatter (--use_cuda), the
// header's tab-separated pairs, and both sides interleaved in one log. What perftest warned of (an MTU it
// lowered, a peak it did not measure) is kept; a run that failed says perftest's own reason.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace rackscope {

struct PerftestRow {
    qint64 bytes = 0, iterations = 0;
    std::optional<double> peak; // empty when perftest did not measure it (duration mode prints 0.00)
    double average = 0;         // in the run's unit
    std::optional<double> messageRateMpps;
};

struct PerftestRun {
    QString test;             // "RDMA_Write BW Test"
    QString device, linkType; // "mlx5_1", "Ethernet" or "IB"
    std::optional<int> qps, mtu, gidIndex;
    QString unit; // "Gb/sec" or "MB/sec", as the table's header says
    std::vector<PerftestRow> rows;
    QString cudaDevice;   // "NVIDIA A40 at PCIe E1:00" with --use_cuda
    QStringList warnings; // "Requested mtu is higher than active mtu", "BW peak won't be measured ..."
    QString failure;      // perftest's own words when it stopped without a result ("Couldn't connect to ...")

    // Gb/s of a row's average: MB/sec is perftest's 2^20 bytes per second.
    double gbps(double value) const;
    // The run's figure: the average at its largest message size, in Gb/s (the median where that size has
    // several rows: periods of --run_infinitely, or both sides in one log).
    std::optional<double> averageGbps() const;
    std::optional<qint64> largestBytes() const;
};

// The run, or nothing and why (not perftest output, or no result and perftest's reason where it gave one).
std::optional<PerftestRun> readPerftestOutput(const QByteArray& text, QString* error);

} // namespace rackscope
