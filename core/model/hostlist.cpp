#include "hostlist.h"

#include <QRegularExpression>
#include <QSet>
#include <algorithm>

namespace rackscope {
namespace {

// Splits at commas outside brackets.
QStringList topLevelItems(const QString& text, QString* error) {
    QStringList items;
    int depth = 0, start = 0;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('[')) {
            if (++depth > 1) {
                *error = QStringLiteral("nested '[' at position %1").arg(i + 1);
                return {};
            }
        } else if (c == QLatin1Char(']')) {
            if (--depth < 0) {
                *error = QStringLiteral("']' without '[' at position %1").arg(i + 1);
                return {};
            }
        } else if (c == QLatin1Char(',') && depth == 0) {
            items << text.mid(start, i - start);
            start = i + 1;
        }
    }
    if (depth != 0) {
        *error = QStringLiteral("'[' without ']'");
        return {};
    }
    items << text.mid(start);
    return items;
}

// "001-003,7" -> {"001","002","003","7"}
QStringList expandRange(const QString& inside, QString* error) {
    QStringList out;
    static const QRegularExpression part(QStringLiteral("^(\\d+)(?:-(\\d+))?$"));
    for (const QString& p : inside.split(QLatin1Char(','))) {
        const auto m = part.match(p.trimmed());
        if (!m.hasMatch()) {
            *error = QStringLiteral("'%1' is not a number or a range").arg(p.left(40));
            return {};
        }
        bool ok1 = false, ok2 = true;
        const qlonglong lo = m.captured(1).toLongLong(&ok1);
        const qlonglong hi = m.captured(2).isEmpty() ? lo : m.captured(2).toLongLong(&ok2);
        if (!ok1 || !ok2 || hi < lo) {
            *error = QStringLiteral("range '%1' runs backwards or overflows").arg(p.left(40));
            return {};
        }
        if (hi - lo >= kMaxHostlistHosts) {
            *error = QStringLiteral("range '%1' is too large").arg(p.left(40));
            return {};
        }
        const int width = int(m.captured(1).size());
        for (qlonglong v = lo; v <= hi; ++v)
            out << QStringLiteral("%1").arg(v, width, 10, QLatin1Char('0'));
    }
    return out;
}

} // namespace

QString hostNameProblem(const QString& name) {
    // Letters, digits, '-', '.', '_'; ':' and '%' for IPv6 addresses and their zone. Never a leading
    // '-': ssh and mpirun would read the name as an option ("-Fevil", "-oProxyCommand=...").
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9_:][A-Za-z0-9._:%-]*$"));
    if (name.size() > 253)
        return QStringLiteral("'%1...' is longer than a host name can be").arg(name.left(40));
    if (!valid.match(name).hasMatch())
        return name.startsWith(QLatin1Char('-'))
                   ? QStringLiteral("'%1' begins with '-': a host name never does").arg(name.left(40))
                   : QStringLiteral("'%1' has characters no host name has").arg(name.left(40));
    return {};
}

HostlistResult expandHostlist(const QString& text) {
    HostlistResult r;
    QString error;
    const QStringList items = topLevelItems(text.trimmed(), &error);
    if (!error.isEmpty())
        return {{}, error};
    static const QRegularExpression bracket(QStringLiteral("\\[([^\\]]*)\\]"));
    for (const QString& item : items) {
        if (item.trimmed().isEmpty())
            return {{}, QStringLiteral("an empty name in the list")};
        QStringList names{QString()};
        int at = 0;
        for (auto it = bracket.globalMatch(item); it.hasNext();) {
            const auto m = it.next();
            const QString literal = item.mid(at, m.capturedStart() - at);
            const QStringList values = expandRange(m.captured(1), &error);
            if (!error.isEmpty())
                return {{}, error};
            if (qlonglong(names.size()) * values.size() > kMaxHostlistHosts)
                return {{}, QStringLiteral("expands to more than %1 hosts").arg(kMaxHostlistHosts)};
            QStringList next;
            for (const QString& n : names)
                for (const QString& v : values)
                    next << n + literal + v;
            names = next;
            at = int(m.capturedEnd());
        }
        for (QString& n : names) {
            n += item.mid(at);
            if (const QString why = hostNameProblem(n); !why.isEmpty())
                return {{}, why};
        }
        r.hosts << names;
        if (r.hosts.size() > kMaxHostlistHosts)
            return {{}, QStringLiteral("expands to more than %1 hosts").arg(kMaxHostlistHosts)};
    }
    return r;
}

HostlistResult parseHostsFile(const QString& text) {
    HostlistResult out;
    QSet<QString> seen;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].section(QLatin1Char('#'), 0, 0);
        for (const QString& word :
             line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
            const HostlistResult r = expandHostlist(word);
            if (!r.error.isEmpty())
                return {{}, QStringLiteral("line %1: %2").arg(i + 1).arg(r.error)};
            for (const QString& h : r.hosts)
                if (!seen.contains(h)) {
                    if (out.hosts.size() >= kMaxHostlistHosts)
                        return {
                            {},
                            QStringLiteral("line %1: more than %2 hosts").arg(i + 1).arg(kMaxHostlistHosts)};
                    seen.insert(h);
                    out.hosts << h;
                }
        }
    }
    return out;
}

QString compressHostlist(const QStringList& hosts) {
    static const QRegularExpression tail(QStringLiteral("^(.*?)(\\d+)$"));
    auto padded = [](const QString& digits) { return digits.size() > 1 && digits[0] == QLatin1Char('0'); };
    // Two numbers can share a range when a range's lower bound formats both:
    // the same width, or neither zero-padded ("9-10", "08-10").
    auto sameStyle = [&](const QString& x, const QString& y) {
        return x.size() == y.size() || (!padded(x) && !padded(y));
    };
    QStringList parts;
    for (int i = 0; i < hosts.size();) {
        const auto m = tail.match(hosts[i]);
        if (!m.hasMatch()) {
            parts << hosts[i++];
            continue;
        }
        const QString prefix = m.captured(1);
        QStringList digits; // the run of names with this prefix, in order
        int j = i;
        for (; j < hosts.size(); ++j) {
            const auto n = tail.match(hosts[j]);
            if (!n.hasMatch() || n.captured(1) != prefix)
                break;
            digits << n.captured(2);
        }
        if (digits.size() == 1) {
            parts << hosts[i];
            i = j;
            continue;
        }
        QStringList ranges;
        for (int k = 0; k < digits.size();) {
            int e = k;
            while (e + 1 < digits.size() && digits[e + 1].toLongLong() == digits[e].toLongLong() + 1 &&
                   sameStyle(digits[k], digits[e + 1]))
                ++e;
            ranges << (e == k ? digits[k] : digits[k] + QLatin1Char('-') + digits[e]);
            k = e + 1;
        }
        parts << prefix + QLatin1Char('[') + ranges.join(QLatin1Char(',')) + QLatin1Char(']');
        i = j;
    }
    return parts.join(QLatin1Char(','));
}

void sortHostsNaturally(QStringList& hosts) {
    static const QRegularExpression tail(QStringLiteral("^(.*?)(\\d*)$"));
    std::stable_sort(hosts.begin(), hosts.end(), [](const QString& a, const QString& b) {
        const auto ma = tail.match(a), mb = tail.match(b);
        if (ma.captured(1) != mb.captured(1))
            return ma.captured(1) < mb.captured(1);
        const qlonglong na = ma.captured(2).toLongLong(), nb = mb.captured(2).toLongLong();
        return na != nb ? na < nb : ma.captured(2).size() < mb.captured(2).size();
    });
}

} // namespace rackscope
