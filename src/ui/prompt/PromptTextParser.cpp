#include "PromptTextParser.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

bool startsToken(const QString &text, qsizetype at)
{
    if (at == 0)
        return true;
    const QChar before = text.at(at - 1);
    return !(before.isLetterOrNumber() || before == u'_' || before == u'`');
}

} // namespace

PromptTextParser::Parsed PromptTextParser::parse(const QString &text, const QSet<QString> &commands)
{
    const QString trimmed = text.trimmed();
    if (trimmed.startsWith(u'!'))
        return Parsed{Kind::Shell, QString(), trimmed.mid(1).trimmed()};
    if (trimmed.startsWith(u'/')) {
        qsizetype end = 1;
        while (end < trimmed.size() && !trimmed.at(end).isSpace())
            ++end;
        const QString name = trimmed.mid(1, end - 1);
        if (commands.contains(name))
            return Parsed{Kind::Command, name, trimmed.mid(end).trimmed()};
    }
    return Parsed{Kind::Prompt, QString(), trimmed};
}

QList<PromptTextParser::Token> PromptTextParser::mentions(const QString &text)
{
    // OpenCode's resolvePromptParts pattern.
    static const QRegularExpression pattern(u"(?<![\\w`])@(\\.?[^\\s`,.]*(?:\\.[^\\s`,.]+)*)"_s);
    QList<Token> out;
    for (auto it = pattern.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        if (match.capturedLength(1) > 0)
            out.append(Token{match.capturedStart(0), match.capturedEnd(0), match.captured(1)});
    }
    return out;
}

std::optional<PromptTextParser::Token> PromptTextParser::mentionAt(const QString &text, qsizetype cursor)
{
    if (cursor < 1 || cursor > text.size())
        return std::nullopt;
    for (qsizetype at = cursor - 1; at >= 0; --at) {
        const QChar c = text.at(at);
        if (c.isSpace())
            return std::nullopt;
        if (c == u'@') {
            if (!startsToken(text, at))
                return std::nullopt;
            return Token{at, cursor, text.mid(at + 1, cursor - at - 1)};
        }
    }
    return std::nullopt;
}

std::optional<PromptTextParser::Token> PromptTextParser::commandAt(const QString &text, qsizetype cursor)
{
    if (!text.startsWith(u'/') || cursor < 1 || cursor > text.size())
        return std::nullopt;
    for (qsizetype at = 1; at < cursor; ++at)
        if (text.at(at).isSpace())
            return std::nullopt;
    return Token{0, cursor, text.mid(1, cursor - 1)};
}

} // namespace qcode
