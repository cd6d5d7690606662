#include "Wildcard.h"

#include <QHash>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace qcode::Wildcard {

namespace {

QRegularExpression compile(const QString &pattern)
{
    QString normalized = pattern;
    normalized.replace(QLatin1Char('\\'), QLatin1Char('/'));
    const bool orBarePrefix = normalized.endsWith(" *"_L1);
    if (orBarePrefix)
        normalized.chop(2);
    QString regex;
    regex.reserve(normalized.size() * 2);
    for (const QChar c : std::as_const(normalized)) {
        if (c == QLatin1Char('*'))
            regex += ".*"_L1;
        else if (c == QLatin1Char('?'))
            regex += QLatin1Char('.');
        else
            regex += QRegularExpression::escape(QString(c));
    }
    if (orBarePrefix)
        regex += "( .*)?"_L1;
    return QRegularExpression(u"\\A(?:"_s + regex + u")\\z"_s, QRegularExpression::DotMatchesEverythingOption);
}

} // namespace

bool match(const QString &text, const QString &pattern)
{
    // Rulesets are evaluated for every tool call against the same few dozen
    // patterns; compiling each once per thread keeps that cheap.
    thread_local QHash<QString, QRegularExpression> cache;
    auto it = cache.constFind(pattern);
    if (it == cache.constEnd()) {
        if (cache.size() > 1024)
            cache.clear();
        it = cache.insert(pattern, compile(pattern));
    }
    QString normalized = text;
    normalized.replace(QLatin1Char('\\'), QLatin1Char('/'));
    return it->match(normalized).hasMatch();
}

} // namespace qcode::Wildcard
