// The generated worst cases of the readers and reports, each beside `wc -l`
// of the same file as a ratio (both whole processes, one run each): a
// `nvidia-smi topo -m` of 1000 devices (500 GPUs, 500 NICs) as a text
// report, an ibnetdiscover ring of 250,000 switches through `fabric`, and
// 1.8 million nccl-tests rows. Goal: seconds, not minutes; the ratio says
// how far each is from reading the file once.
#include "bench_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTextStream>
#include <cstdio>

namespace {

bool write(const QString& path, const std::function<void(QTextStream&)>& body) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    QTextStream out(&f);
    body(out);
    return true;
}

void topoMatrix(QTextStream& out, int gpus, int nics) {
    out << "\t";
    for (int g = 0; g < gpus; ++g)
        out << "GPU" << g << "\t";
    for (int n = 0; n < nics; ++n)
        out << "NIC" << n << "\t";
    out << "CPU Affinity\tNUMA Affinity\tGPU NUMA ID\n";
    const auto numa = [&](int i, int of) { return i < of / 2 ? 0 : 1; };
    for (int g = 0; g < gpus; ++g) {
        out << "GPU" << g;
        for (int h = 0; h < gpus; ++h)
            out << "\t" << (g == h ? " X " : "NV18");
        for (int n = 0; n < nics; ++n)
            out << "\t" << (n == g ? "PIX" : numa(n, nics) == numa(g, gpus) ? "NODE" : "SYS");
        out << "\t" << (numa(g, gpus) ? "56-111" : "0-55") << "\t" << numa(g, gpus) << "\t\tN/A\n";
    }
    for (int n = 0; n < nics; ++n) {
        out << "NIC" << n;
        for (int g = 0; g < gpus; ++g)
            out << "\t" << (n == g ? "PIX" : numa(n, nics) == numa(g, gpus) ? "NODE" : "SYS");
        for (int m = 0; m < nics; ++m)
            out << "\t" << (n == m ? " X " : numa(n, nics) == numa(m, nics) ? "NODE" : "SYS");
        out << "\n";
    }
    out << "\nLegend:\n\n  X    = Self\n  SYS  = Connection traversing PCIe as well as the SMP interconnect "
           "between NUMA nodes\n"
           "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within "
           "a NUMA node\n"
           "  PIX  = Connection traversing at most a single PCIe bridge\n  NV#  = Connection traversing a "
           "bonded set of # NVLinks\n\nNIC Legend:\n\n";
    for (int n = 0; n < nics; ++n)
        out << "  NIC" << n << ": mlx5_" << n << "\n";
}

void switchRing(QTextStream& out, int switches) {
    const auto guid = [](int i) {
        return QStringLiteral("S-%1").arg(quint64(0xe41d2d0300000000ULL) + quint64(i), 16, 16,
                                          QLatin1Char('0'));
    };
    out << "#\n# Topology file: generated\n#\n";
    for (int i = 0; i < switches; ++i) {
        const int next = (i + 1) % switches, prev = (i + switches - 1) % switches;
        out << "\nvendid=0x2c9\ndevid=0xd2f0\nswitchguid=0x" << guid(i).mid(2) << "\nSwitch\t64 \"" << guid(i)
            << "\"\t\t# \"ring-sw-" << i << "\" enhanced port 0 lid " << (i + 1) << " lmc 0\n";
        out << "[1]\t\"" << guid(next) << "\"[2]\t\t# \"ring-sw-" << next << "\" lid " << (next + 1)
            << " 4xNDR\n";
        out << "[2]\t\"" << guid(prev) << "\"[1]\t\t# \"ring-sw-" << prev << "\" lid " << (prev + 1)
            << (i == 0 ? " 4xHDR\n" : " 4xNDR\n");
    }
}

void ncclRows(QTextStream& out, int rows) {
    out << "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg "
           "iters: 1 validation: 1 graph: 0\n#\n"
           "#                                                              out-of-place                      "
           " in-place\n"
           "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   "
           "algbw   busbw #wrong\n"
           "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  "
           "(GB/s)  (GB/s)\n";
    for (int i = 0; i < rows; ++i) {
        const qint64 size = qint64(8) << (i % 30);
        out << qSetFieldWidth(12) << size << qSetFieldWidth(14) << size / 4 << qSetFieldWidth(10) << "float"
            << qSetFieldWidth(8) << "sum" << qSetFieldWidth(8) << -1 << qSetFieldWidth(9) << "35.21"
            << qSetFieldWidth(8) << "0.00" << qSetFieldWidth(8) << "0.00" << qSetFieldWidth(7) << 0
            << qSetFieldWidth(9) << "34.90" << qSetFieldWidth(8) << "0.00" << qSetFieldWidth(8) << "0.00"
            << qSetFieldWidth(7) << 0 << qSetFieldWidth(0) << "\n";
    }
    out << "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 42.1\n#\n";
}

} // namespace

int main() {
    QTemporaryDir dir;
    struct Case {
        const char* what;
        QString file;
        QStringList args;
        std::function<void(QTextStream&)> make;
    };
    const QString topo = dir.filePath(QStringLiteral("topo-m-1000.txt")),
                  ring = dir.filePath(QStringLiteral("ring-250k.ibnetdiscover")),
                  nccl = dir.filePath(QStringLiteral("all_reduce-1.8M.txt"));
    const Case cases[] = {
        {"topo -m, 1000 devices, text report",
         topo,
         {QStringLiteral("inspect"), topo},
         [](QTextStream& o) { topoMatrix(o, 500, 500); }},
        {"ibnetdiscover ring, 250k switches",
         ring,
         {QStringLiteral("fabric"), ring},
         [](QTextStream& o) { switchRing(o, 250000); }},
        {"nccl-tests, 1.8M rows",
         nccl,
         {QStringLiteral("parse-nccl-tests"), nccl},
         [](QTextStream& o) { ncclRows(o, 1800000); }},
    };
    printf("bench_worst_cases: each a whole process, once, beside wc -l of the same file\n");
    int failed = 0;
    for (const Case& c : cases) {
        if (!write(c.file, c.make))
            return 1;
        const double ours = rackscope::bench::timeProcess(QStringLiteral(RACKSCOPE_CLI), c.args, 1);
        const double wc =
            rackscope::bench::timeProcess(QStringLiteral("wc"), {QStringLiteral("-l"), c.file}, 3);
        if (ours < 0 || wc < 0) {
            fprintf(stderr, "bench_worst_cases: %s: a run failed\n", c.what);
            ++failed;
            continue;
        }
        printf("  %-38s %9.0f ms   wc -l %7.1f ms   ratio %7.1f   (%lld MB)\n", c.what, ours, wc, ours / wc,
               static_cast<long long>(QFile(c.file).size() >> 20));
        QFile::remove(c.file);
    }
    return failed ? 1 : 0;
}
