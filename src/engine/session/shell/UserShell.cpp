#include "UserShell.h"

#include <QFileInfo>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// "zsh" for /usr/bin/zsh, "pwsh" for C:\…\pwsh.exe.
QString shellName(const QString &shell)
{
    QString name = QFileInfo(shell).fileName().toLower();
    if (name.endsWith(u".exe"_s))
        name.chop(4);
    return name;
}

} // namespace

QString UserShell::preferred(const QProcessEnvironment &environment)
{
    const QString configured = environment.value(u"SHELL"_s);
    if (!configured.isEmpty() && QFileInfo(configured).isExecutable())
        return configured;
    const QString bash = QStandardPaths::findExecutable(u"bash"_s);
    return bash.isEmpty() ? u"/bin/sh"_s : bash;
}

QString UserShell::quoted(const QString &text)
{
    QString out = text;
    out.replace(u'\'', u"'\\''"_s);
    return u'\'' + out + u'\'';
}

QStringList UserShell::arguments(const QString &shell, const QString &command, Mode mode)
{
    const QString name = shellName(shell);
    if (name == u"cmd"_s)
        return {u"/c"_s, command};
    if (name == u"powershell"_s || name == u"pwsh"_s)
        return {u"-NoProfile"_s, u"-Command"_s, command};
    if (mode == Mode::Plain || (name != u"zsh"_s && name != u"bash"_s))
        return {u"-c"_s, command};
    // The startup files may print or fail; neither may reach the output or
    // stop the command. Aliases are expanded in bash only when asked.
    const QStringList script =
        name == u"zsh"_s
            ? QStringList{u"[[ -f ~/.zshenv ]] && source ~/.zshenv >/dev/null 2>&1 || true"_s,
                          u"[[ -f \"${ZDOTDIR:-$HOME}/.zshrc\" ]] && source \"${ZDOTDIR:-$HOME}/.zshrc\" >/dev/null 2>&1 || true"_s,
                          u"eval "_s + quoted(command)}
            : QStringList{u"shopt -s expand_aliases"_s,
                          u"[[ -f ~/.bashrc ]] && source ~/.bashrc >/dev/null 2>&1 || true"_s,
                          u"eval "_s + quoted(command)};
    return {u"-l"_s, u"-c"_s, script.join(u'\n')};
}

} // namespace qcode
