#include "load_run_dialog.h"

#include "import/input_file.h"
#include "model/hostlist.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace rackscope::gui {

LoadRunDialog::LoadRunDialog(const QString& connectedServers, QWidget* parent)
    : QDialog(parent), url_(new QLineEdit(this)), model_(new QLineEdit(this)),
      inputLen_(new QLineEdit(QStringLiteral("1024"), this)),
      outputLen_(new QLineEdit(QStringLiteral("128"), this)), slo_(new QLineEdit(this)),
      hosts_(new QLineEdit(this)), metrics_(new QLineEdit(this)),
      workers_(new QLineEdit(connectedServers, this)), apiKeyEnv_(new QLineEdit(this)),
      caFile_(new QLineEdit(this)), trace_(new QLineEdit(this)),
      insecure_(new QCheckBox(tr("Do not check the server's certificate"), this)),
      endpoint_(new QComboBox(this)), capacity_(new QComboBox(this)), concurrency_(new QSpinBox(this)),
      requests_(new QSpinBox(this)), warmup_(new QSpinBox(this)), turns_(new QSpinBox(this)),
      rate_(new QDoubleSpinBox(this)), burstiness_(new QDoubleSpinBox(this)), problem_(new QLabel(this)) {
    setWindowTitle(tr("Inference load run"));
    setMinimumWidth(620); // the fields' hints read whole
    QSettings settings;
    url_->setPlaceholderText(QStringLiteral("http://node3:8000/v1"));
    url_->setText(settings.value(QStringLiteral("load/url")).toString());
    model_->setText(settings.value(QStringLiteral("load/model")).toString());
    endpoint_->addItem(tr("Chat completions"), QStringLiteral("chat"));
    endpoint_->addItem(tr("Completions"), QStringLiteral("completions"));
    concurrency_->setRange(0, 100000);
    concurrency_->setValue(rsload::LoadSpec::kDefaultConcurrency);
    concurrency_->setSpecialValueText(tr("no cap"));
    rate_->setRange(0, 1e6);
    rate_->setSpecialValueText(tr("as fast as the concurrency allows"));
    burstiness_->setRange(0.01, 100);
    burstiness_->setValue(1);
    requests_->setRange(1, 10000000);
    requests_->setValue(int(rsload::LoadSpec::kDefaultRequests));
    warmup_->setRange(0, 100000);
    slo_->setPlaceholderText(QStringLiteral("ttft<=200ms,tpot<=50ms  |  ttft_p99<=500ms"));
    capacity_->addItem(tr("No: one run as set above"));
    capacity_->addItem(tr("Yes, the highest request rate"), int(CapacitySearch::By::Rate));
    capacity_->addItem(tr("Yes, the most requests in flight"), int(CapacitySearch::By::Concurrency));
    hosts_->setPlaceholderText(tr("empty: from this machine"));
    metrics_->setPlaceholderText(tr("empty: the endpoint's /metrics, where it answers; off: none"));
    workers_->setPlaceholderText(
        tr("the inference servers, as a hostlist; local: this machine; empty: none"));
    apiKeyEnv_->setPlaceholderText(tr("environment variable holding the API key (never saved)"));
    caFile_->setPlaceholderText(tr("https: PEM file of the certificates to trust (empty: the system's)"));
    caFile_->setText(settings.value(QStringLiteral("load/caFile")).toString());
    auto* form = new QFormLayout;
    form->addRow(tr("Endpoint URL"), url_);
    form->addRow(tr("Model"), model_);
    form->addRow(tr("API"), endpoint_);
    form->addRow(tr("Concurrency"), concurrency_);
    form->addRow(tr("Request rate (per s)"), rate_);
    form->addRow(tr("Burstiness (1 = Poisson)"), burstiness_);
    form->addRow(tr("Requests"), requests_);
    form->addRow(tr("Warm-up requests"), warmup_);
    form->addRow(tr("Input length (tokens)"), inputLen_);
    form->addRow(tr("Output length (tokens)"), outputLen_);
    turns_->setRange(1, 1000);
    turns_->setSpecialValueText(tr("1 (no conversation)"));
    form->addRow(tr("Turns per conversation"), turns_);
    trace_->setPlaceholderText(
        tr("a CSV or JSON Lines trace to replay in place of the arrivals and lengths"));
    form->addRow(tr("Trace file"), trace_);
    form->addRow(tr("Goodput SLO"), slo_);
    form->addRow(tr("Find the capacity at the SLO"), capacity_);
    form->addRow(tr("Load from servers"), hosts_);
    form->addRow(tr("Server metrics"), metrics_);
    form->addRow(tr("Sample the GPUs of"), workers_);
    form->addRow(tr("API key variable"), apiKeyEnv_);
    auto* caRow = new QHBoxLayout;
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("CA certificate"), caFile_->text(), tr("PEM certificates (*.pem *.crt);;All files (*)"));
        if (!path.isEmpty())
            caFile_->setText(path);
    });
    caRow->addWidget(caFile_);
    caRow->addWidget(browse);
    form->addRow(tr("CA certificate"), caRow);
    form->addRow(QString(), insecure_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        QSettings s;
        s.setValue(QStringLiteral("load/url"), url_->text());
        s.setValue(QStringLiteral("load/model"), model_->text());
        s.setValue(QStringLiteral("load/caFile"), caFile_->text());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    problem_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    for (QLineEdit* e :
         {url_, model_, inputLen_, outputLen_, slo_, hosts_, metrics_, workers_, apiKeyEnv_, caFile_, trace_})
        connect(e, &QLineEdit::textChanged, this, &LoadRunDialog::check);
    for (QSpinBox* b : {concurrency_, requests_, warmup_, turns_})
        connect(b, &QSpinBox::valueChanged, this, &LoadRunDialog::check);
    connect(rate_, &QDoubleSpinBox::valueChanged, this, &LoadRunDialog::check);
    connect(insecure_, &QCheckBox::toggled, this, &LoadRunDialog::check);
    connect(capacity_, &QComboBox::currentIndexChanged, this, &LoadRunDialog::check);
    check();
}

void LoadRunDialog::check() {
    QString why;
    const bool ok = request(&why).has_value();
    problem_->setText(ok ? QString() : why);
    if (auto* box = findChild<QDialogButtonBox*>())
        box->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

std::optional<LoadRequest> LoadRunDialog::request(QString* problem) const {
    LoadRequest r;
    rsload::LoadSpec& s = r.spec;
    s.url = url_->text().trimmed().toStdString();
    while (!s.url.empty() && s.url.back() == '/')
        s.url.pop_back();
    s.model = model_->text().trimmed().toStdString();
    s.endpoint = endpoint_->currentData().toString() == QLatin1String("completions")
                     ? rsload::Endpoint::Completions
                     : rsload::Endpoint::ChatCompletions;
    s.concurrency = concurrency_->value();
    s.rate = rate_->value();
    s.burstiness = burstiness_->value();
    s.requests = requests_->value();
    s.warmup = warmup_->value();
    s.seed = uint64_t(QDateTime::currentMSecsSinceEpoch()); // a fresh one each run
    std::string why;
    const auto in = rsload::parseLengthDist(inputLen_->text().trimmed().toStdString(), &why);
    const QString lengthForms =
        tr("give N, uniform:LOW-HIGH or normal:MEAN,STDDEV, in tokens from 1 to 10000000");
    if (!in)
        return *problem = tr("Input length: %1").arg(lengthForms), std::nullopt;
    const auto out = rsload::parseLengthDist(outputLen_->text().trimmed().toStdString(), &why);
    if (!out)
        return *problem = tr("Output length: %1").arg(lengthForms), std::nullopt;
    s.inputLen = *in;
    s.outputLen = *out;
    if (!slo_->text().trimmed().isEmpty()) {
        const auto slos = rsload::parseSlos(slo_->text().trimmed().toStdString(), &why);
        if (!slos)
            return *problem = tr("SLO: give METRIC<=Nms, separated by commas, with METRIC one of ttft, tpot, "
                                 "itl, e2el (e.g. ttft<=200ms,tpot<=50ms)"),
                   std::nullopt;
        r.slos = *slos;
    }
    if (capacity_->currentIndex() > 0) {
        if (r.slos.empty())
            return *problem = tr("Finding the capacity needs the SLO it holds, e.g. ttft_p99<=500ms"),
                   std::nullopt;
        LoadRequest::Capacity c;
        c.by = CapacitySearch::By(capacity_->currentData().toInt());
        c.start = c.by == CapacitySearch::By::Rate ? std::max(1.0, s.rate) : std::max(1, s.concurrency);
        r.capacity = c;
    }
    if (!apiKeyEnv_->text().trimmed().isEmpty()) {
        const QString key = qEnvironmentVariable(qPrintable(apiKeyEnv_->text().trimmed()));
        if (key.isEmpty())
            return *problem =
                       tr("%1 is not set in this session's environment").arg(apiKeyEnv_->text().trimmed()),
                   std::nullopt;
        s.headers.emplace_back("Authorization", "Bearer " + key.toStdString());
    }
    s.turns = turns_->value();
    if (const QString path = trace_->text().trimmed(); !path.isEmpty()) {
        if (traceRead_.first != path) { // read once per path, not on every keystroke elsewhere
            QByteArray text;
            const QString unreadable = readBoundedFile(path, qint64(1) << 30, &text, 1000);
            traceRead_ = {path, unreadable.isEmpty() ? rsload::readTraceFile(text.toStdString())
                                                     : rsload::TraceRead{}};
            if (!unreadable.isEmpty())
                traceRead_.second.error = unreadable.toStdString();
        }
        if (!traceRead_.second.error.empty())
            return *problem = tr("Trace: %1").arg(QString::fromStdString(traceRead_.second.error)),
                   std::nullopt;
        s.trace = traceRead_.second.arrivals;
        s.requests = 0; // the trace's count
    }
    s.insecure = insecure_->isChecked();
    const QString metrics = metrics_->text().trimmed();
    s.metricsUrl = metrics.isEmpty()                 ? rsload::defaultMetricsUrl(s.url)
                   : metrics == QLatin1String("off") ? std::string()
                                                     : metrics.toStdString();
    if (const QString path = caFile_->text().trimmed(); !path.isEmpty()) {
        QByteArray pem;
        if (!readBoundedFile(path, rsload::kMaxCaPemBytes, &pem, 1000).isEmpty())
            return *problem = tr("CA certificate: cannot read %1").arg(path), std::nullopt;
        s.caPem = pem.toStdString();
    }
    if (!hosts_->text().trimmed().isEmpty()) {
        const HostlistResult list = expandHostlist(hosts_->text().trimmed());
        if (!list.error.isEmpty())
            return *problem = tr("Servers: %1").arg(list.error), std::nullopt;
        r.hosts = list.hosts;
    }
    if (!workers_->text().trimmed().isEmpty()) {
        const HostlistResult list = expandHostlist(workers_->text().trimmed());
        if (!list.error.isEmpty())
            return *problem = tr("GPUs of: %1").arg(list.error), std::nullopt;
        r.workers = list.hosts;
    }
    // the engine's own checks, in the window's language where the catalogue has them
    if (const auto problems = rsload::validate(s); !problems.empty())
        return *problem = QCoreApplication::translate("rsload", problems.front().c_str()), std::nullopt;
    return r;
}

} // namespace rackscope::gui
