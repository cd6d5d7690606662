#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QObject>
#include <QPointer>

#include <QCoro/QCoroTask>

#include <functional>
#include <memory>
#include <optional>

#include "engine/network/ProviderClient.h"
#include "engine/session/loop/AbortSignal.h"
#include "engine/session/ChildSession.h"
#include "engine/session/asks/PermissionCenter.h"
#include "engine/session/loop/RetryPolicy.h"
#include "engine/session/loop/ModelRequest.h"
#include "engine/session/SessionEvents.h"
#include "engine/session/loop/SessionProcessor.h"
#include "engine/session/loop/ToolRunner.h"

class QNetworkAccessManager;

namespace qcode {

class Store;
class ProjectInstance;

// What every loop of an engine shares.
struct LoopServices {
    Store *store = nullptr;
    SessionEventSink *sink = nullptr;
    PermissionCenter *permissions = nullptr;
    QNetworkAccessManager *network = nullptr;
    HttpStreamLimits limits;
    RetryPolicy retry;
    std::function<QDateTime()> clock;
    // Compactions in a row, with no successful step between them.
    int maxConsecutiveCompactions = 3;
    // Title generation, started on a prompt's first step (fire and forget).
    std::function<void(const QString &sessionID)> startTitle;
    // Runs a child session to its end (the subtask branch).
    std::function<QCoro::Task<Result<ChildResult>>(ChildRequest)> runChild;
    // Stores the prompts sent while the session was busy, in order, as user
    // messages (reference §2.2). Called at the start of every step unless a
    // compaction request waits; unset: nothing is queued outside the
    // database.
    std::function<QCoro::Task<>(const QString &sessionID)> takeQueued;
};

// What ended one run of the loop.
struct LoopResult {
    QString lastAssistantID;
    std::optional<NamedError> error;
    bool aborted = false;
};

// OpenCode's SessionPrompt.loop (reference §2.3, the seed's flowchart): one
// session's loop, from its history in the database to the model and back,
// until the last assistant message answers the last user message. It
// re-reads the history on every iteration, after LoopServices::takeQueued
// has stored the prompts sent meanwhile (§2.2), so the next step answers
// them — after a pending compaction, so they follow its summary.
class PromptLoop : public QObject
{
    Q_OBJECT

public:
    PromptLoop(LoopServices services, ProjectInstance &project, std::shared_ptr<ToolRunner> tools,
               QString sessionID, QObject *parent = nullptr);
    ~PromptLoop() override;

    const QString &sessionID() const { return m_sessionID; }
    AbortSignal *abortSignal() { return &m_abort; }

    QCoro::Task<LoopResult> run();

    // The text a queued prompt is wrapped in, in memory only (reference §2.2).
    static QString queuedReminder(const QString &text);

private:
    struct Scan;
    enum class Next { Continue, Stop };

    QCoro::Task<Next> step(int step, int &compactions, LoopResult &result);
    // Stores the prompts queued meanwhile; true when the history changed.
    QCoro::Task<bool> storeQueued(const QList<MessageWithParts> &history);
    QCoro::Task<Next> normalStep(int step, const Scan &scan, const QList<MessageWithParts> &history,
                                 int &compactions, LoopResult &result);
    QCoro::Task<Next> compactionStep(const Scan &scan, const QList<MessageWithParts> &history,
                                     const Part &task, int &compactions, LoopResult &result);
    QCoro::Task<Next> subtaskStep(const Scan &scan, const SubtaskPart &task, LoopResult &result);
    Next requestCompaction(const Scan &scan, std::optional<bool> overflow, int &compactions, LoopResult &result);

    Next fail(LoopResult &result, const QString &name, const QString &message);
    SessionProcessor::Setup processorSetup(const ResolvedModel &model, ToolRunner *tools,
                                           PermissionAsker *permissions) const;
    qint64 now() const;

    LoopServices m_services;
    ProjectInstance &m_project;
    std::shared_ptr<ToolRunner> m_tools;
    QString m_sessionID;
    AbortSignal m_abort;
};

} // namespace qcode
