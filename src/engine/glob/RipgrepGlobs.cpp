#include "RipgrepGlobs.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString translateGlob(const QString &glob)
{
    QString out;
    const qsizetype n = glob.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = glob.at(i);
        if (c == u'*') {
            qsizetype j = i;
            while (j < n && glob.at(j) == u'*')
                ++j;
            const bool doubled = j - i >= 2;
            const bool atStart = i == 0 || glob.at(i - 1) == u'/';
            if (doubled && atStart && j == n) {
                out += ".*"_L1;
            } else if (doubled && atStart && glob.at(j) == u'/') {
                out += "(?:[^/]*/)*"_L1;
                ++j; // the "/" is part of "**/"
            } else {
                out += "[^/]*"_L1;
            }
            i = j - 1;
        } else if (c == u'?') {
            out += "[^/]"_L1;
        } else if (c == u'[') {
            qsizetype j = i + 1;
            if (j < n && (glob.at(j) == u'!' || glob.at(j) == u'^'))
                ++j;
            if (j < n && glob.at(j) == u']')
                ++j;
            while (j < n && glob.at(j) != u']')
                ++j;
            if (j >= n) {
                out += "\\["_L1;
                continue;
            }
            QString body = glob.mid(i + 1, j - i - 1);
            if (body.startsWith(u'!'))
                body[0] = u'^';
            body.replace(u"\\"_s, u"\\\\"_s);
            out += u'[' + body + u']';
            i = j;
        } else if (c == u'{') {
            const qsizetype close = glob.indexOf(u'}', i);
            if (close < 0) {
                out += "\\{"_L1;
                continue;
            }
            QStringList alternatives;
            for (const QString &alternative : glob.mid(i + 1, close - i - 1).split(u','))
                alternatives.append(translateGlob(alternative));
            out += "(?:"_L1 + alternatives.join(u'|') + u')';
            i = close;
        } else if (c == u'\\' && i + 1 < n) {
            out += QRegularExpression::escape(glob.at(++i));
        } else {
            out += QRegularExpression::escape(c);
        }
    }
    return out;
}

} // namespace

RipgrepGlobs::RipgrepGlobs(const QStringList &globs)
{
    for (QString glob : globs) {
        if (glob.isEmpty())
            continue;
        const bool negated = glob.startsWith(u'!');
        if (negated)
            glob.remove(0, 1);
        if (glob.endsWith(u'/'))
            glob.chop(1);
        Compiled compiled;
        compiled.nameOnly = !glob.contains(u'/');
        if (glob.startsWith(u'/'))
            glob.remove(0, 1);
        compiled.expression.setPattern(QRegularExpression::anchoredPattern(translateGlob(glob)));
        (negated ? m_excluded : m_included).append(compiled);
    }
}

RipgrepGlobs::Verdict RipgrepGlobs::verdict(const QString &relativePath, bool isDirectory) const
{
    if (excluded(relativePath))
        return Verdict::Drop;
    if (std::any_of(m_included.begin(), m_included.end(),
                    [&](const Compiled &glob) { return glob.matches(relativePath); }))
        return Verdict::Keep;
    return m_included.isEmpty() || isDirectory ? Verdict::AskIgnoreFiles : Verdict::Drop;
}

bool RipgrepGlobs::keepsFile(const QString &relativePath) const
{
    if (excluded(relativePath))
        return false;
    return m_included.isEmpty()
           || std::any_of(m_included.begin(), m_included.end(),
                          [&](const Compiled &glob) { return glob.matches(relativePath); });
}

bool RipgrepGlobs::excluded(const QString &relativePath) const
{
    return std::any_of(m_excluded.begin(), m_excluded.end(),
                       [&](const Compiled &glob) { return glob.matches(relativePath); });
}

bool RipgrepGlobs::Compiled::matches(const QString &relativePath) const
{
    const QString subject = nameOnly ? relativePath.section(u'/', -1) : relativePath;
    return expression.match(subject).hasMatch();
}

} // namespace qcode
