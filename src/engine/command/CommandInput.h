#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

#include "engine/message/PromptInput.h"
#include "model/Message.h"

namespace qcode {

// "/name arguments" as the person sent it (OpenCode's CommandInput).
struct CommandInput {
    QString sessionID;
    QString command;   // the command's name, without the slash
    QString arguments; // everything after the name, as typed
    std::optional<QString> agent;  // the agent picked in the window
    std::optional<ModelRef> model; // the model picked in the window
    // Files dropped with the command; they follow the template's own parts
    // (a subtask command has no room for them and drops them).
    QList<PromptPart> files;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::CommandInput)
