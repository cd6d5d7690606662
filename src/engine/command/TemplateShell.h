#pragma once

#include <QProcessEnvironment>
#include <QString>

#include <QCoro/QCoroTask>

namespace qcode {

// Runs the !`cmd` segments of an expanded command template and puts each
// command's output (stdout and stderr together, as typed at a terminal) in
// its place (reference §2.10). The commands run one after another, in the
// project folder, with the person's shell (`shell -c cmd`); each is stopped
// after timeoutMs, keeping what it printed and saying so. A command that
// cannot be started is replaced by the reason. Nothing here is a failure:
// the person reads the prompt the model got.
class TemplateShell
{
public:
    static constexpr qint64 DefaultTimeoutMs = 30000;

    struct Options {
        QString shell;     // UserShell::preferred
        QString directory; // where each command runs
        QProcessEnvironment environment;
        qint64 timeoutMs = DefaultTimeoutMs;
    };

    static QCoro::Task<QString> expand(QString text, Options options);
};

} // namespace qcode
