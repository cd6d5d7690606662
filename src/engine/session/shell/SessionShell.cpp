#include "SessionShell.h"

#include "engine/session/SessionLogging.h"
#include "ShellProcess.h"
#include "UserShell.h"
#include "engine/tool/OutputTruncation.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Stores and publishes one message or part; the first failure is kept.
class Writer
{
public:
    Writer(Store &store, SessionEventSink &sink)
        : m_store(store)
        , m_sink(sink)
    {
    }

    bool message(const Message &message)
    {
        if (!m_error.isEmpty())
            return false;
        if (const Result<void> saved = m_store.updateMessage(message); !saved) {
            m_error = saved.errorMessage();
            return false;
        }
        m_sink.publish(MessageUpdated{message});
        return true;
    }

    bool part(const Part &part)
    {
        if (!m_error.isEmpty())
            return false;
        if (const Result<void> saved = m_store.updatePart(part); !saved) {
            m_error = saved.errorMessage();
            return false;
        }
        m_sink.publish(PartUpdated{part});
        return true;
    }

    const QString &error() const { return m_error; }

private:
    Store &m_store;
    SessionEventSink &m_sink;
    QString m_error;
};

QJsonObject liveMetadata(const QString &output)
{
    return QJsonObject{{u"output"_s, ShellProcess::preview(output, SessionShell::MaxMetadataOutput)},
                       {u"description"_s, QString()}};
}

} // namespace

QCoro::Task<Result<QString>> SessionShell::run(Store &store, SessionEventSink &sink, ShellRun run,
                                               std::function<qint64()> now)
{
    Writer write(store, sink);

    UserMessage user;
    user.id = Identifier::ascending(Identifier::Prefix::Message);
    user.sessionID = run.sessionID;
    user.created = now();
    user.agent = run.agent;
    user.model = run.model;
    const Part userText{Identifier::ascending(Identifier::Prefix::Part), run.sessionID, user.id,
                        TextPart{QString(UserText), true, std::nullopt, std::nullopt, std::nullopt}, {}};

    AssistantMessage assistant;
    assistant.id = Identifier::ascending(Identifier::Prefix::Message);
    assistant.sessionID = run.sessionID;
    assistant.created = now();
    assistant.parentID = user.id;
    assistant.mode = run.agent;
    assistant.agent = run.agent;
    assistant.cwd = run.directory;
    assistant.root = run.worktree.isEmpty() ? run.directory : run.worktree;
    assistant.providerID = run.model.providerID;
    assistant.modelID = run.model.modelID;

    Part part{Identifier::ascending(Identifier::Prefix::Part), run.sessionID, assistant.id,
              ToolPart{Identifier::ascending(Identifier::Prefix::Tool), u"bash"_s, ToolPending{}, std::nullopt, {}}, {}};
    ToolPart *tool = part.as<ToolPart>();
    if (const Result<void> started = tool->start(QJsonObject{{u"command"_s, run.command}}, now()); !started)
        co_return Error(started.errorMessage());
    if (!write.message(Message(user)) || !write.part(userText) || !write.message(Message(assistant)) || !write.part(part))
        co_return Error(write.error());

    // The abort signal belongs to the engine, as do the store and the sink:
    // once it is gone, nothing more is written.
    const QPointer<AbortSignal> alive = run.abort;
    ShellProcess::Options options;
    options.program = run.shell;
    options.arguments = UserShell::arguments(run.shell, run.command);
    options.workingDirectory = run.directory;
    QProcessEnvironment environment = run.environment;
    environment.insert(u"TERM"_s, u"dumb"_s);
    options.environment = environment;
    options.abort = run.abort;
    options.progressInterval = std::chrono::milliseconds(ProgressIntervalMs);
    options.progressLimit = MaxMetadataOutput;
    options.progress = [&write, &part, tool, alive](const QString &output) {
        if (!alive || !tool->updateRunning(std::nullopt, liveMetadata(output)))
            return;
        write.part(part);
    };
    qCInfo(lcSession) << run.sessionID << "runs the person's command with" << run.shell;
    QCoro::Task<ShellProcess::Outcome> running = ShellProcess::run(std::move(options));
    const ShellProcess::Outcome outcome = co_await running;
    if (!alive)
        co_return Error(tr("The engine stopped while the command ran."));

    const qint64 end = now();
    assistant.completed = end;
    Result<void> moved;
    if (outcome.startError) {
        moved = tool->fail(*outcome.startError, end);
    } else {
        QString output = outcome.output;
        if (outcome.aborted)
            output += u"\n\n<metadata>\n"_s + QStringLiteral("User aborted the command") + u"\n</metadata>"_s;
        QJsonObject metadata = liveMetadata(output);
        metadata.insert(u"exit"_s, outcome.exitCode ? QJsonValue(*outcome.exitCode) : QJsonValue(QJsonValue::Null));
        const OutputTruncation::Output cut = OutputTruncation(run.dataDirectory).truncate(output, run.agentCanUseTask);
        metadata.insert(u"truncated"_s, cut.truncated);
        if (cut.truncated && !cut.outputPath.isEmpty())
            metadata.insert(u"outputPath"_s, cut.outputPath);
        moved = tool->complete(cut.content, QString(), metadata, end);
    }
    if (!moved)
        co_return Error(moved.errorMessage());
    if (!write.part(part) || !write.message(Message(assistant)))
        co_return Error(write.error());
    co_return assistant.id;
}

} // namespace qcode
