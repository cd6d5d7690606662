#include "IgnoreRules.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>

namespace qcode {

namespace {

constexpr qint64 MaxIgnoreFileBytes = 4 * 1024 * 1024;

// The glob of one gitignore pattern as a regular expression over a path
// relative to the pattern's folder.
QString globToRegex(const QString &glob)
{
    QString out;
    out.reserve(glob.size() * 2);
    for (qsizetype i = 0; i < glob.size(); ++i) {
        const QChar c = glob.at(i);
        if (c == u'*' && i + 1 < glob.size() && glob.at(i + 1) == u'*') {
            const bool atStart = i == 0 || glob.at(i - 1) == u'/';
            const bool slashAfter = i + 2 < glob.size() && glob.at(i + 2) == u'/';
            const bool atEnd = i + 2 == glob.size();
            if (atStart && slashAfter) { // "**/": any folders, or none
                out += QLatin1String("(?:.*/)?");
                i += 2;
                continue;
            }
            if (atStart && atEnd) { // trailing "/**": everything inside
                out += QLatin1String(".*");
                i += 1;
                continue;
            }
            // "**" inside a name is two stars.
            out += QLatin1String("[^/]*");
            i += 1;
            continue;
        }
        if (c == u'*') {
            out += QLatin1String("[^/]*");
        } else if (c == u'?') {
            out += QLatin1String("[^/]");
        } else if (c == u'\\' && i + 1 < glob.size()) {
            out += QRegularExpression::escape(QString(glob.at(++i)));
        } else if (c == u'[') {
            const qsizetype close = glob.indexOf(u']', i + 2);
            if (close < 0) {
                out += QLatin1String("\\[");
                continue;
            }
            QString set = glob.mid(i + 1, close - i - 1);
            if (set.startsWith(u'!'))
                set[0] = u'^';
            set.replace(QLatin1String("\\"), QLatin1String("\\\\"));
            set.replace(QLatin1String("["), QLatin1String("\\["));
            out += u'[' + set + u']';
            i = close;
        } else {
            out += QRegularExpression::escape(QString(c));
        }
    }
    return out;
}

QList<QString> readLines(const QString &path)
{
    QFile file(path);
    if (file.size() > MaxIgnoreFileBytes || !file.open(QIODevice::ReadOnly))
        return {};
    QList<QString> lines;
    for (const QByteArray &line : file.readAll().split('\n'))
        lines.append(QString::fromUtf8(line));
    return lines;
}

bool hasGitEntry(const QString &directory)
{
    // A folder, or a file (a worktree or submodule points to its repository).
    return QFileInfo::exists(QDir(directory).filePath(QStringLiteral(".git")));
}

} // namespace

IgnoreRules::Pattern IgnoreRules::compile(const QString &rawLine)
{
    Pattern pattern;
    QString line = rawLine;
    if (line.endsWith(u'\r'))
        line.chop(1);
    // Trailing spaces go unless escaped.
    while (line.endsWith(u' ') && !line.endsWith(QLatin1String("\\ ")))
        line.chop(1);
    if (line.isEmpty() || line.startsWith(u'#'))
        return pattern;
    if (line.startsWith(u'!')) {
        pattern.negated = true;
        line.remove(0, 1);
    } else if (line.startsWith(QLatin1String("\\!")) || line.startsWith(QLatin1String("\\#"))) {
        line.remove(0, 1);
    }
    if (line.endsWith(u'/')) {
        pattern.directoryOnly = true;
        line.chop(1);
    }
    if (line.isEmpty())
        return pattern;
    const bool anchored = line.contains(u'/');
    if (line.startsWith(u'/'))
        line.remove(0, 1);
    const QString body = globToRegex(line);
    pattern.regex = QRegularExpression(u'^' + (anchored ? QString() : QStringLiteral("(?:.*/)?")) + body + u'$',
                                       QRegularExpression::DotMatchesEverythingOption);
    pattern.ok = pattern.regex.isValid();
    return pattern;
}

QString IgnoreRules::defaultGlobalIgnoreFile()
{
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const QString config = environment.value(QStringLiteral("XDG_CONFIG_HOME"));
    if (!config.isEmpty())
        return QDir(config).filePath(QStringLiteral("git/ignore"));
    return QDir(QDir::homePath()).filePath(QStringLiteral(".config/git/ignore"));
}

std::shared_ptr<const IgnoreRules::Level> IgnoreRules::readLevel(const QString &directory, bool inRepository)
{
    auto level = std::make_shared<Level>();
    level->base = QDir::cleanPath(directory) + u'/';
    QStringList names{QStringLiteral(".rgignore"), QStringLiteral(".ignore")};
    if (inRepository)
        names.append(QStringLiteral(".gitignore"));
    for (const QString &name : std::as_const(names)) {
        const QString path = level->base + name;
        if (!QFileInfo(path).isFile())
            continue;
        File file;
        for (const QString &line : readLines(path)) {
            Pattern pattern = compile(line);
            if (pattern.ok)
                file.patterns.append(std::move(pattern));
        }
        if (!file.patterns.isEmpty())
            level->files.append(std::move(file));
    }
    if (level->files.isEmpty())
        return nullptr;
    return level;
}

IgnoreRules IgnoreRules::forSearchRoot(const QString &root, const QString &globalIgnoreFile)
{
    IgnoreRules rules;
    // The folders from root up to the repository's top, if there is one.
    QStringList chain;
    QString repository;
    for (QDir dir(QDir::cleanPath(root));;) {
        chain.prepend(dir.absolutePath());
        if (hasGitEntry(dir.absolutePath())) {
            repository = dir.absolutePath();
            break;
        }
        if (!dir.cdUp())
            break;
    }
    rules.m_inRepository = !repository.isEmpty();
    if (!rules.m_inRepository)
        chain = {QDir::cleanPath(root)}; // outside git only root's own files count
    for (const QString &folder : std::as_const(chain)) {
        if (auto level = readLevel(folder, rules.m_inRepository))
            rules.m_levels.append(level);
    }
    if (!rules.m_inRepository)
        return rules;
    for (const QString &path : {QDir(repository).filePath(QStringLiteral(".git/info/exclude")), globalIgnoreFile}) {
        if (path.isEmpty() || !QFileInfo(path).isFile())
            continue;
        auto level = std::make_shared<Level>();
        level->base = repository + u'/';
        File file;
        for (const QString &line : readLines(path)) {
            Pattern pattern = compile(line);
            if (pattern.ok)
                file.patterns.append(std::move(pattern));
        }
        level->files.append(std::move(file));
        rules.m_repositoryWide.append(level);
    }
    return rules;
}

IgnoreRules IgnoreRules::enter(const QString &directory) const
{
    IgnoreRules inner = *this;
    // A repository inside the tree brings its .gitignore files into force.
    inner.m_inRepository = m_inRepository || hasGitEntry(directory);
    if (auto level = readLevel(directory, inner.m_inRepository))
        inner.m_levels.append(level);
    return inner;
}

IgnoreRules::Match IgnoreRules::matchFile(const File &file, const QString &relative, bool isDirectory)
{
    for (auto it = file.patterns.crbegin(); it != file.patterns.crend(); ++it) {
        if (it->directoryOnly && !isDirectory)
            continue;
        if (it->regex.match(relative).hasMatch())
            return it->negated ? Match::Include : Match::Ignore;
    }
    return Match::None;
}

bool IgnoreRules::isIgnored(const QString &absolutePath, bool isDirectory) const
{
    const auto decide = [&](const QList<std::shared_ptr<const Level>> &levels, bool deepestFirst) -> Match {
        for (qsizetype i = 0; i < levels.size(); ++i) {
            const Level &level = *levels.at(deepestFirst ? levels.size() - 1 - i : i);
            if (!absolutePath.startsWith(level.base))
                continue;
            const QString relative = absolutePath.mid(level.base.size());
            for (const File &file : level.files) {
                if (const Match match = matchFile(file, relative, isDirectory); match != Match::None)
                    return match;
            }
        }
        return Match::None;
    };
    Match match = decide(m_levels, true);
    if (match == Match::None)
        match = decide(m_repositoryWide, false);
    return match == Match::Ignore;
}

} // namespace qcode
