#pragma once

#include <QString>
#include <QStringList>

namespace qcode {

// The text rules of a slash command's template, as OpenCode's
// SessionPrompt.command applies them (reference §2.10). Pure functions; the
// !`cmd` segments are run by TemplateShell.
class CommandTemplate
{
public:
    // The person's arguments as tokens: "[Image N]", a "double-quoted" or a
    // 'single-quoted' string (quotes stripped) or a run of other
    // non-blank characters is one token each.
    static QStringList splitArguments(const QString &arguments);

    // $1…$N take the tokens in order ("" when there are fewer); the
    // highest-numbered placeholder takes every token from its position on,
    // joined by spaces. $ARGUMENTS takes the arguments as typed. A template
    // with neither gets the arguments appended after a blank line (when
    // there are any).
    static QString expand(const QString &templateText, const QString &arguments);

    // The commands of the !`cmd` segments of `text`, in order.
    static QStringList shellCommands(const QString &text);
    // `text` with its !`cmd` segments replaced, in order, by `outputs`.
    static QString replaceShellCommands(const QString &text, const QStringList &outputs);

    // The @references of `text` (OpenCode's ConfigMarkdown.files): "@path",
    // "@./path", "@~/path" or "@agent", not preceded by a word character
    // or a backquote; each once, in order.
    static QStringList references(const QString &text);
};

} // namespace qcode
