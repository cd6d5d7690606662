#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

#include "PromptAttachment.h"
#include "PromptChoices.h"
#include "engine/message/PromptInput.h"

namespace qcode {

// What the person sent from the prompt box.
struct PromptSubmission {
    enum class Kind {
        Prompt,
        Shell,   // "!cmd"
        Command, // "/name args", a custom command ("$ARGUMENTS" is expanded by the engine)
    };

    Kind kind = Kind::Prompt;
    QString text;    // Prompt: the text; Shell: the command without "!"; Command: the arguments
    QString command; // Command: its name without "/"
    QList<PromptAttachment> attachments;
    QStringList mentionedAgents; // "@agent" mentions that matched an agent, in text order
    QStringList mentionedFiles;  // "@path" mentions that matched project files (relative paths; folders end in "/")
    QString agent;
    std::optional<ModelChoice> model;

    // The engine's form, in OpenCode's order: the text, then a file part
    // per mentioned file (file:// URLs with the mention as its source) and
    // per attachment (file:// URLs for paths, data: URLs for image bytes),
    // then an agent part per mentioned agent.
    QList<PromptPart> toPromptParts(const QString &projectDirectory) const;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::PromptSubmission)
