#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include "FileReader.h"
#include "PromptInput.h"
#include "model/Message.h"
#include "model/Part.h"
#include "model/Result.h"

namespace qcode {

// A user message ready to store, with what the caller still has to do.
struct BuiltUserMessage {
    MessageWithParts message;
    // Files that could not be read, as UnknownError {message}: the caller
    // publishes each as a session error (the message itself already holds
    // the "Read tool failed…" text for the model).
    QList<NamedError> errors;
    // Files whose contents went into the message, for the read-time record
    // that edit's "modified since read" check uses.
    QStringList readFiles;
    // Those of readFiles outside the project directory and worktree; the
    // person attached them, so they are read, but the caller may say so.
    QStringList externalFiles;
};

// OpenCode's createUserMessage (reference 2.6): turns a prompt's parts
// into the stored user message and its parts. Text and subtasks are
// copied; an @agent mention becomes the agent part and a synthetic
// instruction to call the task tool; text files are inlined through the
// read tool's output, folders listed, images and PDFs attached as data
// URLs. Every part the system adds is `synthetic: true`.
//
// Reading files makes this synchronous work on the disk: run it through
// QtConcurrent, like FileReader. It stores nothing; the caller upserts the
// message and then each part, in order.
class UserMessageBuilder
{
    Q_DECLARE_TR_FUNCTIONS(UserMessageBuilder)

public:
    explicit UserMessageBuilder(FileReader reader);

    // Fails, with nothing built, only for input no message can come from:
    // an id with the wrong prefix or given twice, no agent, no model. A
    // file that cannot be read is not such a failure: see
    // BuiltUserMessage::errors.
    Result<BuiltUserMessage> build(const PromptInput &input, const PromptDefaults &defaults) const;

private:
    // A part before it has an id; ids are handed out at the end, in order.
    struct Draft {
        std::optional<QString> id;
        PartBody body;
        QJsonObject extra;
    };
    struct Context;

    QList<Draft> fromFile(const std::optional<QString> &id, FilePart file, Context &context) const;
    QList<Draft> fromMcpResource(const std::optional<QString> &id, const FilePart &file, Context &context) const;
    QList<Draft> fromLocalFile(const std::optional<QString> &id, FilePart file, Context &context) const;
    QList<Draft> fromAgent(const std::optional<QString> &id, const AgentPart &agent, Context &context) const;

    FileReader m_reader;
};

} // namespace qcode
