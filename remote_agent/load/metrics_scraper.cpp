#include "metrics_scraper.h"

#include <algorithm>

namespace rsload {
namespace {

// One scrape's response, as the transport hands it over.
struct Exchange final : TransferEvents {
    std::string body;
    int status = 0;
    bool tooLarge = false, over = false;
    TransferEnd end;

    void sending(Clock::time_point) override {}
    bool received(int httpStatus, const char* data, size_t size, Clock::time_point) override {
        status = httpStatus;
        if (body.size() + size > kMaxScrapeBytes) {
            tooLarge = true;
            return false;
        }
        body.append(data, size);
        return true;
    }
    void ended(const TransferEnd& e) override {
        end = e;
        over = true;
    }
};

Clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

} // namespace

MetricsScraper::MetricsScraper(const LoadSpec& spec) : spec_(spec) {
    thread_ = std::thread([this] { loop(); });
}

MetricsScraper::~MetricsScraper() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        if (transport_)
            transport_->wake();
    }
    wakeup_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

std::vector<TimedScrape> MetricsScraper::take() {
    std::lock_guard lock(mutex_);
    return std::exchange(done_, {});
}

void MetricsScraper::finish() {
    {
        std::lock_guard lock(mutex_);
        lastScrape_ = true;
    }
    wakeup_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

void MetricsScraper::loop() {
    HttpSetup setup;
    setup.url = spec_.metricsUrl;
    setup.get = true;
    setup.headers = spec_.headers;
    setup.headers.emplace_back("Accept", "text/plain;version=0.0.4");
    setup.timeoutS = std::max(2.0, spec_.scrapeIntervalS * 4); // a slow scrape still ends, and says so
    setup.connectTimeoutS = std::min(spec_.connectTimeoutS, 5.0);
    setup.caPem = spec_.caPem;
    setup.insecure = spec_.insecure;
    setup.concurrency = 1;
    std::string why;
    // The run's client where it can carry this URL (it may differ from the load's: https, a proxy)
    const HttpClient client = spec_.httpClient == HttpClient::Native && !nativeCanCarry(spec_.metricsUrl)
                                  ? HttpClient::Auto
                                  : spec_.httpClient;
    std::unique_ptr<HttpTransport> transport = makeTransport(setup, client, &why);
    if (!transport) {
        std::lock_guard lock(mutex_);
        done_.push_back(TimedScrape{Clock::now(), {}, why});
        return;
    }
    {
        std::lock_guard lock(mutex_);
        transport_ = transport.get();
    }
    Clock::time_point next = Clock::now();
    while (true) {
        bool last = false;
        {
            std::unique_lock lock(mutex_);
            wakeup_.wait_until(lock, next, [&] { return stop_ || lastScrape_; });
            if (stop_)
                break;
            last = lastScrape_;
        }
        TimedScrape s = scrapeOnce(*transport);
        next = std::max(next + seconds(spec_.scrapeIntervalS), Clock::now());
        std::lock_guard lock(mutex_);
        done_.push_back(std::move(s));
        if (last || stop_)
            break;
    }
    std::lock_guard lock(mutex_);
    transport_ = nullptr;
}

TimedScrape MetricsScraper::scrapeOnce(HttpTransport& transport) {
    Exchange x;
    static const std::string kNoBody;
    std::string why;
    if (!transport.send(kNoBody, &x))
        return {Clock::now(), {}, "the scrape could not be sent"};
    while (!x.over) {
        {
            std::lock_guard lock(mutex_);
            if (stop_) {
                transport.drop(&x);
                return {Clock::now(), {}, "stopped"};
            }
        }
        if (!transport.wait(Clock::now() + std::chrono::milliseconds(200), &why)) {
            transport.drop(&x);
            return {Clock::now(), {}, why};
        }
    }
    const Clock::time_point at = Clock::now();
    if (x.tooLarge)
        return {at, {}, "the scrape is larger than " + std::to_string(kMaxScrapeBytes >> 20) + " MiB"};
    if (x.end.failure)
        return {at, {}, x.end.detail.empty() ? std::string(failureName(*x.end.failure)) : x.end.detail};
    const int status = x.end.httpStatus.value_or(x.status);
    if (status != 200)
        return {at, {}, spec_.metricsUrl + " answered HTTP " + std::to_string(status)};
    const PromScrape scrape = parsePrometheusText(x.body);
    ServerLoad load = serverLoadOf(scrape);
    if (scrape.families.empty())
        return {at,
                {},
                spec_.metricsUrl + " gave no Prometheus metrics" +
                    (scrape.problems.empty() ? std::string() : ": " + scrape.problems.front())};
    return {at, std::move(load), {}};
}

} // namespace rsload
