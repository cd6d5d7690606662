#pragma once

#include <QString>

#include <QCoro/QCoroTask>

#include <QList>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <optional>

#include "engine/session/loop/AbortSignal.h"
#include "engine/session/ChildSession.h"
#include "engine/session/SessionEvents.h"
#include "model/Result.h"

class QNetworkAccessManager;

namespace qcode {

class Store;
class SessionEventSink;
class FileTimes;
class AgentRegistry;

// What the built-in tools share, owned by the engine and alive as long as
// the tool registry that holds this: the engine thread's store connection
// (todos), the event bus (todo updated), qcode's data folder (saved tool
// output), the read-time record that write/edit check, and the network
// manager (webfetch), the project's agents and the engine's child-session
// runner (task), and its question desk (question).
struct ToolServices {
    Store *store = nullptr;
    SessionEventSink *sink = nullptr;
    QString dataDirectory;
    FileTimes *fileTimes = nullptr;
    QNetworkAccessManager *network = nullptr;
    const AgentRegistry *agents = nullptr;
    // Runs a subagent in a child session to its end (reference §8.9).
    std::function<QCoro::Task<Result<ChildResult>>(ChildRequest)> runChild;
    // Puts questions to the person (reference §8.11) and waits without
    // blocking: one list of answers per question, or nothing when the
    // person dismissed them, the prompt stopped or nobody can answer.
    std::function<QCoro::Task<std::optional<QList<QStringList>>>(QuestionRequest, QPointer<AbortSignal>)> askQuestion;
};

} // namespace qcode
