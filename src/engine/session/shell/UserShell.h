#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace qcode {

// The person's own shell, for the commands they type themselves (`!cmd`,
// reference §2.9) and the !`cmd` segments of their slash commands. Unlike
// the model's bash tool (BashTool::shell) it keeps fish and nu: the person
// writes in the syntax of the shell they use.
class UserShell
{
public:
    enum class Mode {
        // As typed at the person's prompt: zsh and bash as login shells that
        // read the interactive startup file (so aliases and PATH additions
        // apply), then eval the command.
        Interactive,
        // Just `-c command` (or the shell's equivalent).
        Plain,
    };

    // $SHELL when it names an executable, else bash, else /bin/sh.
    static QString preferred(const QProcessEnvironment &environment);

    // The arguments that make `shell` run `command`: zsh and bash (in
    // Interactive mode) `-l -c` with a script that sources ~/.zshenv and
    // ~/.zshrc (or ~/.bashrc) and evals the command; fish and nu `-c`; cmd
    // `/c`; PowerShell `-NoProfile -Command`; any other shell `-c`.
    static QStringList arguments(const QString &shell, const QString &command, Mode mode = Mode::Interactive);

    // `text` as one single-quoted POSIX shell word.
    static QString quoted(const QString &text);
};

} // namespace qcode
