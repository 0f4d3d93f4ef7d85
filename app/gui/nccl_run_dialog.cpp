#include "nccl_run_dialog.h"

#include "model/hostlist.h"
#include "transport/shell_quote.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace rackscope::gui {
namespace {

QSpinBox* spin(QWidget* parent, int low, int high, int value) {
    auto* s = new QSpinBox(parent);
    s->setRange(low, high);
    s->setValue(value);
    return s;
}

QComboBox* combo(QWidget* parent, const QStringList& items) {
    auto* c = new QComboBox(parent);
    c->addItems(items);
    return c;
}

const char kSettings[] = "ncclRun/";

} // namespace

NcclRunDialog::NcclRunDialog(const QString& hosts, QWidget* parent)
    : QDialog(parent), hosts_(new QLineEdit(hosts, this)),
      minBytes_(new QLineEdit(QStringLiteral("8"), this)),
      maxBytes_(new QLineEdit(QStringLiteral("8G"), this)), launcherArgs_(new QLineEdit(this)),
      binaryDir_(new QLineEdit(this)), launchHost_(new QLineEdit(this)),
      op_(combo(this, {QStringLiteral("all_reduce"), QStringLiteral("all_gather"),
                       QStringLiteral("reduce_scatter"), QStringLiteral("alltoall"),
                       QStringLiteral("sendrecv"), QStringLiteral("broadcast"), QStringLiteral("reduce")})),
      type_(combo(this, {QStringLiteral("float"), QStringLiteral("half"), QStringLiteral("bfloat16"),
                         QStringLiteral("double"), QStringLiteral("int32"), QStringLiteral("int8"),
                         QStringLiteral("uint8")})),
      redop_(combo(this, {QStringLiteral("sum"), QStringLiteral("prod"), QStringLiteral("max"),
                          QStringLiteral("min"), QStringLiteral("avg")})),
      launcher_(combo(this, {QStringLiteral("mpirun"), QStringLiteral("srun")})),
      schedule_(new QComboBox(this)), factor_(spin(this, 2, 1024, 2)), gpus_(spin(this, 1, 16, 1)),
      iters_(spin(this, 1, 100000, 20)), warmup_(spin(this, 0, 100000, 5)), ppn_(spin(this, 1, 64, 8)),
      environment_(new QPlainTextEdit(this)), preview_(new QPlainTextEdit(this)),
      counters_(new QCheckBox(tr("Sample NIC counters on every host before and after"), this)),
      findSlow_(new QCheckBox(tr("Find the slow one: run on small groups and compare"), this)) {
    setWindowTitle(tr("NCCL load run"));
    schedule_->addItem(tr("every pair, in rounds of disjoint pairs"));
    schedule_->addItem(tr("bisection: halves, then quarters"));
    hosts_->setPlaceholderText(tr("gpu[001-016]"));
    binaryDir_->setPlaceholderText(tr("on PATH"));
    binaryDir_->setToolTip(tr("nccl-tests' build folder on the cluster; where nccl-tests is not installed, "
                              "the nccl-tests folder beside rackscope-nccl-bench"));
    launchHost_->setPlaceholderText(tr("this machine"));
    launcherArgs_->setPlaceholderText(tr("--mca btl_tcp_if_include eth0"));
    environment_->setPlaceholderText(tr("NAME=VALUE, one per line: NCCL_IB_HCA=mlx5_0,mlx5_1  "
                                        "NCCL_SOCKET_IFNAME=eth0  NCCL_NET_GDR_LEVEL=PHB  NCCL_ALGO=Ring"));
    QSettings settings;
    environment_->setPlainText(settings
                                   .value(QLatin1String(kSettings) + QStringLiteral("environment"),
                                          QStringLiteral("NCCL_DEBUG=INFO"))
                                   .toString());
    binaryDir_->setText(settings.value(QLatin1String(kSettings) + QStringLiteral("binaryDir")).toString());
    launchHost_->setText(settings.value(QLatin1String(kSettings) + QStringLiteral("launchHost")).toString());
    launcherArgs_->setText(
        settings.value(QLatin1String(kSettings) + QStringLiteral("launcherArgs")).toString());
    environment_->setMaximumHeight(90);
    preview_->setReadOnly(true);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    preview_->setMaximumHeight(90);

    auto* form = new QFormLayout(this);
    form->addRow(tr("&Hosts:"), hosts_);
    form->addRow(tr("&Operation:"), op_);
    form->addRow(tr("Sizes from (-b):"), minBytes_);
    form->addRow(tr("Sizes to (-e):"), maxBytes_);
    form->addRow(tr("Step factor (-f):"), factor_);
    form->addRow(tr("GPUs per process (-g):"), gpus_);
    form->addRow(tr("Processes per host:"), ppn_);
    form->addRow(tr("Iterations (-n):"), iters_);
    form->addRow(tr("Warm-up iterations (-w):"), warmup_);
    form->addRow(tr("Data type (-d):"), type_);
    form->addRow(tr("Reduction (-o):"), redop_);
    form->addRow(tr("&Environment:"), environment_);
    form->addRow(tr("&Launcher:"), launcher_);
    form->addRow(tr("Launcher arguments:"), launcherArgs_);
    form->addRow(tr("nccl-tests binaries in:"), binaryDir_);
    form->addRow(tr("Launch from:"), launchHost_);
    form->addRow(counters_);
    form->addRow(findSlow_);
    form->addRow(tr("Groups:"), schedule_);
    form->addRow(tr("Command line:"), preview_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &NcclRunDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NcclRunDialog::reject);
    form->addRow(buttons);

    for (QLineEdit* e : {hosts_, minBytes_, maxBytes_, launcherArgs_, binaryDir_, launchHost_})
        connect(e, &QLineEdit::textChanged, this, &NcclRunDialog::updatePreview);
    for (QComboBox* c : {op_, type_, redop_, launcher_, schedule_})
        connect(c, &QComboBox::currentIndexChanged, this, &NcclRunDialog::updatePreview);
    for (QSpinBox* s : {factor_, gpus_, iters_, warmup_, ppn_})
        connect(s, &QSpinBox::valueChanged, this, &NcclRunDialog::updatePreview);
    connect(environment_, &QPlainTextEdit::textChanged, this, &NcclRunDialog::updatePreview);
    connect(findSlow_, &QCheckBox::toggled, this, &NcclRunDialog::updatePreview);
    updatePreview();
}

RunChoice NcclRunDialog::choice(QString* error) const {
    RunChoice c;
    QString why;
    const HostlistResult list = expandHostlist(hosts_->text().trimmed());
    if (!list.error.isEmpty())
        why = tr("hosts: %1").arg(list.error);
    c.spec.hosts = list.hosts;
    c.spec.collective = collectiveFromName(op_->currentText()).value_or(Collective::AllReduce);
    c.spec.minBytes = minBytes_->text().trimmed();
    c.spec.maxBytes = maxBytes_->text().trimmed();
    c.spec.stepFactor = factor_->value();
    c.spec.gpusPerProcess = gpus_->value();
    c.spec.processesPerHost = ppn_->value();
    c.spec.iterations = iters_->value();
    c.spec.warmupIterations = warmup_->value();
    c.spec.dataType = type_->currentText();
    c.spec.reduction = redop_->currentText();
    c.spec.launcher = launcher_->currentIndex() == 1 ? Launcher::Srun : Launcher::Mpirun;
    c.spec.launcherArgs = QProcess::splitCommand(launcherArgs_->text());
    c.spec.binaryDir = binaryDir_->text().trimmed();
    c.spec.environment.clear();
    for (const QString& raw : environment_->toPlainText().split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0 && why.isEmpty())
            why = tr("environment: '%1' is not NAME=VALUE").arg(line);
        if (eq > 0)
            c.spec.environment.emplace_back(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
    }
    c.launchHost = launchHost_->text().trimmed();
    c.counters = counters_->isChecked();
    c.findSlow = findSlow_->isChecked();
    c.schedule = schedule_->currentIndex() == 1 ? HuntSchedule::Bisection : HuntSchedule::Pairs;
    if (why.isEmpty())
        why = validateRunSpec(c.spec);
    if (why.isEmpty() && c.findSlow && c.spec.hosts.size() < 2)
        why = tr("finding the slow one needs two hosts or more");
    if (error)
        *error = why;
    return c;
}

QString NcclRunDialog::commandLine() const {
    return preview_->toPlainText();
}

void NcclRunDialog::updatePreview() {
    QString error;
    const RunChoice c = choice(&error);
    schedule_->setEnabled(c.findSlow);
    if (!error.isEmpty()) {
        preview_->setPlainText(tr("(cannot run: %1)").arg(error));
        return;
    }
    NcclRunSpec shown = c.spec;
    if (c.findSlow)
        shown.hosts = c.spec.hosts.mid(0, 2); // the first group, as each group runs
    const QString prompt = (c.launchHost.isEmpty() ? QString() : c.launchHost) + QStringLiteral("$ ");
    preview_->setPlainText(prompt + shellCommand(launchArgv(shown)).line +
                           (c.findSlow ? tr("\n(and the same for every other group)") : QString()));
}

void NcclRunDialog::accept() {
    QString error;
    choice(&error);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("This run cannot start: %1").arg(error));
        return;
    }
    QSettings settings;
    settings.setValue(QLatin1String(kSettings) + QStringLiteral("environment"), environment_->toPlainText());
    settings.setValue(QLatin1String(kSettings) + QStringLiteral("binaryDir"), binaryDir_->text());
    settings.setValue(QLatin1String(kSettings) + QStringLiteral("launchHost"), launchHost_->text());
    settings.setValue(QLatin1String(kSettings) + QStringLiteral("launcherArgs"), launcherArgs_->text());
    QDialog::accept();
}

} // namespace rackscope::gui
