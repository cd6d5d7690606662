#pragma once

#include <QJsonObject>
#include <QPointer>

#include <QCoro/QCoroTask>

#include <functional>

#include "engine/message/PromptInput.h"
#include "engine/session/ChildSession.h"
#include "model/Result.h"

namespace qcode {

class ProjectCache;
class SessionScheduler;
class Store;

// Runs a child session for its parent (reference §2.4 and §8.9): the one
// runner behind both the subtask branch of the prompt loop and the task
// tool, so both create or resume the child the same way, publish its id
// while it runs and give the parent the same output.
class ChildRunner
{
public:
    struct Services {
        Store *store = nullptr;
        ProjectCache *projects = nullptr;
        SessionScheduler *scheduler = nullptr;
        // Makes the child session; its id, or empty when it was refused
        // (the refusal is published as SessionError).
        std::function<QString(const QString &directory, const QString &parentID, const QString &title)> createSession;
        std::function<QCoro::Task<Result<MessageWithParts>>(PromptInput input)> storePrompt;
    };

    // `context` is the engine: when it is gone, the child's result is not
    // waited for.
    ChildRunner(Services services, QObject *context);

    // Runs the child to its end. A child that is busy (its own loop, a
    // shell command, a revert) is not resumed: the answer says it still
    // runs, and it never gets a second loop.
    QCoro::Task<Result<ChildResult>> run(ChildRequest request);

    // What the parent's task part says when the child is done (§8.9).
    static QString output(const ChildResult &child);
    // The part's metadata while the child runs and after: the child's id
    // (so a view can open it live) and the model.
    static QJsonObject metadata(const QString &childSessionID, const ModelRef &model);

private:
    Services m_services;
    QPointer<QObject> m_context;
};

} // namespace qcode
