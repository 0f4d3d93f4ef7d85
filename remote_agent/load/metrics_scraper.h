#pragma once
// Scrapes the inference server's Prometheus /metrics during a load run, on a thread of its own with
// its own HTTP client, so the load's event loop never waits on a scrape: one GET every interval (the
// next one only after the last has ended), read up to kMaxScrapeBytes, reduced to a ServerLoad. The
// load engine takes the samples from its own thread and puts them on the run's time axis.
#include "http_transport.h"
#include "load_model/server_metrics.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace rsload {

struct TimedScrape {
    Clock::time_point at; // when the response ended
    ServerLoad load;
    std::string error; // empty when read
};

class MetricsScraper {
public:
    // Starts scraping at once (the first scrape is the run's baseline for the counters).
    MetricsScraper(const LoadSpec& spec);
    ~MetricsScraper(); // stops without a last scrape

    std::vector<TimedScrape> take(); // the scrapes ended since the last call, in order
    void finish();                   // one last scrape (the counters' end), then stop

private:
    void loop();
    TimedScrape scrapeOnce(HttpTransport& transport);

    LoadSpec spec_;
    std::mutex mutex_;
    std::condition_variable wakeup_;
    bool stop_ = false, lastScrape_ = false;
    std::vector<TimedScrape> done_;
    HttpTransport* transport_ = nullptr; // while one exists, for wake()
    std::thread thread_;
};

} // namespace rsload
