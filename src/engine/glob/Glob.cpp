#include "Glob.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

using namespace Qt::StringLiterals;

namespace qcode::Glob {

bool hasWildcard(const QString &pattern)
{
    for (const QChar c : pattern) {
        if (c == QLatin1Char('*') || c == QLatin1Char('?') || c == QLatin1Char('[') || c == QLatin1Char('{'))
            return true;
    }
    return false;
}

QRegularExpression segmentExpression(const QString &segment)
{
    QString regex;
    int braces = 0;
    for (qsizetype i = 0; i < segment.size(); ++i) {
        const QChar c = segment.at(i);
        if (c == QLatin1Char('*')) {
            regex += "[^/]*"_L1;
        } else if (c == QLatin1Char('?')) {
            regex += "[^/]"_L1;
        } else if (c == QLatin1Char('[')) {
            const qsizetype close = segment.indexOf(QLatin1Char(']'), i + 2);
            if (close < 0) {
                regex += "\\["_L1;
                continue;
            }
            QString set = segment.mid(i + 1, close - i - 1);
            if (set.startsWith(QLatin1Char('!')))
                set[0] = QLatin1Char('^');
            set.replace(QLatin1Char('\\'), "\\\\"_L1);
            regex += QLatin1Char('[') + set + QLatin1Char(']');
            i = close;
        } else if (c == QLatin1Char('{')) {
            ++braces;
            regex += "(?:"_L1;
        } else if (c == QLatin1Char('}') && braces > 0) {
            --braces;
            regex += QLatin1Char(')');
        } else if (c == QLatin1Char(',') && braces > 0) {
            regex += QLatin1Char('|');
        } else {
            regex += QRegularExpression::escape(QString(c));
        }
    }
    while (braces-- > 0)
        regex += QLatin1Char(')');
    return QRegularExpression(u"\\A(?:"_s + regex + u")\\z"_s);
}

namespace {

class Walker
{
public:
    Walker(QStringList segments, int maxDirectories) : m_segments(std::move(segments)), m_budget(maxDirectories) {}

    void walk(const QString &dir, qsizetype index)
    {
        if (index >= m_segments.size() || m_budget <= 0)
            return;
        const QString &segment = m_segments.at(index);
        const bool last = index == m_segments.size() - 1;
        if (segment == "**"_L1) {
            walk(dir, index + 1); // zero folders
            for (const QFileInfo &sub : entries(dir, QDir::Dirs, false)) {
                // A symlinked folder could lead back up the tree.
                if (!sub.isSymLink())
                    walk(sub.filePath(), index);
            }
            return;
        }
        if (!hasWildcard(segment)) {
            const QFileInfo info(QDir(dir).filePath(segment));
            if (last && info.isFile())
                m_found.insert(QDir::cleanPath(info.absoluteFilePath()));
            else if (!last && info.isDir())
                walk(info.filePath(), index + 1);
            return;
        }
        const QRegularExpression expression = segmentExpression(segment);
        const bool hidden = segment.startsWith(QLatin1Char('.'));
        for (const QFileInfo &entry : entries(dir, last ? QDir::Files : QDir::Dirs, hidden)) {
            if (!expression.match(entry.fileName()).hasMatch())
                continue;
            if (last)
                m_found.insert(QDir::cleanPath(entry.absoluteFilePath()));
            else
                walk(entry.filePath(), index + 1);
        }
    }

    QStringList found() const
    {
        QStringList out(m_found.cbegin(), m_found.cend());
        out.sort();
        return out;
    }

private:
    QFileInfoList entries(const QString &dir, QDir::Filters kind, bool hidden)
    {
        --m_budget;
        QDir::Filters filters = kind | QDir::NoDotAndDotDot | QDir::Readable;
        if (hidden)
            filters |= QDir::Hidden;
        QFileInfoList list = QDir(dir).entryInfoList(filters, QDir::Name);
        if (!hidden) {
            // QDir::Hidden is off, but on Windows dot-names are not hidden.
            list.removeIf([](const QFileInfo &i) { return i.fileName().startsWith(QLatin1Char('.')); });
        }
        return list;
    }

    QStringList m_segments;
    int m_budget;
    QSet<QString> m_found;
};

} // namespace

QStringList findFiles(const QString &root, const QString &pattern, int maxDirectories)
{
    QString normalized = pattern;
    normalized.replace(QLatin1Char('\\'), QLatin1Char('/'));
    QStringList segments = normalized.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    segments.removeAll(u"."_s);
    if (segments.isEmpty())
        return {};
    Walker walker(segments, maxDirectories);
    walker.walk(root, 0);
    return walker.found();
}

} // namespace qcode::Glob
