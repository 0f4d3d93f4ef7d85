// rackscope-cli: the headless face of rackscope; everything the GUI shows,
// computed from the same core.
#include "check_command.h"
#include "export_command.h"
#include "fabric_command.h"
#include "inspect_command.h"
#include "load_command.h"
#include "nccl_command.h"
#include "nccl_log_command.h"
#include "nccl_ras_command.h"
#include "nccl_tests_command.h"
#include "nvlink_command.h"
#include "rackscope_version.h"
#include "results_command.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <cstdio>
#include <cstring>
#include <memory>

namespace {

const char kUsage[] =
    "Usage: rackscope-cli COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  inspect FILE... [--local] [--hosts LIST] [--json]\n"
    "                                       GPU/NIC paths, GPUDirect RDMA, NCCL NIC choice, findings\n"
    "  fabric SOURCE... [--local] [--hosts LIST] [--json] [--export topology.conf|dot|json|fabric]\n"
    "                                       tiers, links, rails, oversubscription, findings; --hops, "
    "--groups\n"
    "  nccl --hosts LIST --op OP -b 8 -e 8G [--launcher mpirun|srun] [--env K=V] [--launch-host H] [--json]\n"
    "                                       nccl-tests through mpirun/srun, read as it streams\n"
    "  parse-nccl-tests FILE [--json] [--topology HOST=FILE]\n"
    "                                       nccl-tests output (text or -J JSON): ranks, rows, bus bandwidth, "
    "NICs, GPUDirect\n"
    "  nccl-log FILE... [--topology HOST=FILE] [--json]\n"
    "                                       NCCL_DEBUG=INFO logs: per rank the NICs, each channel's "
    "transport, "
    "GPUDirect\n"
    "  nccl-ras --host H [--port 28028] [--verbose] [--json] [--watch S] [FILE...] [--hosts LIST]\n"
    "                                       a running job's NCCL RAS: ranks missing, dead or behind, placed "
    "on servers, GPUs, leaves\n"
    "  results [list [DIR] | show FILE [--json|--csv] | compare A B]\n"
    "                                       saved runs: reopen, export, compare size by size\n"
    "  load --url URL --model M [--concurrency N] [--rate R --burstiness B] [--requests N] [--hosts LIST] "
    "[--json]\n"
    "                                       inference load (OpenAI-compatible streaming): TTFT, TPOT, ITL, "
    "goodput; --open DIR\n"
    "  check [FILE...] [--local] [--hosts LIST] [--expect FILE] [--baseline FILE] [--save-baseline FILE]\n"
    "        [--sample S] [--active nccl,rdma] [--tolerance PCT] [--report FILE.html|FILE.pdf] [--junit "
    "FILE]\n"
    "        [--json]\n"
    "                                       rack acceptance: per server and check pass/warn/fail/unknown, "
    "drift, baseline\n"
    "  nvlink FILE... [--host NAME=FILE] [--racks FILE] [--json]\n"
    "                                       NVLink domains (NVL72), GPUs outside them, IMEX peers, links: "
    "nvidia-smi -q, nvlink --status, nvidia-imex-ctl -N, NCCL logs\n"
    "  export INPUT... -o FILE [--format svg|png|pdf|dot] [--hosts LIST] [--highlight LIST]\n"
    "                                       the topology diagram, with a title block and the legend\n"
    "\n"
    "  rackscope-cli COMMAND --help         options of one command\n"
    "  rackscope-cli --version\n";

} // namespace

int main(int argc, char** argv) {
    // Drawing needs Qt's GUI layer (fonts, painting); with no display it renders offscreen.
    // `check` draws the rack into its report.
    const bool drawing =
        argc > 1 && (std::strcmp(argv[1], "export") == 0 || std::strcmp(argv[1], "check") == 0);
    if (drawing && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> application(drawing ? new QGuiApplication(argc, argv)
                                                          : new QCoreApplication(argc, argv));
    QCoreApplication& app = *application;
    QCoreApplication::setApplicationName(QStringLiteral("rackscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RACKSCOPE_VERSION));
    const QStringList args = app.arguments();
    const QString command = args.value(1);
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        printf("rackscope-cli %s\n", RACKSCOPE_VERSION);
        return 0;
    }
    if (command == QLatin1String("inspect"))
        return rackscope::cli::runInspect(args);
    if (command == QLatin1String("fabric"))
        return rackscope::cli::runFabric(args);
    if (command == QLatin1String("parse-nccl-tests"))
        return rackscope::cli::runParseNcclTests(args);
    if (command == QLatin1String("nccl-log"))
        return rackscope::cli::runNcclLog(args);
    if (command == QLatin1String("nccl-ras"))
        return rackscope::cli::runNcclRas(args);
    if (command == QLatin1String("nccl"))
        return rackscope::cli::runNccl(args);
    if (command == QLatin1String("results"))
        return rackscope::cli::runResults(args);
    if (command == QLatin1String("load"))
        return rackscope::cli::runLoad(args);
    if (command == QLatin1String("export"))
        return rackscope::cli::runExport(args);
    if (command == QLatin1String("check"))
        return rackscope::cli::runCheck(args);
    if (command == QLatin1String("nvlink"))
        return rackscope::cli::runNvlink(args);
    if (command.isEmpty() || command == QLatin1String("--help") || command == QLatin1String("-h")) {
        fputs(kUsage, command.isEmpty() ? stderr : stdout);
        return command.isEmpty() ? 2 : 0;
    }
    fprintf(stderr, "rackscope-cli: unknown command '%s'\n\n%s", qPrintable(command), kUsage);
    return 2;
}
