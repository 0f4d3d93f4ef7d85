#include "finding.h"

#include <QCoreApplication>

namespace rackscope {

QString severityName(Severity s) {
    switch (s) {
    case Severity::Error:
        return QStringLiteral("error");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Info:
        return QStringLiteral("info");
    }
    return {};
}

QString severityText(Severity s) {
    switch (s) {
    case Severity::Error:
        return QCoreApplication::translate("rackscope", "error");
    case Severity::Warning:
        return QCoreApplication::translate("rackscope", "warning");
    case Severity::Info:
        return QCoreApplication::translate("rackscope", "info");
    }
    return {};
}

QString fillText(const QString& source, const QStringList& args) {
    QString out;
    out.reserve(source.size() + 16 * args.size());
    for (qsizetype i = 0; i < source.size(); ++i) {
        const QChar c = source[i];
        if (c == QLatin1Char('%') && i + 1 < source.size() && source[i + 1].isDigit()) {
            qsizetype end = i + 1;
            int n = 0;
            while (end < source.size() && end < i + 3 && source[end].isDigit())
                n = n * 10 + source[end++].digitValue();
            if (n >= 1 && n <= args.size()) {
                out += args[n - 1];
                i = end - 1;
                continue;
            }
        }
        out += c;
    }
    return out;
}

Finding makeFinding(Severity severity, const QString& code, QStringList subjects, FindingText text,
                    FindingTarget target) {
    Finding f{severity, code, std::move(subjects), {}, std::move(text), std::move(target)};
    f.message = fillText(QString::fromUtf8(f.text.source), f.text.args);
    return f;
}

QString findingText(const Finding& f) {
    if (f.text.source.isEmpty())
        return f.message;
    return fillText(QCoreApplication::translate("rackscope", f.text.source.constData()), f.text.args);
}

} // namespace rackscope
