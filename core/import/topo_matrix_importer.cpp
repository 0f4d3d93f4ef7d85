#include "topo_matrix_importer.h"

#include "device_facts.h"

#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <set>

namespace rackscope {
namespace {

// Real escapes, their residue when a copy lost the ESC byte ("[4m"), cat -v's
// "^[[4m", and carriage returns of a Windows paste.
QString cleanLine(QString line) {
    static const QRegularExpression re(QStringLiteral("(?:\\x1b|\\^\\[)?\\[[0-9;]*m|\\r"));
    return line.remove(re);
}

QStringList words(const QString& line) {
    static const QRegularExpression ws(QStringLiteral("\\s+"));
    return line.split(ws, Qt::SkipEmptyParts);
}

// Trailing attribute columns of the header, in the order drivers print them.
const QStringList kAttributeColumns = {QStringLiteral("CPU Affinity"), QStringLiteral("NUMA Affinity"),
                                       QStringLiteral("GPU NUMA ID")};

// The part of a header line before its attribute columns, and those columns in order.
QString deviceHeader(const QString& header, QStringList* attributes) {
    int first = int(header.size());
    for (const QString& col : kAttributeColumns) {
        const int at = int(header.indexOf(col));
        if (at < 0)
            continue;
        if (attributes)
            *attributes << col;
        first = std::min(first, at);
    }
    return header.left(first);
}

// Header labels. A word that lost the tabs around it ("GPU6GPU7mlx5_0") is cut
// only where it is wholly made of the labels drivers print; any other word
// (an RDMA device named "rocep1s0f0") is one label.
std::optional<QStringList> headerLabels(const QString& devicePart) {
    static const QRegularExpression piece(QStringLiteral("\\G(?:GPU\\d+|NIC\\d+|mlx\\d+_(?:bond_)?\\d+)"));
    static const QRegularExpression name(QStringLiteral("^[A-Za-z][\\w.:-]*$"));
    QStringList labels;
    for (const QString& word : words(devicePart)) {
        QStringList pieces;
        qsizetype at = 0;
        for (auto m = piece.match(word, at); m.hasMatch(); m = piece.match(word, at)) {
            pieces << m.captured();
            at = m.capturedEnd();
        }
        if (at == word.size())
            labels << pieces;
        else if (name.match(word).hasMatch())
            labels << word;
        else
            return std::nullopt;
    }
    return labels;
}

// The header is the first line whose device part is all labels, starting with GPU0.
int headerLineIndex(const QStringList& lines) {
    for (int i = 0; i < lines.size(); ++i) {
        const auto labels = headerLabels(deviceHeader(cleanLine(lines[i]), nullptr));
        if (labels && !labels->isEmpty() && labels->first() == QLatin1String("GPU0"))
            return i;
    }
    return -1;
}

// The path types a matrix cell holds besides NV#, longest first where one starts another.
const QStringList kPathWords = {QStringLiteral("NODE"), QStringLiteral("SYS"), QStringLiteral("SOC"),
                                QStringLiteral("PHB"),  QStringLiteral("PXB"), QStringLiteral("PIX"),
                                QStringLiteral("X")};

bool isGpuLabel(const QString& s) {
    static const QRegularExpression re(QStringLiteral("^GPU\\d+$"));
    return re.match(s).hasMatch();
}

// One row cut into its label, exactly `columns` path cells and the attribute
// text after them. Whitespace between tokens is optional, so cells fused by a
// lost tab ("NODENODE", "NV18NV18") still read; where a cut is ambiguous
// (NV#'s digits running into an affinity) the longer token is tried first.
struct RowCut {
    QString label;
    QStringList cells;
    QString rest;
};

class RowCutter {
public:
    RowCutter(const QString& text, const QStringList& labels, int columns)
        : text_(text), labels_(labels), columns_(columns) {}

    std::optional<RowCut> cut() {
        const int start = skipSpace(0);
        QStringList byLength = labels_;
        std::sort(byLength.begin(), byLength.end(),
                  [](const QString& a, const QString& b) { return a.size() > b.size(); });
        for (const QString& label : byLength) {
            if (!text_.mid(start).startsWith(label))
                continue;
            cut_ = {label, {}, {}};
            failed_.clear();
            if (cells(start + int(label.size())))
                return cut_;
        }
        return std::nullopt;
    }

private:
    int skipSpace(int at) const {
        while (at < text_.size() && text_[at].isSpace())
            ++at;
        return at;
    }

    // Path tokens that can start at `at`, longest first.
    QStringList tokensAt(int at) const {
        QStringList out;
        const QStringView rest = QStringView(text_).mid(at);
        if (rest.startsWith(QLatin1String("NV"))) {
            int digits = 0;
            while (2 + digits < rest.size() && rest[2 + digits].isDigit())
                ++digits;
            for (int d = digits; d >= 1; --d)
                out << rest.left(2 + d).toString();
        }
        for (const QString& t : kPathWords)
            if (rest.startsWith(t))
                out << t;
        return out;
    }

    bool cells(int at) {
        at = skipSpace(at);
        const int done = int(cut_.cells.size());
        if (done == columns_) {
            cut_.rest = text_.mid(at);
            return true;
        }
        if (failed_.count({at, done}))
            return false;
        for (const QString& token : tokensAt(at)) {
            cut_.cells << token;
            if (cells(at + int(token.size())))
                return true;
            cut_.cells.removeLast();
        }
        failed_.insert({at, done});
        return false;
    }

    const QString text_;
    const QStringList& labels_;
    const int columns_;
    RowCut cut_;
    std::set<std::pair<int, int>> failed_; // (position, cells read) that cannot finish
};

// Each attribute as drivers print it: a CPU list, a NUMA node or list, "N/A".
// Values a lost tab ran together ("0-55,112-1670N/A") cannot be cut for sure:
// none is read then, and a note says so.
void readAttributes(const QStringList& attributes, const QStringList& values, Device& d, QStringList& notes) {
    static const QRegularExpression list(QStringLiteral("^(?:\\d+(?:-\\d+)?(?:,\\d+(?:-\\d+)?)*|N/A)$"));
    static const QRegularExpression number(QStringLiteral("^\\d+$"));
    for (const QString& value : values)
        if (!list.match(value).hasMatch()) {
            notes << QStringLiteral("%1's CPU and NUMA affinity run together ('%2'): not read")
                         .arg(d.id, values.join(QLatin1Char(' ')).left(60));
            return;
        }
    for (int a = 0; a < attributes.size() && a < values.size(); ++a) {
        const QString& value = values[a];
        if (attributes[a] == kAttributeColumns[0] && value != QLatin1String("N/A"))
            d.cpuAffinity = value;
        if (attributes[a] != kAttributeColumns[1])
            continue;
        if (number.match(value).hasMatch())
            d.numa = value.toInt();
        else if (value != QLatin1String("N/A"))
            notes << QStringLiteral(
                         "%1's NUMA affinity is %2: not one NUMA node, so none is taken as its own")
                         .arg(d.id, value);
    }
}

} // namespace

bool looksLikeTopoMatrix(const QByteArray& text) {
    const QStringList lines = QString::fromUtf8(text.left(64 * 1024)).split(QLatin1Char('\n'));
    const int h = headerLineIndex(lines);
    if (h < 0)
        return false;
    for (int i = h + 1; i < lines.size(); ++i) {
        const QString row = cleanLine(lines[i]).trimmed();
        if (!row.isEmpty())
            return row.startsWith(QLatin1String("GPU0")) && (row.size() == 4 || !row[4].isDigit());
    }
    return false;
}

ImportResult importTopoMatrix(const QByteArray& text, const QString& location) {
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    const int headerAt = headerLineIndex(lines);
    if (headerAt < 0)
        return ImportResult::fail(
            QStringLiteral("no `nvidia-smi topo -m` header line (starting GPU0) found"));

    // Header: device columns, then the attribute columns this driver prints.
    QStringList attributes;
    QStringList columns = *headerLabels(deviceHeader(cleanLine(lines[headerAt]), &attributes));
    if (columns.removeDuplicates() > 0)
        return ImportResult::fail(
            QStringLiteral("line %1: the header names a device twice").arg(headerAt + 1));

    HostTopology host;
    host.source = {SourceFormat::NvidiaSmiTopo, location};
    std::map<QString, Device> byLabel;
    int nicIndex = 0;
    for (const QString& col : columns) {
        Device d;
        d.id = col;
        if (isGpuLabel(col)) {
            d.kind = DeviceKind::Gpu;
            d.cudaDevice = col.mid(3).toInt();
        } else {
            d.kind = DeviceKind::Nic;
            // Legacy drivers name the RDMA device in the header itself ("mlx4_0").
            if (!col.startsWith(QLatin1String("NIC"))) {
                d.name = col;
                d.id = QStringLiteral("NIC%1").arg(nicIndex);
            }
            ++nicIndex;
            d.rdma = true;
            d.rdmaEvidence = QStringLiteral("nvidia-smi topo -m lists RDMA devices only");
        }
        byLabel[col] = d;
    }

    // Rows: label, one path cell per column, then the attributes (GPU rows only).
    // Blank lines between rows (a paste that doubled its line breaks) are skipped.
    std::map<QString, QStringList> rows;
    int lineNo = headerAt + 1;
    for (; lineNo < lines.size() && rows.size() < size_t(columns.size()); ++lineNo) {
        const QString line = cleanLine(lines[lineNo]);
        const QStringList t = words(line);
        if (t.isEmpty())
            continue;
        if (t.first().startsWith(QLatin1String("Legend")))
            break;
        const auto cut = RowCutter(line, columns, int(columns.size())).cut();
        if (!cut) {
            const bool startsWithALabel = std::any_of(
                columns.begin(), columns.end(), [&](const QString& c) { return t.first().startsWith(c); });
            if (!startsWithALabel)
                return ImportResult::fail(
                    QStringLiteral("line %1: row '%2' is not one of the header's devices")
                        .arg(lineNo + 1)
                        .arg(t.first().left(40)));
            // A word where a cell belongs that is no run of path types at all is named.
            static const QRegularExpression paths(
                QStringLiteral("^(?:%1|NV\\d+)+$").arg(kPathWords.join(QLatin1Char('|'))));
            for (int c = 1; c < t.size() && c <= columns.size() && !t[c].front().isDigit(); ++c)
                if (!paths.match(t[c]).hasMatch())
                    return ImportResult::fail(
                        QStringLiteral("line %1: '%2' in row %3, column %4 is not a path type")
                            .arg(lineNo + 1)
                            .arg(t[c].left(20), t.first().left(40), columns[c - 1]));
            return ImportResult::fail(
                QStringLiteral("line %1: row %2 cannot be read as %3 path cells, as the "
                               "header's devices (truncated, or cells run together "
                               "ambiguously?)")
                    .arg(lineNo + 1)
                    .arg(t.first().left(40))
                    .arg(columns.size()));
        }
        const QString& label = cut->label;
        if (rows.count(label))
            return ImportResult::fail(
                QStringLiteral("line %1: row '%2' appears twice").arg(lineNo + 1).arg(label));
        const QStringList values = words(cut->rest);
        if (values.size() > attributes.size())
            return ImportResult::fail(
                QStringLiteral("line %1: row %2 has more cells than the header has columns")
                    .arg(lineNo + 1)
                    .arg(label));
        for (int c = 0; c < columns.size(); ++c) {
            int links = 0;
            const auto type = parsePathType(cut->cells[c], &links);
            if (!type)
                return ImportResult::fail(
                    QStringLiteral("line %1: '%2' in row %3, column %4 is not a path type")
                        .arg(lineNo + 1)
                        .arg(cut->cells[c].left(20), label, columns[c]));
            if ((*type == PathType::X) != (columns[c] == label))
                return ImportResult::fail(QStringLiteral("line %1: row %2, column %3 says %4")
                                              .arg(lineNo + 1)
                                              .arg(label, columns[c], cut->cells[c]));
            if (*type == PathType::X)
                continue;
            host.statedPaths[{byLabel[label].id, byLabel[columns[c]].id}] = {
                *type, *type == PathType::NV ? std::optional<int>(links) : std::nullopt};
        }
        readAttributes(attributes, values, byLabel[label], host.notes);
        rows[label] = cut->cells;
    }
    if (rows.size() != size_t(columns.size()))
        return ImportResult::fail(QStringLiteral("matrix has %1 rows for %2 devices (truncated?)")
                                      .arg(rows.size())
                                      .arg(columns.size()));

    // NIC legend: "  NIC3: mlx5_3", several on a line where a paste joined them.
    static const QRegularExpression legendRe(
        QStringLiteral("(NIC\\d+):\\s*([A-Za-z][\\w.:-]*?)(?=\\s|NIC\\d+:|$)"));
    for (; lineNo < lines.size(); ++lineNo)
        for (auto it = legendRe.globalMatch(cleanLine(lines[lineNo])); it.hasNext();) {
            const auto m = it.next();
            if (byLabel.count(m.captured(1)))
                byLabel[m.captured(1)].name = m.captured(2);
        }

    for (const QString& col : columns) {
        Device& d = byLabel[col];
        (d.kind == DeviceKind::Gpu ? host.gpus : host.nics).push_back(d);
    }
    host.nvlinkStated = true; // every GPU pair's cell says NV# or a PCIe path
    for (int i = 0; i < int(host.gpus.size()); ++i)
        for (int j = i + 1; j < int(host.gpus.size()); ++j) {
            const auto it = host.statedPaths.find({host.gpus[i].id, host.gpus[j].id});
            if (it != host.statedPaths.end() && it->second.first == PathType::NV)
                host.nvlinks[{i, j}] = *it->second.second;
        }
    for (const auto& [key, value] : host.statedPaths) {
        const auto back = host.statedPaths.find({key.second, key.first});
        if (key.first < key.second && back != host.statedPaths.end() && back->second != value)
            host.notes << QStringLiteral("the matrix is not symmetric: %1→%2 is %3 but %2→%1 is %4")
                              .arg(key.first, key.second, pathTypeName(value.first, value.second),
                                   pathTypeName(back->second.first, back->second.second));
    }
    return ImportResult::ok(std::move(host));
}

} // namespace rackscope
