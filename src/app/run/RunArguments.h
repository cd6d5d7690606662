#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>

#include "model/Message.h"
#include "model/Result.h"

namespace qcode {

enum class RunFormat {
    Default, // the answer on stdout as it streams, tool activity on stderr
    Json,    // every bus event as one compact JSON line on stdout
};

// The command line of `qcode run`, as typed: OpenCode's `opencode run`
// flags that qcode supports, checked for form only. Whether the folder,
// files, agent or session exist is decided later (RunRequest, RunCommand).
struct RunArguments {
    QStringList messageWords;
    QString directory; // --dir, as given; empty: the current folder
    std::optional<ModelRef> model;
    std::optional<QString> agent;
    bool continueLast = false;
    std::optional<QString> sessionID;
    QStringList files; // --file, in order, as given
    RunFormat format = RunFormat::Default;
    bool autoApprove = false;
    bool help = false;
};

class RunArgumentParser
{
    Q_DECLARE_TR_FUNCTIONS(RunArgumentParser)

public:
    // `arguments` are the words after `run`. Unknown options, a missing
    // value, a model not of the form provider/model, a format other than
    // default or json, and --continue together with --session are errors.
    static Result<RunArguments> parse(const QStringList &arguments);
    static QString helpText();
};

} // namespace qcode
