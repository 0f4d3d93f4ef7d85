#include "load_command.h"

#include "interrupts.h"

#include "import/input_file.h"

#include "load_model/prompts.h"
#include "load_model/trace_file.h"
#include "model/hostlist.h"
#include "remote_hosts.h"
#include "report/load_report.h"
#include "runs/load_runner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QRegularExpression>
#include <QTextStream>
#include <cstdio>
#include <random>
#include <unistd.h>

namespace rackscope::cli {
namespace {

int usage(const QString& why) {
    fprintf(stderr, "rackscope-cli load: %s\n", qPrintable(why));
    return 2;
}

std::optional<std::vector<double>> numbers(const QString& text) {
    std::vector<double> out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = part.trimmed().toDouble(&ok);
        if (!ok || !(v > 0))
            return std::nullopt;
        out.push_back(v);
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

// Ctrl+C cancels the run (the requests in flight end as "cancelled" and are saved); the handler only
// sets a flag, which the event loop polls: nothing else is safe in a signal handler.

int openSaved(const QStringList& dirs, bool json, const QString& csvPath) {
    std::vector<LoadResults> runs;
    for (const QString& d : dirs) {
        QString error;
        std::optional<std::vector<LoadResults>> opened = openLoadResults(d, &error);
        if (!opened) {
            fprintf(stderr, "rackscope-cli load: %s\n", qPrintable(error));
            return 1;
        }
        for (LoadResults& r : *opened) {
            for (const QString& p : r.problems)
                fprintf(stderr, "rackscope-cli load: %s: %s\n", qPrintable(r.directory), qPrintable(p));
            runs.push_back(std::move(r));
        }
    }
    if (!csvPath.isEmpty()) {
        std::vector<rsload::RequestRecord> all;
        for (const LoadResults& r : runs)
            all.insert(all.end(), r.records.begin(), r.records.end());
        QFile f(csvPath);
        if (csvPath != QLatin1String("-") && !f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return usage(QStringLiteral("cannot write %1").arg(csvPath));
        if (csvPath == QLatin1String("-") && !f.open(stdout, QIODevice::WriteOnly))
            return 1;
        f.write(loadRecordsCsv(all).toUtf8());
        return 0;
    }
    if (json) {
        rsload::Json out = rsload::Json::array();
        for (const LoadResults& r : runs)
            out.push_back(r.summary);
        printf("%s\n", (runs.size() == 1 ? out[0] : out).dump(2).c_str());
        return 0;
    }
    if (runs.size() == 1) { // the table again from the records, with the run's own SLOs
        std::string why;
        std::vector<rsload::Slo> slos;
        if (const auto g = runs[0].summary.find("goodput_slo"); g != runs[0].summary.end() && g->is_string())
            slos = rsload::parseSlos(g->get<std::string>(), &why).value_or(std::vector<rsload::Slo>{});
        const std::string metricsUrl = runs[0].spec.value("metrics_url", "");
        const rsload::ServerMetricsSummary server =
            rsload::summarizeServerMetrics(runs[0].serverSamples, metricsUrl);
        const std::vector<std::string> workers = savedWorkers(runs[0].spec);
        const rsload::GpuUseSummary gpus = rsload::summarizeGpuUse(runs[0].gpuSamples, workers);
        printf("%s", rsload::summaryText(rsload::summarize(runs[0].records, slos, {50, 90, 95, 99}),
                                         "Serving Benchmark Result", metricsUrl.empty() ? nullptr : &server,
                                         workers.empty() ? nullptr : &gpus)
                         .c_str());
        return 0;
    }
    printf("%s", qPrintable(compareLoadResults(runs)));
    return 0;
}

} // namespace

int runLoad(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Inference load against an OpenAI-compatible endpoint (vLLM, SGLang, TGI, "
                       "TensorRT-LLM, llama.cpp): TTFT, TPOT, ITL, E2E latency, "
                       "throughput and goodput, defined as vLLM's benchmark defines them. The load comes "
                       "from this machine's agent, or is shared among "
                       "the agents of --hosts (one per node). Each request is saved as it ends."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("load"), QStringLiteral("The command."));
    auto opt = [](const char* name, const char* help, const char* value = nullptr,
                  const char* def = nullptr) {
        return value ? QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help),
                                          QString::fromLatin1(value),
                                          def ? QString::fromLatin1(def) : QString())
                     : QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help));
    };
    const auto url = opt("url", "The API's base URL, e.g. http://node3:8000/v1.", "URL");
    const auto model = opt("model", "The model name the server serves.", "NAME");
    const auto endpoint =
        opt("endpoint", "chat (/chat/completions, default) or completions (/completions).", "KIND", "chat");
    const auto concurrency =
        opt("concurrency",
            "Most requests in flight at once (default 64, as in the window; 0 with --rate: no cap).", "N");
    const auto rate =
        opt("rate",
            "Requests per second, arriving as a gamma process (default: as fast as the concurrency allows).",
            "R");
    const auto burstiness = opt(
        "burstiness", "Gamma shape of the arrivals: 1 is Poisson, below 1 burstier (default 1).", "B", "1");
    const auto requests =
        opt("requests", "Measured requests to send (default 500 without --duration, as in the window).", "N");
    const auto duration = opt("duration", "Stop sending after this many seconds.", "S");
    const auto warmup = opt("warmup", "Requests sent first and left out of the results.", "N", "0");
    const auto inputLen =
        opt("input-len", "Prompt length in tokens: N, uniform:LOW-HIGH, normal:MEAN,SD (default 1024).",
            "DIST", "1024");
    const auto outputLen =
        opt("output-len", "max_tokens: N, uniform:LOW-HIGH, normal:MEAN,SD (default 128).", "DIST", "128");
    const auto trace = opt(
        "trace",
        "Replay a timestamped trace: each request at its time with its input and output lengths (CSV with "
        "a header, e.g. Azure's TIMESTAMP,ContextTokens,GeneratedTokens, or JSON Lines such as Mooncake's).",
        "FILE");
    const auto traceSpeed =
        opt("trace-speed", "With --trace: replay this many times faster (default 1: as it was).", "X", "1");
    const auto turns =
        opt("turns",
            "Multi-turn conversations of N turns (chat only): each turn sends the conversation so "
            "far and a new user turn, from --dataset's ShareGPT conversations or synthetic. "
            "--concurrency and --rate count conversations, --requests turns.",
            "N", "1");
    const auto thinkTime =
        opt("think-time", "With --turns: seconds between a reply and the next turn.", "S", "0");
    const auto dataset = opt(
        "dataset", "Prompts from a JSONL file or a ShareGPT JSON array instead of synthetic ones.", "FILE");
    const auto seed = opt(
        "seed",
        "Seed for prompts and arrivals (default: a fresh one each run, so prefix caches do not flatter it).",
        "N");
    const auto temperature = opt("temperature", "Sampling temperature.", "T");
    const auto ignoreEos =
        opt("ignore-eos", "Ask for exactly max_tokens tokens (vLLM, SGLang, TensorRT-LLM).");
    const auto noStream = opt("no-stream", "Plain request and response, no streaming.");
    const auto continuousUsage =
        opt("continuous-usage",
            "Ask for token counts on every chunk (vLLM's continuous_usage_stats), for ITL per token.");
    const auto header = opt("header", "A header 'Name: value' for every request (repeat it).", "HEADER");
    const auto apiKeyEnv =
        opt("api-key-env", "Send 'Authorization: Bearer' with the key in this environment variable.", "VAR");
    const auto apiKeyFile =
        opt("api-key-file", "The same, with the key read from this file. Keys are never saved.", "FILE");
    const auto slo = opt("slo",
                         "SLOs: per request for goodput (ttft<=200ms,tpot<=50ms), or on a percentile "
                         "(ttft_p99<=500ms).",
                         "LIST");
    const auto percentiles =
        opt("percentiles", "Percentiles to report (default 50,90,95,99).", "LIST", "50,90,95,99");
    const auto sweepConcurrency = opt(
        "sweep-concurrency", "One step per concurrency, e.g. 1,2,4,8,16; stops when the SLO breaks.", "LIST");
    const auto sweepRate = opt("sweep-rate", "One step per request rate; stops when the SLO breaks.", "LIST");
    const auto findCapacity = opt(
        "find-capacity", "Search the highest request rate (or --by concurrency) at which the --slo holds: "
                         "bracket, bisect, and run the best step again.");
    const auto by = opt("by", "With --find-capacity: rate (default) or concurrency.", "WHAT", "rate");
    const auto capacityStart =
        opt("capacity-start", "With --find-capacity: the first step's rate or concurrency (default 1).", "N",
            "1");
    const auto stepDuration =
        opt("step-duration",
            "With --find-capacity: seconds per step (default 20); at least 200 requests each.", "S", "20");
    const auto attainment = opt(
        "slo-attainment", "A step meets its SLO when this share of requests does (default 0.9).", "F", "0.9");
    const auto requestTimeout =
        opt("request-timeout", "Seconds one request may take (default: no limit).", "S");
    const auto httpClient = opt(
        "http-client", "auto (default: native for plain http without a proxy, else libcurl), native or curl.",
        "NAME", "auto");
    const auto caCert =
        opt("cacert", "https: trust the certificates in this PEM file instead of the system's.", "FILE");
    const auto insecure = opt("insecure", "https: do not check the server's certificate or name.");
    const auto serverMetrics = opt(
        "server-metrics",
        "Scrape the server's Prometheus metrics at URL every 0.5 s during the run (default: the base URL's "
        "/metrics, where it answers); off: do not.",
        "URL");
    const auto workers =
        opt("workers",
            "Sample the GPUs of these inference servers through their agents during the run "
            "(NVML utilisation, memory, power and SM clock, every 0.5 s): a hostlist, reached "
            "with the SSH options below; local: this machine.",
            "HOSTS");
    const auto sshTimeout =
        opt("ssh-timeout", "Seconds for each of SSH connect, auth and deploy (default 30).", "S", "30");
    const auto results = opt(
        "results", "Save the run in this folder (default: a new one under the load results folder).", "DIR");
    const auto noSave = opt("no-save", "Do not save the run.");
    const auto json = opt("json", "Print the summary as JSON (vLLM's --save-result names).");
    const auto open =
        opt("open",
            "Read saved runs back instead of running: one is summarised, several are compared (repeat it).",
            "DIR");
    const auto csv = opt("csv", "With --open: write every request as CSV to FILE (- for stdout).", "FILE");
    const auto report =
        opt("report",
            "Write the run (or with --open, the saved run) as one self-contained HTML page with its "
            "charts.",
            "FILE.html");
    RemoteOptions remote;
    parser.addOptions({url,
                       model,
                       endpoint,
                       concurrency,
                       rate,
                       burstiness,
                       requests,
                       duration,
                       warmup,
                       inputLen,
                       outputLen,
                       dataset,
                       seed,
                       temperature,
                       ignoreEos,
                       noStream,
                       continuousUsage,
                       header,
                       apiKeyEnv,
                       apiKeyFile,
                       slo,
                       percentiles,
                       sweepConcurrency,
                       sweepRate,
                       findCapacity,
                       by,
                       capacityStart,
                       stepDuration,
                       attainment,
                       requestTimeout,
                       httpClient,
                       caCert,
                       insecure,
                       serverMetrics,
                       workers,
                       trace,
                       traceSpeed,
                       turns,
                       thinkTime,
                       sshTimeout,
                       results,
                       noSave,
                       report,
                       json,
                       open,
                       csv,
                       remote.hosts,
                       remote.hostsFile,
                       remote.sshConfig,
                       remote.knownHosts,
                       remote.acceptNew});
    if (!parser.parse(args))
        return usage(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const auto writeReport = [&](const QString& runDirectory) { // 0, or 1 with the reason said
        if (const QString error = writeLoadReport(runDirectory, parser.value(report)); !error.isEmpty()) {
            fprintf(stderr, "rackscope-cli load: --report: %s\n", qPrintable(error));
            return 1;
        }
        fprintf(stderr, "rackscope-cli load: wrote %s\n", qPrintable(parser.value(report)));
        return 0;
    };
    if (parser.isSet(open) && parser.isSet(report)) {
        if (parser.values(open).size() != 1)
            return usage(QStringLiteral("--report writes one run: give one --open"));
        return writeReport(parser.value(open));
    }
    if (parser.isSet(open))
        return openSaved(parser.values(open), parser.isSet(json), parser.value(csv));
    if (parser.isSet(report) && parser.isSet(noSave))
        return usage(QStringLiteral("--report is written from the saved run: drop --no-save"));

    rsload::LoadSpec spec;
    spec.url = parser.value(url).toStdString();
    while (!spec.url.empty() && spec.url.back() == '/')
        spec.url.pop_back();
    spec.model = parser.value(model).toStdString();
    if (parser.value(endpoint) == QLatin1String("completions"))
        spec.endpoint = rsload::Endpoint::Completions;
    else if (parser.value(endpoint) != QLatin1String("chat"))
        return usage(QStringLiteral("--endpoint is chat or completions"));
    bool ok = true;
    auto number = [&](const QCommandLineOption& o, double fallback) {
        if (!parser.isSet(o))
            return fallback;
        bool good = false;
        const double v = parser.value(o).toDouble(&good);
        if (!good)
            ok = false;
        return v;
    };
    spec.concurrency = int(number(concurrency, rsload::LoadSpec::kDefaultConcurrency));
    spec.rate = number(rate, 0);
    spec.burstiness = number(burstiness, 1);
    spec.durationS = number(duration, 0);
    spec.requests =
        int64_t(number(requests, spec.durationS > 0 ? 0 : double(rsload::LoadSpec::kDefaultRequests)));
    spec.warmup = int64_t(number(warmup, 0));
    spec.timeoutS = number(requestTimeout, 0);
    if (parser.isSet(temperature))
        spec.temperature = number(temperature, 0);
    if (!ok)
        return usage(QStringLiteral("--concurrency, --rate, --burstiness, --requests, --duration, --warmup, "
                                    "--request-timeout and --temperature take numbers"));
    const auto chosenClient = rsload::httpClientFromName(parser.value(httpClient).toStdString());
    if (!chosenClient)
        return usage(QStringLiteral("--http-client is auto, native or curl"));
    spec.httpClient = *chosenClient;
    spec.insecure = parser.isSet(insecure);
    spec.metricsUrl = parser.isSet(serverMetrics) ? parser.value(serverMetrics).toStdString()
                                                  : rsload::defaultMetricsUrl(spec.url);
    if (spec.metricsUrl == "off")
        spec.metricsUrl.clear();
    if (parser.isSet(caCert)) {
        QByteArray pem;
        if (const QString problem = readBoundedFile(parser.value(caCert), rsload::kMaxCaPemBytes, &pem);
            !problem.isEmpty())
            return usage(QStringLiteral("--cacert: cannot read %1: %2").arg(parser.value(caCert), problem));
        spec.caPem = pem.toStdString();
    }
    std::string why;
    const auto in = rsload::parseLengthDist(parser.value(inputLen).toStdString(), &why);
    if (!in)
        return usage(QStringLiteral("--input-len: ") + QString::fromStdString(why));
    const auto out = rsload::parseLengthDist(parser.value(outputLen).toStdString(), &why);
    if (!out)
        return usage(QStringLiteral("--output-len: ") + QString::fromStdString(why));
    spec.inputLen = *in;
    spec.outputLen = *out;
    spec.ignoreEos = parser.isSet(ignoreEos);
    spec.stream = !parser.isSet(noStream);
    spec.continuousUsage = parser.isSet(continuousUsage);
    spec.seed = parser.isSet(seed) ? parser.value(seed).toULongLong()
                                   : std::random_device()() * uint64_t(0x9E3779B97F4A7C15ull) ^
                                         uint64_t(QDateTime::currentMSecsSinceEpoch());
    for (const QString& h : parser.values(header)) {
        const qsizetype colon = h.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            return usage(QStringLiteral("--header takes 'Name: value', not '%1'").arg(h));
        spec.headers.emplace_back(h.left(colon).trimmed().toStdString(),
                                  h.mid(colon + 1).trimmed().toStdString());
    }
    QString key;
    if (parser.isSet(apiKeyEnv)) {
        key = qEnvironmentVariable(qPrintable(parser.value(apiKeyEnv)));
        if (key.isEmpty())
            return usage(QStringLiteral("--api-key-env: %1 is not set").arg(parser.value(apiKeyEnv)));
    } else if (parser.isSet(apiKeyFile)) {
        QByteArray text;
        if (const QString problem = readBoundedFile(parser.value(apiKeyFile), 64 * 1024, &text);
            !problem.isEmpty())
            return usage(
                QStringLiteral("--api-key-file: cannot read %1: %2").arg(parser.value(apiKeyFile), problem));
        key = QString::fromUtf8(text).trimmed();
    }
    if (!key.isEmpty())
        spec.headers.emplace_back("Authorization", "Bearer " + key.toStdString());
    if (parser.isSet(dataset)) {
        QByteArray text;
        if (const QString problem = readBoundedFile(parser.value(dataset), qint64(1) << 30, &text);
            !problem.isEmpty())
            return usage(QStringLiteral("--dataset: cannot read %1: %2").arg(parser.value(dataset), problem));
        size_t skipped = 0;
        const size_t wanted = size_t(std::max<int64_t>(spec.requests + spec.warmup, 1000));
        spec.prompts = rsload::readPromptFile(text.toStdString(), wanted, &skipped, &why);
        if (skipped)
            fprintf(stderr, "rackscope-cli load: --dataset: %zu records skipped (%s)\n", skipped,
                    why.c_str());
        if (spec.prompts.empty())
            return usage(QStringLiteral("--dataset %1 has no usable prompt").arg(parser.value(dataset)));
    }
    spec.turns = int(number(turns, 1));
    spec.thinkTimeS = number(thinkTime, 0);
    if (parser.isSet(trace)) {
        QByteArray text;
        if (const QString problem = readBoundedFile(parser.value(trace), qint64(1) << 30, &text);
            !problem.isEmpty())
            return usage(QStringLiteral("--trace: cannot read %1: %2").arg(parser.value(trace), problem));
        rsload::TraceRead read = rsload::readTraceFile(text.toStdString());
        if (!read.error.empty())
            return usage(QStringLiteral("--trace %1: %2")
                             .arg(parser.value(trace), QString::fromStdString(read.error)));
        if (read.skipped)
            fprintf(stderr, "rackscope-cli load: --trace: %zu lines skipped (%s)\n", read.skipped,
                    read.firstProblem.c_str());
        spec.trace = std::move(read.arrivals);
        spec.traceSpeed = number(traceSpeed, 1);
        // the trace's own arrivals and count: an open loop unless a cap is asked for
        if (!parser.isSet(concurrency))
            spec.concurrency = 0;
        if (!parser.isSet(requests))
            spec.requests = 0;
        fprintf(stderr, "rackscope-cli load: replaying %zu requests (%s trace) over %.1f s\n",
                spec.trace.size(), read.layout.c_str(), spec.trace.back().atS / spec.traceSpeed);
    }
    if (auto problems = rsload::validate(spec); !problems.empty())
        return usage(QString::fromStdString(problems.front()));

    LoadRequest request;
    request.spec = spec;
    if (parser.isSet(slo)) {
        const auto slos = rsload::parseSlos(parser.value(slo).toStdString(), &why);
        if (!slos)
            return usage(QStringLiteral("--slo: ") + QString::fromStdString(why));
        request.slos = *slos;
    }
    const auto ps = numbers(parser.value(percentiles));
    if (!ps || std::any_of(ps->begin(), ps->end(), [](double p) { return p >= 100; }))
        return usage(QStringLiteral("--percentiles takes numbers between 0 and 100"));
    request.percentiles = *ps;
    if (parser.isSet(sweepConcurrency) || parser.isSet(sweepRate)) {
        if (parser.isSet(sweepConcurrency) && parser.isSet(sweepRate))
            return usage(QStringLiteral("sweep the concurrency or the rate, not both"));
        const auto values =
            numbers(parser.value(parser.isSet(sweepConcurrency) ? sweepConcurrency : sweepRate));
        if (!values)
            return usage(QStringLiteral("a sweep takes positive numbers separated by commas"));
        request.sweep =
            parser.isSet(sweepConcurrency) ? LoadRequest::Sweep::Concurrency : LoadRequest::Sweep::Rate;
        request.sweepValues = *values;
        request.sloAttainment = number(attainment, 0.9);
        if (request.slos.empty())
            fprintf(stderr, "rackscope-cli load: a sweep without --slo runs every step\n");
    }
    if (parser.isSet(findCapacity)) {
        if (request.sweep != LoadRequest::Sweep::None)
            return usage(QStringLiteral(
                "--find-capacity chooses its own steps: no --sweep-concurrency or --sweep-rate"));
        if (request.slos.empty())
            return usage(QStringLiteral(
                "--find-capacity needs the --slo it holds, e.g. 'ttft_p99<=500ms,tpot_p99<=50ms'"));
        LoadRequest::Capacity c;
        if (parser.value(by) == QLatin1String("concurrency"))
            c.by = CapacitySearch::By::Concurrency;
        else if (parser.value(by) != QLatin1String("rate"))
            return usage(QStringLiteral("--by is rate or concurrency"));
        c.start = number(capacityStart, 1);
        c.stepS = number(stepDuration, 20);
        if (!ok || !(c.start > 0) || !(c.stepS > 0))
            return usage(QStringLiteral("--capacity-start and --step-duration take positive numbers"));
        request.capacity = c;
        request.sloAttainment = number(attainment, 0.9);
    }
    if (parser.isSet(workers)) {
        const HostlistResult w = expandHostlist(parser.value(workers));
        if (!w.error.isEmpty() || w.hosts.isEmpty())
            return usage(QStringLiteral("--workers: ") +
                         (w.error.isEmpty() ? QStringLiteral("names no server") : w.error));
        request.workers = w.hosts;
    }
    const bool remoteWorkers =
        std::any_of(request.workers.begin(), request.workers.end(),
                    [](const QString& w) { return w != QLatin1String(GpuSampler::kLocal); });
    if (remote.wanted(parser) || remoteWorkers) {
        const int timeoutS = parser.value(sshTimeout).toInt();
        if (timeoutS <= 0)
            return usage(QStringLiteral("--ssh-timeout takes a number of seconds"));
        FleetTarget target = fleetFromOptions(parser, remote, timeoutS, 256);
        if (!target.error.isEmpty())
            return usage(target.error);
        if (remote.wanted(parser) && target.hosts.isEmpty())
            return usage(QStringLiteral("--hosts named no server"));
        request.hosts = target.hosts;
        request.fleet = std::move(target.options);
    }
    if (!parser.isSet(noSave)) {
        QString name =
            QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) + QLatin1Char('-') +
            QString::fromStdString(spec.model)
                .section(QLatin1Char('/'), -1)
                .replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
        request.resultsDirectory = parser.isSet(results)
                                       ? parser.value(results)
                                       : defaultLoadResultsDirectory() + QLatin1Char('/') + name;
    }

    LoadRunner runner;
    QEventLoop loop;
    int status = 0;
    const bool quiet = parser.isSet(json);
    rsload::Json summaries = rsload::Json::array();
    QObject::connect(&runner, &LoadRunner::stepStarted, &loop, [&](int step, double value) {
        if (request.capacity)
            fprintf(stderr, "step %d: %s %g%s\n", step,
                    request.capacity->by == CapacitySearch::By::Rate ? "rate" : "concurrency", value,
                    runner.capacitySearch()->nextIsRepeat() ? " (repeated)" : "");
        else if (request.sweep != LoadRequest::Sweep::None)
            fprintf(stderr, "step %d: %s %g\n", step,
                    request.sweep == LoadRequest::Sweep::Concurrency ? "concurrency" : "rate", value);
    });
    QObject::connect(
        &runner, &LoadRunner::progress, &loop,
        [&](const QString& client, double t, qint64 sent, qint64 done, qint64 failed, qint64 inFlight) {
            if (::isatty(STDERR_FILENO))
                fprintf(stderr, "\r%s%s%.1f s: %lld sent, %lld done, %lld failed, %lld in flight   ",
                        qPrintable(client), client.isEmpty() ? "" : ": ", t, static_cast<long long>(sent),
                        static_cast<long long>(done), static_cast<long long>(failed),
                        static_cast<long long>(inFlight));
        });
    QObject::connect(
        &runner, &LoadRunner::clientFailed, &loop, [&](const QString& client, const QString& error) {
            fprintf(stderr, "\nrackscope-cli load: %s: %s\n", qPrintable(client), qPrintable(error));
        });
    QObject::connect(&runner, &LoadRunner::stepFinished, &loop, [&](const LoadStepResult& r) {
        if (::isatty(STDERR_FILENO))
            fputc('\n', stderr);
        summaries.push_back(r.summaryJson);
        if (!quiet && request.capacity) { // a line a step: the search's curve, not a table each
            const auto tail = [&](const char* m) {
                const rsload::MetricStats& s = r.summary.metrics.at(m);
                const auto it = std::find_if(s.percentiles.begin(), s.percentiles.end(),
                                             [](const auto& pv) { return pv.first == 99; });
                return s.count && it != s.percentiles.end() ? QString::number(it->second, 'f', 1)
                                                            : QStringLiteral("\u2014");
            };
            printf("step %2d  %-11s %8g  %8.2f req/s  TTFT p99 %8s ms  TPOT p99 %7s ms  %s\n", r.step,
                   request.capacity->by == CapacitySearch::By::Rate ? "rate" : "concurrency", r.value,
                   r.summary.requestThroughput, qPrintable(tail("ttft")), qPrintable(tail("tpot")),
                   r.sloMet ? "held"
                            : qPrintable(QStringLiteral("broke: ") +
                                         QString::fromStdString(r.summaryJson.value("slo_broken", ""))));
        } else if (!quiet) {
            printf("%s", rsload::summaryText(r.summary, "Serving Benchmark Result",
                                             r.serverMetrics ? &*r.serverMetrics : nullptr,
                                             r.gpuUse ? &*r.gpuUse : nullptr)
                             .c_str());
            if (r.perClient.size() > 1)
                for (const auto& [name, s] : r.perClient)
                    printf("  %-20s %6zu ok %4zu failed  %8.2f req/s  TTFT p50 %8.2f ms  TPOT p50 %7.2f ms\n",
                           name.c_str(), s.completed, s.failed, s.requestThroughput,
                           s.metrics.at("ttft").median, s.metrics.at("tpot").median);
            if (!request.slos.empty())
                printf("SLO %s: %zu of %zu requests met it (%s)\n", rsload::formatSlos(request.slos).c_str(),
                       r.summary.goodRequests, r.summary.completed + r.summary.failed,
                       r.sloMet ? "met" : "broken");
            if (!r.directory.isEmpty())
                printf("saved in %s\n", qPrintable(r.directory));
        }
        fflush(stdout);
    });
    QObject::connect(&runner, &LoadRunner::finished, &loop, [&](bool good, const QString& error) {
        if (!good) {
            if (!error.isEmpty())
                fprintf(stderr, "rackscope-cli load: %s\n", qPrintable(error));
            status = 1;
        }
        loop.quit();
    });
    {
        const InterruptWatch interrupts([&] { runner.cancel(); });
        runner.start(request); // a copy: the handlers above read it
        if (runner.isRunning())
            loop.exec();
    }
    if (parser.isSet(report) && !runner.steps().empty() && writeReport(request.resultsDirectory) != 0)
        status = 1;
    if (request.capacity && !quiet && runner.capacitySearch())
        printf("Capacity at %s: %s\n", rsload::formatSlos(request.slos).c_str(),
               runner.capacitySearch()->describe().c_str());
    if (quiet && request.capacity)
        printf("%s\n", runner.capacityJson().dump(2).c_str());
    else if (quiet)
        printf("%s\n", (summaries.size() == 1 ? summaries[0] : summaries).dump(2).c_str());
    // a run whose every request failed is a failed run
    for (const auto& s : summaries)
        if (s.value("completed", 0) == 0)
            status = 1;
    return status;
}

} // namespace rackscope::cli
