#include "export_dialog.h"

#include "model/hostlist.h"
#include "render/diagram_style.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace rackscope::gui {
namespace {

constexpr QSize kPreview(560, 400);

const char* suffixOf(ExportFormat f) {
    switch (f) {
    case ExportFormat::Svg:
        return "svg";
    case ExportFormat::Png:
        return "png";
    case ExportFormat::Pdf:
        return "pdf";
    case ExportFormat::Dot:
        return "dot";
    }
    return "svg";
}

} // namespace

ExportDialog::ExportDialog(WorkspaceViewPtr view, const PaintOptions& paint, const TitleBlock& title,
                           QWidget* parent)
    : QDialog(parent), view_(std::move(view)), title_(title), path_(new QLineEdit(this)),
      title_edit_(new QLineEdit(this)), hosts_(new QLineEdit(this)), format_(new QComboBox(this)),
      page_(new QComboBox(this)), orientation_(new QComboBox(this)), servers_(new QComboBox(this)),
      dpi_(new QSpinBox(this)), highlights_(new QListWidget(this)), preview_(new QLabel(this)),
      summary_(new QLabel(this)), problem_(new QLabel(this)) {
    setWindowTitle(tr("Export diagram"));
    QSettings settings;
    format_->addItem(tr("SVG (scales without loss)"), int(ExportFormat::Svg));
    format_->addItem(tr("PNG (an image)"), int(ExportFormat::Png));
    format_->addItem(tr("PDF (pages to print)"), int(ExportFormat::Pdf));
    format_->addItem(tr("Graphviz DOT (the graph, for dot to lay out)"), int(ExportFormat::Dot));
    for (const auto& [name, id] : exportPages())
        page_->addItem(name, int(id));
    page_->setCurrentText(QStringLiteral("A3"));
    orientation_->addItem(tr("the one the drawing fills best"));
    orientation_->addItem(tr("landscape"));
    orientation_->addItem(tr("portrait"));
    dpi_->setRange(10, 2400);
    dpi_->setValue(150);
    dpi_->setSuffix(tr(" DPI"));
    servers_->addItem(tr("as in the window"));
    servers_->addItem(tr("every server closed, as a card"));
    servers_->addItem(tr("every server open"));
    hosts_->setPlaceholderText(tr("every server (or a hostlist: node[01-08])"));
    title_edit_->setText(view_->diagram.title);
    for (int k = 0; k < kHighlightKinds; ++k) {
        auto* item = new QListWidgetItem(highlightTitle(HighlightKind(k)), highlights_);
        QPixmap swatch(12, 12);
        swatch.fill(highlightColour(HighlightKind(k)));
        item->setIcon(QIcon(swatch));
        item->setCheckState(paint.show[std::size_t(k)] ? Qt::Checked : Qt::Unchecked);
    }
    highlights_->setMinimumHeight(120);
    highlights_->setMinimumWidth(highlights_->sizeHintForColumn(0) + 2 * highlights_->frameWidth() + 8);
    path_->setText(settings.value(QStringLiteral("export/path")).toString());
    if (path_->text().isEmpty())
        path_->setText(QDir::home().filePath(QStringLiteral("rackscope.svg")));
    pathEdited();

    auto* pathRow = new QHBoxLayout;
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export diagram"), path_->text(),
                                         tr("SVG (*.svg);;PNG (*.png);;PDF (*.pdf);;Graphviz (*.dot)"));
        if (!path.isEmpty())
            path_->setText(path);
    });
    pathRow->addWidget(path_);
    pathRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("File"), pathRow);
    form->addRow(tr("Format"), format_);
    form->addRow(tr("Page (PDF)"), page_);
    form->addRow(tr("Orientation (PDF)"), orientation_);
    form->addRow(tr("Resolution (PNG)"), dpi_);
    form->addRow(tr("Title"), title_edit_);
    form->addRow(tr("Servers"), servers_);
    form->addRow(tr("Only these servers"), hosts_);
    form->addRow(tr("Highlights"), highlights_);
    preview_->setFixedSize(kPreview);
    preview_->setFrameShape(QFrame::StyledPanel);
    summary_->setWordWrap(true);
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c62828"));
    auto* right = new QVBoxLayout;
    right->addWidget(preview_);
    right->addWidget(summary_);
    right->addStretch();
    auto* columns = new QHBoxLayout;
    columns->addLayout(form);
    columns->addLayout(right);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        QSettings().setValue(QStringLiteral("export/path"), path_->text());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(problem_);
    layout->addWidget(buttons);

    relayOut();
    // A change of servers lays the diagram out again, once typing pauses; the rest only repaints.
    relayout_.setSingleShot(true);
    relayout_.setInterval(250);
    connect(&relayout_, &QTimer::timeout, this, &ExportDialog::relayOut);
    connect(hosts_, &QLineEdit::textChanged, &relayout_, qOverload<>(&QTimer::start));
    connect(servers_, &QComboBox::currentIndexChanged, this, &ExportDialog::relayOut);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChosen);
    connect(path_, &QLineEdit::textChanged, this, &ExportDialog::pathEdited);
    connect(path_, &QLineEdit::textChanged, this, &ExportDialog::showPreview);
    for (QComboBox* b : {page_, orientation_})
        connect(b, &QComboBox::currentIndexChanged, this, &ExportDialog::showPreview);
    connect(dpi_, &QSpinBox::valueChanged, this, &ExportDialog::showPreview);
    connect(title_edit_, &QLineEdit::textChanged, this, &ExportDialog::showPreview);
    connect(highlights_, &QListWidget::itemChanged, this, [this] {
        smallest_ = 0; // a highlight's labels may be the smallest text
        showPreview();
    });
    formatChosen();
}

void ExportDialog::pathEdited() { // a name ending in a format's suffix chooses it
    if (const auto f = exportFormatFromName(QFileInfo(path_->text()).suffix()))
        format_->setCurrentIndex(format_->findData(int(*f)));
}

void ExportDialog::formatChosen() { // the name follows the format; the page or resolution is offered
    const auto f = ExportFormat(format_->currentData().toInt());
    QFileInfo info(path_->text());
    if (!path_->text().isEmpty() && exportFormatFromName(info.suffix()) != f)
        path_->setText(info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + suffixOf(f)));
    page_->setEnabled(f == ExportFormat::Pdf);
    orientation_->setEnabled(f == ExportFormat::Pdf);
    dpi_->setEnabled(f == ExportFormat::Png);
    showPreview();
}

void ExportDialog::relayOut() {
    relayout_.stop();
    DiagramOptions o = view_->options;
    if (servers_->currentIndex() == 1) {
        o.open = ServersOpen::Listed;
        o.expanded.clear();
    } else if (servers_->currentIndex() == 2) {
        o.open = ServersOpen::All;
    }
    layoutProblem_.clear();
    if (const QString list = hosts_->text().trimmed(); !list.isEmpty()) {
        const HostlistResult h = expandHostlist(list);
        if (!h.error.isEmpty())
            layoutProblem_ = tr("Only these servers: %1").arg(h.error);
        o.onlyHosts = h.hosts;
    }
    if (layoutProblem_.isEmpty()) {
        DiagramInput input = view_->workspace.diagramInput();
        input.title = view_->diagram.title;
        diagram_ = buildDiagram(input, o);
        smallest_ = 0; // measured again when a PDF is planned
        if (!o.onlyHosts.isEmpty() && !drawsAServer(diagram_))
            layoutProblem_ =
                tr("No server is called %1: there would be nothing to draw.").arg(hosts_->text());
    }
    showPreview();
}

ExportOptions ExportDialog::options() const {
    ExportOptions o;
    o.format = ExportFormat(format_->currentData().toInt());
    o.dpi = dpi_->value();
    o.page = QPageSize::PageSizeId(page_->currentData().toInt());
    if (orientation_->currentIndex() > 0)
        o.landscape = orientation_->currentIndex() == 1;
    for (int k = 0; k < highlights_->count(); ++k)
        o.paint.show[std::size_t(k)] = highlights_->item(k)->checkState() == Qt::Checked;
    o.title = title_;
    o.title.title = title_edit_->text().trimmed().isEmpty() ? diagram_.title : title_edit_->text().trimmed();
    return o;
}

std::optional<ExportRequest> ExportDialog::request(QString* problem) const {
    const auto fail = [&](const QString& why) -> std::optional<ExportRequest> {
        if (problem)
            *problem = why;
        return std::nullopt;
    };
    if (!layoutProblem_.isEmpty())
        return fail(layoutProblem_);
    const QString path = path_->text().trimmed();
    if (path.isEmpty() || QFileInfo(path).fileName().isEmpty())
        return fail(tr("Choose the file to write."));
    if (!QFileInfo(path).dir().exists())
        return fail(tr("The folder %1 does not exist.").arg(QFileInfo(path).dir().path()));
    const ExportOptions o = options();
    if (o.format == ExportFormat::Png) {
        const QSize px = planExport(diagram_, o).pixels;
        if (qint64(px.width()) * px.height() > 400'000'000LL)
            return fail(tr("%1 × %2 pixels is too large an image: choose a lower resolution, or SVG or PDF.")
                            .arg(px.width())
                            .arg(px.height()));
    }
    return ExportRequest{path, diagram_, o};
}

void ExportDialog::showPreview() {
    QString why;
    const bool ok = request(&why).has_value();
    problem_->setText(ok ? QString() : why);
    if (auto* box = findChild<QDialogButtonBox*>())
        box->button(QDialogButtonBox::Ok)->setEnabled(ok);
    QImage image(kPreview * devicePixelRatioF(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatioF());
    image.fill(palette().color(QPalette::Window));
    if (!layoutProblem_.isEmpty()) {
        preview_->setPixmap(QPixmap::fromImage(image));
        summary_->clear();
        return;
    }
    const ExportOptions o = options();
    if (o.format == ExportFormat::Pdf && smallest_ <= 0)
        smallest_ = smallestText(diagram_, o);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        paintExportPreview(p, QRectF(QPointF(8, 8), QSizeF(kPreview) - QSizeF(16, 16)), diagram_, o,
                           smallest_);
    }
    preview_->setPixmap(QPixmap::fromImage(image));
    const ExportPlan plan = planExport(diagram_, o, smallest_);
    switch (o.format) {
    case ExportFormat::Svg:
        summary_->setText(
            tr("%1 × %2 pt; scales without loss.").arg(plan.pixels.width()).arg(plan.pixels.height()));
        break;
    case ExportFormat::Png:
        summary_->setText(
            tr("%1 × %2 pixels at %3 DPI.").arg(plan.pixels.width()).arg(plan.pixels.height()).arg(o.dpi));
        break;
    case ExportFormat::Pdf: {
        const QString sheet =
            page_->currentText() + QLatin1Char(' ') + (plan.landscape ? tr("landscape") : tr("portrait"));
        summary_->setText(
            plan.pages == 1
                ? tr("One %1 page; the smallest text prints at %2 pt.")
                      .arg(sheet)
                      .arg(plan.smallestPt, 0, 'f', 1)
                : tr("On one page the text would print under 6 pt, so: a map of the pages (shown here), then "
                     "%1 %2 pages to lay side by side, the smallest text at %3 pt.")
                      .arg(plan.pages - 1)
                      .arg(sheet)
                      .arg(plan.smallestPt, 0, 'f', 1));
        break;
    }
    case ExportFormat::Dot:
        summary_->setText(
            tr("The graph for Graphviz, which lays it out itself (dot -Tsvg); the preview shows "
               "rackscope's own layout."));
        break;
    }
}

} // namespace rackscope::gui
