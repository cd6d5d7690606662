#include "CommandTemplate.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QRegularExpression &argumentPattern()
{
    static const QRegularExpression pattern(uR"re(\[Image\s+\d+\]|"[^"]*"|'[^']*'|[^\s"']+)re"_s,
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

const QRegularExpression &placeholderPattern()
{
    static const QRegularExpression pattern(uR"re(\$(\d+))re"_s);
    return pattern;
}

const QRegularExpression &shellPattern()
{
    static const QRegularExpression pattern(uR"re(!`([^`]+)`)re"_s);
    return pattern;
}

const QRegularExpression &referencePattern()
{
    static const QRegularExpression pattern(uR"re((?<![\w`])@(\.?[^\s`,.]*(?:\.[^\s`,.]+)*))re"_s);
    return pattern;
}

// One quote at either end goes, as OpenCode's /^["']|["']$/g takes it.
QString stripQuotes(QString token)
{
    if (!token.isEmpty() && (token.front() == u'"' || token.front() == u'\''))
        token.remove(0, 1);
    if (!token.isEmpty() && (token.back() == u'"' || token.back() == u'\''))
        token.chop(1);
    return token;
}

} // namespace

QStringList CommandTemplate::splitArguments(const QString &arguments)
{
    QStringList tokens;
    for (const QRegularExpressionMatch &match : argumentPattern().globalMatch(arguments))
        tokens.append(stripQuotes(match.captured(0)));
    return tokens;
}

QString CommandTemplate::expand(const QString &templateText, const QString &arguments)
{
    const QStringList tokens = splitArguments(arguments);
    int last = 0;
    bool hasPlaceholder = false;
    for (const QRegularExpressionMatch &match : placeholderPattern().globalMatch(templateText)) {
        hasPlaceholder = true;
        last = std::max(last, match.captured(1).toInt());
    }

    QString expanded;
    qsizetype from = 0;
    for (const QRegularExpressionMatch &match : placeholderPattern().globalMatch(templateText)) {
        expanded += QStringView(templateText).mid(from, match.capturedStart() - from);
        from = match.capturedEnd();
        const int position = match.captured(1).toInt();
        const qsizetype index = position - 1;
        if (index < 0 || index >= tokens.size())
            continue;
        expanded += position == last ? tokens.mid(index).join(u' ') : tokens.at(index);
    }
    expanded += QStringView(templateText).mid(from);

    const bool usesArguments = templateText.contains(u"$ARGUMENTS"_s);
    expanded.replace(u"$ARGUMENTS"_s, arguments);
    if (!hasPlaceholder && !usesArguments && !arguments.trimmed().isEmpty())
        expanded += u"\n\n"_s + arguments;
    return expanded;
}

QStringList CommandTemplate::shellCommands(const QString &text)
{
    QStringList commands;
    for (const QRegularExpressionMatch &match : shellPattern().globalMatch(text))
        commands.append(match.captured(1));
    return commands;
}

QString CommandTemplate::replaceShellCommands(const QString &text, const QStringList &outputs)
{
    QString replaced;
    qsizetype from = 0;
    qsizetype index = 0;
    for (const QRegularExpressionMatch &match : shellPattern().globalMatch(text)) {
        replaced += QStringView(text).mid(from, match.capturedStart() - from);
        replaced += outputs.value(index++);
        from = match.capturedEnd();
    }
    replaced += QStringView(text).mid(from);
    return replaced;
}

QStringList CommandTemplate::references(const QString &text)
{
    QStringList names;
    for (const QRegularExpressionMatch &match : referencePattern().globalMatch(text)) {
        const QString name = match.captured(1);
        if (!name.isEmpty() && !names.contains(name))
            names.append(name);
    }
    return names;
}

} // namespace qcode
