// rackscope-nccl-bench's GPU-free parts: nccl-tests' command line, its
// element counts and bandwidth formulas (checked against every real nccl-tests
// output among the fixtures), the data every rank sends and must receive
// (checked against a host simulation of each collective), and its table, read
// back by rackscope's own nccl-tests parser.
#include "bench_data.h"
#include "bench_geometry.h"
#include "bench_options.h"
#include "bench_report.h"
#include "runs/nccl_tests_output.h"
#include "test_support.h"

#include <QTest>

#include <cmath>
#include <cstring>

using namespace rackscope;
using namespace rackscope::bench;

namespace {

ParsedOptions parse(std::initializer_list<const char*> args) {
    std::vector<std::string> v;
    for (const char* a : args)
        v.emplace_back(a);
    return parseOptions(v);
}

using Buffer = std::vector<unsigned char>;

Buffer inputOf(int rank, std::size_t n, const DataSpec& spec) {
    Buffer b(n * dataTypeSize(spec.type));
    fillInput(b.data(), 0, n, rank, spec);
    return b;
}

// What NCCL leaves in each rank's receive buffer, worked out here from the
// ranks' inputs alone: concatenation, slicing and element-wise reduction, an
// average as NCCL computes it for floating types (each contribution scaled
// by 1/n in the type, then summed in the type).
std::vector<Buffer> simulate(Op op, const Geometry& g, int ranks, int root, const DataSpec& spec) {
    const std::size_t ws = dataTypeSize(spec.type);
    std::vector<Buffer> in;
    for (int r = 0; r < ranks; ++r)
        in.push_back(inputOf(r, g.sendCount, spec));
    const bool floating = spec.type == DataType::Half || spec.type == DataType::Float ||
                          spec.type == DataType::Double || spec.type == DataType::Bfloat16;
    auto rounded = [&](double v) {
        unsigned char cell[8];
        store(cell, 0, spec.type, v);
        return load(cell, 0, spec.type);
    };
    auto reduce = [&](std::size_t i) {
        double acc = 0;
        for (int r = 0; r < ranks; ++r) {
            double v = load(in[r].data(), i, spec.type);
            if (spec.op == RedOp::Avg && floating)
                v = rounded(v * rounded(1.0 / ranks));
            if (r == 0)
                acc = v;
            else if (spec.op == RedOp::Sum || spec.op == RedOp::Avg)
                acc = rounded(acc + v);
            else if (spec.op == RedOp::Prod)
                acc = rounded(acc * v);
            else if (spec.op == RedOp::Max)
                acc = std::max(acc, v);
            else
                acc = std::min(acc, v);
        }
        if (spec.op == RedOp::Avg && !floating)
            acc = std::trunc(acc / ranks);
        return acc;
    };
    std::vector<Buffer> out(static_cast<std::size_t>(ranks), Buffer(g.recvCount * ws));
    for (int r = 0; r < ranks; ++r) {
        Buffer& o = out[r];
        for (std::size_t e = 0; e < g.recvCount; ++e) {
            const std::size_t p = g.paramCount;
            double v = 0;
            switch (op) {
            case Op::AllReduce:
            case Op::Reduce:
                v = reduce(e);
                break;
            case Op::ReduceScatter:
                v = reduce(static_cast<std::size_t>(r) * p + e);
                break;
            case Op::AllGather:
                v = load(in[e / p].data(), e % p, spec.type);
                break;
            case Op::AllToAll:
                v = load(in[e / p].data(), static_cast<std::size_t>(r) * p + e % p, spec.type);
                break;
            case Op::Broadcast:
                v = load(in[root].data(), e, spec.type);
                break;
            case Op::SendRecv:
                v = load(in[(r - 1 + ranks) % ranks].data(), e, spec.type);
                break;
            }
            store(o.data(), e, spec.type, v);
        }
    }
    return out;
}

// The rank count of a fixture: its "Using devices" lines, or the GPU count in its name for a bare table.
int ranksOf(const NcclTestsRun& run, const QString& name) {
    if (!run.ranks.empty())
        return int(run.ranks.size());
    const auto m = QRegularExpression(QStringLiteral("(\\d+)x")).match(name);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

// The half-unit of the last digit nccl-tests printed the time with.
double timeResolution(double us) {
    return us >= 10000 ? 0.5 : us >= 100 ? 0.05 : 0.005;
}

} // namespace

class TestNcclBench : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreNcclTests() {
        const ParsedOptions p = parse({});
        QVERIFY(p.error.empty());
        const Options& o = p.options;
        QCOMPARE(o.minBytes, std::size_t(32) << 20);
        QCOMPARE(o.maxBytes, std::size_t(32) << 20);
        QCOMPARE(o.stepBytes, std::size_t(1) << 20);
        QCOMPARE(o.stepFactor, std::size_t(1));
        QCOMPARE(o.iters, 20);
        QCOMPARE(o.warmupIters, 5);
        QCOMPARE(o.aggIters, 1);
        QCOMPARE(o.check, 1);
        QCOMPARE(o.average, 1);
        QCOMPARE(o.root, 0);
        QVERIFY(o.redOps == std::vector<RedOp>{RedOp::Sum});
        QVERIFY(o.types == std::vector<DataType>{DataType::Float});
    }

    void commandLinesPeopleWrite() {
        const ParsedOptions p =
            parse({"-b", "8",   "-e", "8G",       "-f", "2", "-g", "4",  "-n", "50", "-w", "10",
                   "-o", "all", "-d", "bfloat16", "-c", "0", "-r", "-1", "-G", "5",  "-a", "3"});
        QVERIFY2(p.error.empty(), p.error.c_str());
        QCOMPARE(p.options.minBytes, std::size_t(8));
        QCOMPARE(p.options.maxBytes, std::size_t(8) << 30);
        QCOMPARE(p.options.gpus, 4);
        QCOMPARE(p.options.redOps.size(), std::size_t(5));
        QVERIFY(p.options.types == std::vector<DataType>{DataType::Bfloat16});
        QCOMPARE(p.options.root, -1);
        QCOMPARE(p.options.cudaGraphLaunches, 5);
        QCOMPARE(sweepSizes(p.options).size(), std::size_t(31)); // 8 B to 8 GiB by doubling

        const ParsedOptions longForms =
            parse({"--minbytes=1M", "--maxbytes", "4m", "--stepbytes", "1048576", "--datatype=all", "-n10"});
        QVERIFY2(longForms.error.empty(), longForms.error.c_str());
        QCOMPARE(longForms.options.iters, 10);
        QCOMPARE(longForms.options.types.size(), std::size_t(10));
        QCOMPARE(sweepSizes(longForms.options),
                 (std::vector<std::size_t>{1 << 20, 2 << 20, 3 << 20, 4 << 20}));
        QVERIFY(parse({"-h"}).help);
        std::size_t bytes = 0;
        QVERIFY(parseByteSize("1.5K", bytes) && bytes == 1536);
    }

    void badCommandLinesAreRefusedWithTheReason() {
        QCOMPARE(parse({"-b", "8x"}).error,
                 std::string("-b (--minbytes) '8x': invalid size specified for 'minbytes'"));
        QVERIFY(parse({"-b", "1G", "-e", "1M"}).error.find("invalid sizes for 'minbytes' and 'maxbytes'") ==
                0);
        QVERIFY(parse({"-t", "2"}).error.find("one thread per process") != std::string::npos);
        QVERIFY(parse({"-o", "mulsum"}).error.find("unknown reduction operation") != std::string::npos);
        QVERIFY(parse({"-d", "fp4"}).error.find("unknown data type") != std::string::npos);
        QVERIFY(parse({"-n", "0"}).error.find("-n (--iters)") == 0);
        QVERIFY(parse({"-a", "7"}).error.find("from 0 to 3") != std::string::npos);
        QCOMPARE(parse({"--frobnicate", "1"}).error, std::string("invalid option '--frobnicate'"));
        QCOMPARE(parse({"-e"}).error, std::string("option '-e' needs a value"));
        QVERIFY(!parse({"-b", "99999999999999999999G"}).error.empty());
    }

    void programNames() {
        QCOMPARE(opFromName("/opt/nccl-tests/build/all_reduce_perf"), std::optional<Op>(Op::AllReduce));
        QCOMPARE(opFromName("alltoall"), std::optional<Op>(Op::AllToAll));
        QVERIFY(!opFromName("rackscope-nccl-bench"));
        for (Op op : allOps())
            QCOMPARE(opFromName(opBinary(op)), std::optional<Op>(op));
    }

    // Every row of every real nccl-tests output: the size and count columns
    // follow from the geometry, and algbw and busbw from the printed time.
    void formulasAgreeWithRealOutputs() {
        const QStringList files = test::fixtures(QStringLiteral("*nccl-tests*"));
        QVERIFY(files.size() >= 6);
        int rows = 0;
        for (const QString& name : files) {
            const NcclTestsRun run = parseNcclTestsOutput(test::fixtureBytes(name));
            const auto op = opFromName(name.contains(QLatin1String("alltoall"))   ? "alltoall"
                                       : name.contains(QLatin1String("sendrecv")) ? "sendrecv"
                                                                                  : "all_reduce");
            const int ranks = ranksOf(run, name);
            QVERIFY2(ranks > 1, qPrintable(name));
            for (const NcclTestsRow& row : run.rows) {
                const auto type = dataTypeFromName(row.type.toStdString());
                QVERIFY2(type, qPrintable(row.type));
                const std::size_t ws = dataTypeSize(*type);
                const Geometry g = geometry(*op, std::size_t(row.size) / ws, ranks);
                QCOMPARE(qint64(reportedBytes(g, ws)), row.size);
                QCOMPARE(qint64(g.paramCount), row.count);
                for (const NcclTestsPass* pass : {&row.outOfPlace, &row.inPlace}) {
                    if (pass->timeUs <= 0)
                        continue;
                    const Bandwidth b = bandwidth(*op, g.paramCount, ws, pass->timeUs * 1e-6, ranks);
                    const double slack = timeResolution(pass->timeUs) / pass->timeUs * 1.001;
                    QVERIFY2(std::fabs(b.algbw - pass->algbw) <= 0.005 + b.algbw * slack,
                             qPrintable(QStringLiteral("%1 line %2: algbw %3, printed %4")
                                            .arg(name)
                                            .arg(row.line)
                                            .arg(b.algbw)
                                            .arg(pass->algbw)));
                    QVERIFY2(std::fabs(b.busbw - pass->busbw) <= 0.005 + b.busbw * slack,
                             qPrintable(QStringLiteral("%1 line %2: busbw %3, printed %4")
                                            .arg(name)
                                            .arg(row.line)
                                            .arg(b.busbw)
                                            .arg(pass->busbw)));
                    ++rows;
                }
            }
        }
        QVERIFY(rows > 100);
    }

    void geometryOfEachCollective() {
        // 16 ranks, 1 MiB of floats: what nccl-tests passes NCCL and prints.
        const std::size_t count = 262144;
        const Geometry ag = geometry(Op::AllGather, count, 16), rs = geometry(Op::ReduceScatter, count, 16);
        QCOMPARE(ag.paramCount, count / 16);
        QCOMPARE(ag.recvCount, count);
        QCOMPARE(ag.sendInPlaceOffset, count / 16);
        QCOMPARE(rs.sendCount, count);
        QCOMPARE(rs.recvInPlaceOffset, count / 16);
        // A count that does not divide: whole parts per rank only, the size column says so.
        QCOMPARE(reportedBytes(geometry(Op::AllToAll, 37, 8), 4), std::size_t(32 * 4));
        for (Op op : allOps()) {
            const Geometry g = geometry(op, 1000, 8);
            const std::size_t buffer = std::max(g.sendCount, g.recvCount);
            // In place, each rank's part stays inside one buffer.
            QVERIFY(g.sendInPlaceOffset * 7 + g.sendCount <= buffer);
            QVERIFY(g.recvInPlaceOffset * 7 + g.recvCount <= buffer);
            // algbw is always the size column over the time.
            const Bandwidth b = bandwidth(op, g.paramCount, 4, 1e-3, 8);
            QCOMPARE(b.algbw, double(reportedBytes(g, 4)) / 1e9 / 1e-3);
        }
        QCOMPARE(busFactor(Op::AllReduce, 8), 1.75);
        QCOMPARE(busFactor(Op::AllGather, 8), 0.875);
        QCOMPARE(busFactor(Op::Broadcast, 8), 1.0);
    }

    // For every collective, type and operation: what the simulation of the
    // collective leaves is exactly what the check expects, and one changed
    // element, a buffer left at zero or a result of another pass are caught.
    void checksAgreeWithASimulatedCollective() {
        int cases = 0;
        for (Op op : allOps())
            for (DataType type : allDataTypes())
                for (RedOp red : usesRedOp(op) ? allRedOps() : std::vector<RedOp>{RedOp::Sum})
                    for (int ranks : {1, 2, 3, 8, 16}) {
                        const int root = usesRoot(op) ? ranks - 1 : -1;
                        const DataSpec spec{type, red, ranks, 7};
                        const Geometry g = geometry(op, 37 * std::size_t(ranks) + 5, ranks);
                        const std::vector<Buffer> got = simulate(op, g, ranks, root, spec);
                        const std::size_t ws = dataTypeSize(type);
                        for (int r = 0; r < ranks; ++r) {
                            if (!hasResult(op, r, root))
                                continue;
                            Buffer expected(g.recvCount * ws);
                            fillExpected(op, g, r, root, expected.data(), 0, g.recvCount, spec);
                            const QString what = QStringLiteral("%1 %2 %3 ranks %4 rank %5")
                                                     .arg(opName(op), dataTypeName(type), redOpName(red))
                                                     .arg(ranks)
                                                     .arg(r);
                            QVERIFY2(countWrong(got[r].data(), expected.data(), g.recvCount, spec) == 0,
                                     qPrintable(what));
                            // Checked in parts, as the GPU side does, it agrees.
                            Buffer tail((g.recvCount - 10) * ws);
                            fillExpected(op, g, r, root, tail.data(), 10, g.recvCount - 10, spec);
                            QVERIFY(std::memcmp(tail.data(), expected.data() + 10 * ws, tail.size()) == 0);

                            Buffer corrupt = got[r];
                            store(corrupt.data(), 3, type, load(corrupt.data(), 3, type) + 3);
                            QVERIFY2(countWrong(corrupt.data(), expected.data(), g.recvCount, spec) == 1,
                                     qPrintable(what));
                            const Buffer zeros(corrupt.size(), 0);
                            QVERIFY2(countWrong(zeros.data(), expected.data(), g.recvCount, spec) > 0,
                                     qPrintable(what));
                            DataSpec otherPass = spec;
                            otherPass.seed = 8;
                            Buffer stale(expected.size());
                            fillExpected(op, g, r, root, stale.data(), 0, g.recvCount, otherPass);
                            QVERIFY2(countWrong(stale.data(), expected.data(), g.recvCount, spec) > 0,
                                     qPrintable(what));
                            ++cases;
                        }
                    }
        QVERIFY(cases > 1000);
    }

    // Up to 64 ranks, every reduction is a whole number the type holds exactly.
    void reductionsAreExactInEveryType() {
        for (DataType type : allDataTypes())
            for (RedOp red : {RedOp::Sum, RedOp::Prod, RedOp::Max, RedOp::Min})
                for (int ranks : {2, 9, 64}) {
                    const DataSpec spec{type, red, ranks, 1};
                    for (std::size_t i = 0; i < 500; ++i) {
                        const double v = reducedValue(i, spec);
                        unsigned char cell[8];
                        store(cell, 0, type, v);
                        QVERIFY2(load(cell, 0, type) == v && v == std::floor(v),
                                 qPrintable(QStringLiteral("%1 %2 %3")
                                                .arg(dataTypeName(type), redOpName(red))
                                                .arg(ranks)));
                    }
                }
    }

    void halfAndBfloat16() {
        QCOMPARE(floatToHalf(1.0f), std::uint16_t(0x3C00));
        QCOMPARE(floatToHalf(-2.0f), std::uint16_t(0xC000));
        QCOMPARE(floatToHalf(65504.0f), std::uint16_t(0x7BFF));
        QCOMPARE(floatToHalf(65520.0f), std::uint16_t(0x7C00)); // rounds up to infinity
        QCOMPARE(floatToHalf(1.0f / 3), std::uint16_t(0x3555));
        QCOMPARE(floatToHalf(std::ldexp(1.0f, -24)), std::uint16_t(0x0001)); // the smallest subnormal
        QCOMPARE(floatToHalf(std::ldexp(1.0f, -26)), std::uint16_t(0x0000));
        QCOMPARE(floatToHalf(1.0f + std::ldexp(1.0f, -11)), std::uint16_t(0x3C00)); // a tie goes to even
        QCOMPARE(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), std::uint16_t(0x3C02));
        for (std::uint32_t h = 0; h < 0x10000; ++h) {
            if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF))
                continue; // NaNs
            QCOMPARE(floatToHalf(halfToFloat(std::uint16_t(h))), std::uint16_t(h));
        }
        QCOMPARE(floatToBfloat16(1.0f), std::uint16_t(0x3F80));
        QCOMPARE(floatToBfloat16(0.1f), std::uint16_t(0x3DCD));
        QCOMPARE(bfloat16ToFloat(0x4049), 3.140625f);
        QVERIFY(std::isnan(bfloat16ToFloat(floatToBfloat16(std::nanf("")))));
    }

    // The table as this benchmark prints it reads back through rackscope's
    // parser to the same numbers: header, ranks, rows, N/A, the footer.
    void tableReadsBackThroughTheParser() {
        const ParsedOptions p = parse({"-b", "1K", "-e", "1M", "-f", "4"});
        std::string text =
            "# Collective test starting: alltoall_perf (rackscope-nccl-bench)\n" + parameterLine(p.options);
        text += devicesBlock(deviceLine({0, 0, 4242, "gpu-node-17", 0, 0, 0x18, 0, "NVIDIA H100 80GB HBM3"}) +
                             deviceLine({1, 0, 4243, "gpu-node-17", 1, 0, 0x2a, 0, "NVIDIA H100 80GB HBM3"}));
        text += tableHeader();
        Totals totals;
        const std::vector<std::size_t> sizes = sweepSizes(p.options);
        for (std::size_t size : sizes) {
            const Geometry g = geometry(Op::AllToAll, size / 4, 2);
            const double seconds = 5e-6 + double(size) * 1e-11;
            const Bandwidth b = bandwidth(Op::AllToAll, g.paramCount, 4, seconds, 2);
            text += rowStart(reportedBytes(g, 4), g.paramCount, "float", "none", -1);
            text += rowResult(seconds, b.algbw, b.busbw, 0) + rowResult(seconds, b.algbw, b.busbw, -1) + "\n";
            totals.add(b.busbw, 0);
            totals.add(b.busbw, 0);
        }
        text += footer(totals);

        const NcclTestsRun run = parseNcclTestsOutput(QByteArray::fromStdString(text));
        QVERIFY2(run.diagnostics.empty(),
                 qPrintable(run.diagnostics.empty() ? QString() : run.diagnostics.front().message));
        QCOMPARE(run.header.at(QStringLiteral("minBytes")), QStringLiteral("1024"));
        QCOMPARE(run.header.at(QStringLiteral("step")), QStringLiteral("4(factor)"));
        QCOMPARE(run.ranks.size(), std::size_t(2));
        QCOMPARE(run.ranks[1].host, QStringLiteral("gpu-node-17"));
        QCOMPARE(run.ranks[1].pci, QStringLiteral("0000:2a:00"));
        QCOMPARE(run.ranks[1].gpu, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QVERIFY(!run.errorColumn && run.rootColumn);
        QCOMPARE(run.rows.size(), sizes.size());
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            QCOMPARE(run.rows[i].size, qint64(sizes[i]));
            QCOMPARE(run.rows[i].redop, QStringLiteral("none"));
            QCOMPARE(run.rows[i].root, std::optional<int>(-1));
            QCOMPARE(run.rows[i].outOfPlace.wrong, std::optional<qint64>(0));
            QVERIFY(!run.rows[i].inPlace.wrong); // N/A: not validated
        }
        QCOMPARE(run.outOfBounds, std::optional<qint64>(0));
        QVERIFY(std::fabs(*run.avgBusbw - totals.busbwSum / totals.results) < 1e-3 * *run.avgBusbw);
        QCOMPARE(formatTime(12345.6), std::string("  12346"));
        QCOMPARE(formatTime(123.46), std::string("  123.5"));
        QCOMPARE(formatTime(1.234), std::string("   1.23"));

        Totals failed;
        failed.add(10, 3);
        QVERIFY(footer(failed).find("# Out of bounds values : 1 FAILED") == 0);
    }
};

QTEST_GUILESS_MAIN(TestNcclBench)
#include "test_nccl_bench.moc"
