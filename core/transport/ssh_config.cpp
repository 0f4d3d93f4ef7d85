#include "ssh_config.h"

#include "import/input_file.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <set>

namespace rackscope {
namespace {

QString localUser() {
    const QString u = qEnvironmentVariable("USER");
    return u.isEmpty() ? qEnvironmentVariable("LOGNAME") : u;
}

// "a b" "c" -> words, honouring double quotes as ssh does.
QStringList words(const QString& text) {
    QStringList out;
    QString cur;
    bool quoted = false, any = false;
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) {
            quoted = !quoted;
            any = true;
            continue;
        }
        if (!quoted && c.isSpace()) {
            if (any)
                out << cur;
            cur.clear();
            any = false;
            continue;
        }
        cur += c;
        any = true;
    }
    if (any)
        out << cur;
    return out;
}

// ssh's patterns: '*' any run, '?' one character, case-insensitive.
bool glob(const QString& pattern, const QString& text) {
    qsizetype p = 0, t = 0, star = -1, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() &&
            (pattern[p] == QLatin1Char('?') || pattern[p].toLower() == text[t].toLower())) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == QLatin1Char('*')) {
            star = p++;
            mark = t;
        } else if (star >= 0) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == QLatin1Char('*'))
        ++p;
    return p == pattern.size();
}

QString expandTokens(QString s, const SshTarget& t) {
    if (s.startsWith(QLatin1String("~/")))
        s = QDir::homePath() + s.mid(1);
    s.replace(QLatin1String("%h"), t.hostName);
    s.replace(QLatin1String("%r"), t.user.isEmpty() ? localUser() : t.user);
    s.replace(QLatin1String("%u"), localUser());
    s.replace(QLatin1String("%p"), QString::number(t.port));
    s.replace(QLatin1String("%d"), QDir::homePath());
    s.replace(QLatin1String("%%"), QLatin1String("%"));
    return s;
}

} // namespace

bool SshConfig::addJumpForAll(const QString& jump) {
    SshJump j;
    if (!parseJump(jump, &j))
        return false;
    entries_.push_back({{QStringLiteral("*"), QStringLiteral("!") + j.host},
                        QStringLiteral("proxyjump"),
                        jump.trimmed(),
                        false});
    return true;
}

bool sshPatternMatches(const QStringList& patterns, const QString& host) {
    bool matched = false;
    for (const QString& p : patterns) {
        if (p.startsWith(QLatin1Char('!'))) {
            if (glob(p.mid(1), host))
                return false; // a negated match rules the block out
        } else if (glob(p, host)) {
            matched = true;
        }
    }
    return matched;
}

SshConfig SshConfig::fromFile(const QString& path) {
    SshConfig c;
    QByteArray text; // bounded, and never waiting on a FIFO
    if (path.isEmpty() || !readBoundedFile(path, 1 << 20, &text, 5000).isEmpty())
        return c;
    c.read(QString::fromUtf8(text), QFileInfo(path).absolutePath(), 0);
    return c;
}

SshConfig SshConfig::fromText(const QString& text, const QString& includeDir) {
    SshConfig c;
    c.read(text, includeDir, 0);
    return c;
}

void SshConfig::read(const QString& text, const QString& includeDir, int depth) {
    QStringList patterns{QStringLiteral("*")};
    bool skip = false;
    for (const QString& raw : text.split(QLatin1Char('\n'))) {
        QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype cut = line.indexOf(QRegularExpression(QStringLiteral("[\\s=]")));
        QString keyword = (cut < 0 ? line : line.left(cut)).toLower();
        QString rest = cut < 0 ? QString() : line.mid(cut).trimmed();
        if (rest.startsWith(QLatin1Char('=')))
            rest = rest.mid(1).trimmed();
        const QStringList args = words(rest);
        if (keyword == QLatin1String("host")) {
            patterns = args;
            skip = false;
        } else if (keyword == QLatin1String("match")) {
            skip = !(args.size() == 1 && args[0].compare(QLatin1String("all"), Qt::CaseInsensitive) == 0);
            patterns = {QStringLiteral("*")};
            if (skip)
                notes_ << QStringLiteral("Match %1: not followed by rackscope").arg(rest);
        } else if (keyword == QLatin1String("include")) {
            if (depth >= 8) {
                notes_ << QStringLiteral("Include nested too deeply: %1").arg(rest);
                continue;
            }
            for (QString pattern : args) {
                if (pattern.startsWith(QLatin1String("~/")))
                    pattern = QDir::homePath() + pattern.mid(1);
                if (!QDir::isAbsolutePath(pattern))
                    pattern = includeDir + QLatin1Char('/') + pattern;
                const QFileInfo fi(pattern);
                const QStringList files =
                    QDir(fi.absolutePath()).entryList({fi.fileName()}, QDir::Files, QDir::Name);
                for (const QString& name : files) {
                    QFile f(fi.absolutePath() + QLatin1Char('/') + name);
                    if (!f.open(QIODevice::ReadOnly))
                        continue;
                    // An included file's Host blocks end with it; the includer's block goes on after.
                    SshConfig inner;
                    inner.read(QString::fromUtf8(f.read(1 << 20)), includeDir, depth + 1);
                    for (Entry e : inner.entries_) {
                        if (e.patterns == QStringList{QStringLiteral("*")})
                            e.patterns = patterns;
                        e.skip = e.skip || skip;
                        entries_.push_back(e);
                    }
                    notes_ += inner.notes_;
                }
            }
        } else if (!args.isEmpty()) {
            entries_.push_back({patterns, keyword, args.join(QLatin1Char(' ')), skip});
        }
    }
}

bool SshConfig::parseJump(const QString& text, SshJump* out) {
    static const QRegularExpression re(
        QStringLiteral("^(?:ssh://)?(?:([^@\\s]+)@)?(\\[[^\\]]+\\]|[^:@\\s]+)(?::(\\d{1,5}))?$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return false;
    out->user = m.captured(1);
    out->host = m.captured(2);
    if (out->host.startsWith(QLatin1Char('[')))
        out->host = out->host.mid(1, out->host.size() - 2);
    out->port = m.captured(3).isEmpty() ? 0 : m.captured(3).toInt();
    return out->port >= 0 && out->port <= 65535;
}

SshTarget SshConfig::resolve(const QString& alias) const {
    return resolveDirect(alias, true);
}

SshTarget SshConfig::resolveDirect(const QString& alias, bool withJumps) const {
    SshTarget t;
    t.alias = alias;
    t.notes = notes_;
    std::set<QString> set;
    QString hostName, port, jump;
    for (const Entry& e : entries_) {
        if (e.skip || !sshPatternMatches(e.patterns, alias))
            continue;
        auto first = [&](QString& slot) {
            if (!set.count(e.keyword))
                slot = e.value;
            set.insert(e.keyword);
        };
        if (e.keyword == QLatin1String("hostname"))
            first(hostName);
        else if (e.keyword == QLatin1String("user"))
            first(t.user);
        else if (e.keyword == QLatin1String("port"))
            first(port);
        else if (e.keyword == QLatin1String("proxyjump"))
            first(jump);
        else if (e.keyword == QLatin1String("userknownhostsfile"))
            first(t.userKnownHostsFile);
        else if (e.keyword == QLatin1String("connecttimeout")) {
            QString v;
            first(v);
            if (!v.isEmpty())
                t.connectTimeoutS = v.toInt();
        } else if (e.keyword == QLatin1String("identityfile"))
            t.identityFiles << e.value;
        else if (e.keyword == QLatin1String("proxycommand") && !set.count(e.keyword)) {
            set.insert(e.keyword);
            if (e.value.compare(QLatin1String("none"), Qt::CaseInsensitive) != 0)
                t.notes << QStringLiteral("ProxyCommand for %1: not followed by rackscope (use ProxyJump)")
                               .arg(alias);
        }
    }
    t.hostName = hostName.isEmpty() ? alias
                                    : QString(hostName)
                                          .replace(QLatin1String("%h"), alias)
                                          .replace(QLatin1String("%%"), QLatin1String("%"));
    if (!port.isEmpty())
        t.port = port.toInt();
    if (withJumps && !jump.isEmpty() && jump.compare(QLatin1String("none"), Qt::CaseInsensitive) != 0)
        for (const QString& hop : jump.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            SshJump j;
            if (parseJump(hop, &j)) {
                const SshTarget via = resolveDirect(j.host);
                j.address = via.hostName;
                j.addressPort = j.port > 0 ? j.port : via.port;
                if (j.user.isEmpty())
                    j.user = via.user;
                j.identityFiles = via.identityFiles;
                t.proxyJump.push_back(j);
            } else
                t.notes << QStringLiteral("ProxyJump '%1' is not [user@]host[:port]").arg(hop);
        }
    for (QString& f : t.identityFiles)
        f = expandTokens(f, t);
    if (!t.userKnownHostsFile.isEmpty())
        t.userKnownHostsFile = expandTokens(t.userKnownHostsFile.section(QLatin1Char(' '), 0, 0), t);
    return t;
}

} // namespace rackscope
