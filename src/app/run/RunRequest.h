#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

#include "RunArguments.h"
#include "model/Message.h"
#include "model/Result.h"

namespace qcode {

// What one `qcode run` will do, with every path made absolute and checked
// and the message text settled.
struct RunRequest {
    QString directory; // the project folder, absolute and clean
    QString message;
    QStringList files; // absolute paths of files and folders that exist
    std::optional<ModelRef> model;
    std::optional<QString> agent;
    bool continueLast = false;
    std::optional<QString> sessionID;
    RunFormat format = RunFormat::Default;
    bool autoApprove = false;
};

class RunRequestResolver
{
    Q_DECLARE_TR_FUNCTIONS(RunRequestResolver)

public:
    // The bytes of standard input when it is not a terminal; nothing when
    // it is one (the person would be left waiting at an invisible prompt).
    using PipedInput = std::function<std::optional<QByteArray>()>;

    // --dir is taken from `currentDirectory`; --file paths from the project
    // folder, as `opencode run` takes them. Standard input is read only when
    // no message words were given, so a caller that leaves stdin open (a
    // script, an IDE) never hangs a run that has its message.
    static Result<RunRequest> resolve(const RunArguments &arguments, const QString &currentDirectory,
                                      const PipedInput &pipedInput);

    // The process's standard input, read to its end, unless it is a terminal.
    static std::optional<QByteArray> readStandardInput();
};

} // namespace qcode
