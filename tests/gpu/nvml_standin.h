#pragma once
// What the tests give the NVML stand-in (nvml_standin.cpp) to replay, written as
// `nvidia-smi --query-gpu=... --format=csv -lms 600` prints it, and the
// environment that makes an agent open the stand-in as it would the driver's NVML.
#include <QFile>
#include <QProcessEnvironment>
#include <QString>
#include <optional>
#include <vector>

namespace rackscope::test {

struct StandinRow {
    double t; // seconds after the first row
    int index;
    double util, memUsedMiB;
    std::optional<double> powerW; // [N/A] when absent
    double smClockMHz;
};

// Two GPUs; GPU 0 ramps up over 1.2 s and holds, GPU 1 idles and reports no power (as a GPU whose board
// does not measure it).
inline const std::vector<StandinRow>& standinRows() {
    static const std::vector<StandinRow> rows{
        {0.0, 0, 5, 1024, 80.5, 345},      {0.0, 1, 0, 4, std::nullopt, 345},
        {0.6, 0, 55, 40000, 350.25, 1410}, {0.6, 1, 0, 4, std::nullopt, 345},
        {1.2, 0, 96, 70012, 612.75, 1980}, {1.2, 1, 0, 4, std::nullopt, 345},
    };
    return rows;
}
constexpr double kStandinMemTotalMiB = 81559;

inline bool writeStandinCsv(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.write(
        "timestamp, index, name, uuid, pci.bus_id, driver_version, utilization.gpu [%], "
        "utilization.memory [%], memory.used [MiB], memory.total [MiB], power.draw [W], clocks.sm [MHz]\n");
    for (const StandinRow& r : standinRows()) {
        const int ms = int(r.t * 1000);
        f.write(
            QStringLiteral(
                "2026/12/06 10:00:%1.%2, %3, NVIDIA H100 80GB HBM3, "
                "GPU-5e1f0c2a-7d3b-4c55-9a61-0000000000%4, 00000000:%5:00.0, 570.86.15, %6 %, 20 %, "
                "%7 MiB, %8 MiB, %9, %10 MHz\n")
                .arg(ms / 1000, 2, 10, QLatin1Char('0'))
                .arg(ms % 1000, 3, 10, QLatin1Char('0'))
                .arg(r.index)
                .arg(r.index, 2, 10, QLatin1Char('0'))
                .arg(r.index == 0 ? QStringLiteral("18") : QStringLiteral("2A"))
                .arg(r.util)
                .arg(r.memUsedMiB)
                .arg(kStandinMemTotalMiB)
                .arg(r.powerW ? QString::number(*r.powerW) + QStringLiteral(" W") : QStringLiteral("[N/A]"))
                .arg(r.smClockMHz)
                .toUtf8());
    }
    return true;
}

// LD_LIBRARY_PATH and RACKSCOPE_NVML_STANDIN, as "NAME=VALUE" pairs (sshd's SetEnv takes them so).
inline QStringList standinEnvironment(const QString& csv) {
    return {QStringLiteral("LD_LIBRARY_PATH=") + QStringLiteral(RACKSCOPE_NVML_STANDIN_DIR),
            QStringLiteral("RACKSCOPE_NVML_STANDIN=") + csv};
}
inline QProcessEnvironment withStandin(const QString& csv) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& pair : standinEnvironment(csv))
        env.insert(pair.section(QLatin1Char('='), 0, 0), pair.section(QLatin1Char('='), 1));
    return env;
}

// The position of the row that gives GPU `index` this utilisation, else -1 (a value the stand-in never gave).
inline int standinRowOf(int index, double util) {
    const std::vector<StandinRow>& rows = standinRows();
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].index == index && rows[i].util == util)
            return int(i);
    return -1;
}

} // namespace rackscope::test
