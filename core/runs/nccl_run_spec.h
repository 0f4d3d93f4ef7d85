#pragma once
// An nccl-tests run as people launch it: the binary for the collective,
// nccl-tests' own flags, the environment NCCL reads, and the engine the
// cluster already has (Open MPI's mpirun or Slurm's srun) to start one
// process per GPU across the hosts. Only the command line is built here;
// it is shown before it runs.
#include "collectives.h"

#include <QStringList>
#include <vector>

namespace rackscope {

enum class Launcher { Mpirun, Srun };

struct NcclRunSpec {
    Collective collective = Collective::AllReduce;
    QString binary; // empty: nccl-tests' name for the collective, in binaryDir or on PATH
    QString binaryDir;
    QStringList hosts;
    int processesPerHost = 8; // one per GPU, with gpusPerProcess 1
    int gpusPerProcess = 1;   // -g
    QString minBytes = QStringLiteral("8"),
            maxBytes = QStringLiteral("8G");    // -b -e: bytes with an optional K, M or G
    int stepFactor = 2;                         // -f
    int iterations = 20;                        // -n
    int warmupIterations = 5;                   // -w
    QString dataType = QStringLiteral("float"); // -d
    QString reduction = QStringLiteral("sum");  // -o
    bool check = true;                          // -c
    std::vector<std::pair<QString, QString>> environment{
        {QStringLiteral("NCCL_DEBUG"), QStringLiteral("INFO")}};
    Launcher launcher = Launcher::Mpirun;
    QStringList launcherArgs; // passed to mpirun/srun as given ("--mca", "btl_tcp_if_include", "eth0")
};

// The launcher by name ("mpirun", "srun"); false for another.
bool setLauncher(NcclRunSpec& spec, const QString& name);
// NAME=VALUE pairs into the environment, each replacing one of the same name; the first pair that is not one,
// or empty.
QString addEnvironment(NcclRunSpec& spec, const QStringList& pairs);

// What is wrong with the spec, or empty.
QString validateRunSpec(const NcclRunSpec& spec);
// The argv to run on the launch host; quote it with shellCommand to show or send it.
QStringList launchArgv(const NcclRunSpec& spec);
// "8G" -> 8589934592; empty when it is not a size.
std::optional<qint64> parseByteSize(const QString& text);

} // namespace rackscope
