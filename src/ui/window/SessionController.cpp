#include "SessionController.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QtConcurrent>

#include "engine/session/project/ProjectInstance.h"
#include "model/Identifier.h"
#include "model/Overloaded.h"
#include "model/Store.h"
#include "ui/support/Background.h"

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcController, "qcode.ui.session")

namespace qcode {
namespace {

qint64 contextOf(const TokenUsage &tokens)
{
    return tokens.input + tokens.output + tokens.reasoning + tokens.cacheRead + tokens.cacheWrite;
}

} // namespace

SessionController::SessionController(Store *store, Engine *engine, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_engine(engine)
    , m_chat(store, &m_streaming)
{
    connect(m_engine, &Engine::event, this, &SessionController::onEvent);
    connect(m_engine, &Engine::projectDescribed, this, &SessionController::onProjectDescribed);
    connect(&m_sessions, &SessionTreeModel::renameRequested, this, &SessionController::rename);
    connect(&m_chat, &ChatModel::loadFailed, this,
            [this](const QString &message) { Q_EMIT errorReported(m_current, message); });
}

SessionController::~SessionController() = default;

void SessionController::openProject(const QString &directory)
{
    const QString folder = QDir::cleanPath(QFileInfo(directory).absoluteFilePath());
    m_directory = folder;
    const int request = ++m_projectRequest;
    // The project id may take a git call; the window stays responsive.
    runInBackground(
        this, [folder] { return ProjectInstance::projectID(ProjectInstance::findWorktree(folder)); },
        [this, folder, request](const QString &projectID) {
            if (request != m_projectRequest)
                return; // another folder was opened meanwhile
            m_projectID = projectID;
            m_project = {};
            showSession({});
            listSessions();
            Q_EMIT projectOpened(folder, projectID);
            if (m_engine)
                m_engine->describeProject(folder);
        });
}

void SessionController::listSessions()
{
    Result<QList<Session>> listed = m_store->sessions(m_projectID);
    if (!listed) {
        Q_EMIT projectFailed(m_directory, listed.errorMessage());
        m_sessions.setSessions(m_projectID, {});
        return;
    }
    QList<Session> sessions = std::move(listed).value();
    // Folders outside git share the "global" project; each lists its own.
    if (m_projectID == "global"_L1) {
        sessions.removeIf([this](const Session &session) { return QDir::cleanPath(session.directory) != m_directory; });
    }
    m_sessions.setSessions(m_projectID, sessions);
    for (auto it = m_busy.constBegin(); it != m_busy.constEnd(); ++it)
        m_sessions.setBusy(it.key(), true);
}

void SessionController::showSession(const QString &sessionID)
{
    m_current = sessionID;
    if (Result<void> shown = m_chat.setSession(sessionID); !shown)
        Q_EMIT errorReported(sessionID, shown.errorMessage());
    std::optional<Session> session;
    if (const Session *known = m_sessions.session(sessionID))
        session = *known;
    else if (const Result<std::optional<Session>> stored = sessionID.isEmpty() ? Result<std::optional<Session>>(std::nullopt)
                                                                                : m_store->session(sessionID);
             stored)
        session = *stored;
    applyRevert(session ? session->revert : std::nullopt);
    m_todos.clear();
    if (!sessionID.isEmpty()) {
        if (Result<QList<Todo>> todos = m_store->todos(sessionID); todos)
            m_todos = *todos;
    }
    loadUsage();
    Q_EMIT currentSessionChanged(sessionID);
    Q_EMIT todosChanged(m_todos);
}

std::optional<Message> SessionController::lastUserMessage(const QString &sessionID) const
{
    if (sessionID.isEmpty())
        return std::nullopt;
    Result<std::optional<Message>> last = m_store->lastUserMessage(sessionID);
    if (!last) {
        qCWarning(lcController) << "the last prompt of" << sessionID << "could not be read:" << last.errorMessage();
        return std::nullopt;
    }
    return *last;
}

std::optional<SessionStatus> SessionController::status(const QString &sessionID) const
{
    const auto found = m_busy.constFind(sessionID);
    return found == m_busy.constEnd() ? std::nullopt : std::optional<SessionStatus>(*found);
}

QString SessionController::newSession()
{
    if (!m_engine || m_directory.isEmpty())
        return {};
    const QString id = Identifier::descending(Identifier::Prefix::Session);
    m_pendingShow = id;
    m_engine->createSession(NewSession{id, m_directory, std::nullopt, {}});
    // Shown at once, empty: the engine runs the calls in order, so a prompt
    // sent now finds the session made.
    showSession(id);
    return id;
}

bool SessionController::ensureSession()
{
    if (!m_engine)
        return false;
    if (m_current.isEmpty() && newSession().isEmpty()) {
        Q_EMIT errorReported(std::nullopt, tr("Open a project folder first."));
        return false;
    }
    return true;
}

void SessionController::prompt(PromptInput input)
{
    if (!ensureSession())
        return;
    input.sessionID = m_current;
    m_engine->prompt(std::move(input));
}

void SessionController::send(const PromptSubmission &submission)
{
    std::optional<QString> agent;
    if (!submission.agent.isEmpty())
        agent = submission.agent;
    std::optional<ModelRef> model;
    if (submission.model)
        model = ModelRef{submission.model->providerID, submission.model->modelID};
    switch (submission.kind) {
    case PromptSubmission::Kind::Prompt: {
        PromptInput input;
        input.agent = agent;
        input.model = model;
        input.parts = submission.toPromptParts(m_directory);
        prompt(std::move(input));
        return;
    }
    case PromptSubmission::Kind::Shell:
        if (ensureSession())
            m_engine->shell(ShellInput{m_current, submission.text, agent, model});
        return;
    case PromptSubmission::Kind::Command: {
        if (!ensureSession())
            return;
        // The engine expands the template; the words typed after the name
        // are its arguments, so only the files travel as parts.
        QList<PromptPart> parts = submission.toPromptParts(m_directory);
        parts.removeIf([](const PromptPart &part) { return std::holds_alternative<TextPart>(part.body); });
        m_engine->command(CommandInput{m_current, submission.command, submission.text, agent, model, parts});
        return;
    }
    }
}

void SessionController::reloadProject()
{
    if (m_engine && !m_directory.isEmpty())
        m_engine->reloadProject(m_directory);
}

void SessionController::editQueued(const QString &queueID, const QString &text)
{
    if (m_engine && !m_current.isEmpty())
        m_engine->editQueuedPrompt(m_current, queueID, text);
}

void SessionController::removeQueued(const QString &queueID)
{
    if (m_engine && !m_current.isEmpty())
        m_engine->removeQueuedPrompt(m_current, queueID);
}

void SessionController::sendQueuedNow(const QString &queueID)
{
    if (m_engine && !m_current.isEmpty())
        m_engine->sendQueuedPrompt(m_current, queueID);
}

void SessionController::onProjectDescribed(const ProjectSummary &summary)
{
    if (QDir::cleanPath(summary.directory) != m_directory)
        return; // an answer for a folder no longer open
    m_project = summary;
    Q_EMIT projectDescribed();
}

void SessionController::onQueued(const PromptQueued &queued)
{
    QList<QueuedPrompt> &list = m_queued[queued.sessionID];
    const auto found = std::find_if(list.begin(), list.end(), [&](const QueuedPrompt &q) { return q.id == queued.queueID; });
    if (found != list.end())
        found->text = queued.text;
    else
        list.append(QueuedPrompt{queued.queueID, queued.text});
    Q_EMIT queuedChanged(queued.sessionID);
}

void SessionController::onDequeued(const PromptDequeued &dequeued)
{
    const auto found = m_queued.find(dequeued.sessionID);
    if (found == m_queued.end())
        return;
    found->removeIf([&](const QueuedPrompt &q) { return q.id == dequeued.queueID; });
    if (found->isEmpty())
        m_queued.erase(found);
    Q_EMIT queuedChanged(dequeued.sessionID);
}

void SessionController::abort()
{
    if (m_engine && !m_current.isEmpty())
        m_engine->abort(m_current);
}

void SessionController::compact()
{
    if (m_engine && !m_current.isEmpty())
        m_engine->compact(m_current);
}

// The step failed. When it is the session's last word, the loop runs
// again on the history as it is (Engine::resume, no new message); an older
// failure's request goes again, as it was sent.
void SessionController::retry(const QString &messageID)
{
    const int row = m_chat.rowOf(messageID);
    if (m_engine && row >= 0 && row == m_chat.rowCount() - 1 && !isBusy(m_current)) {
        m_engine->resume(m_current);
        return;
    }
    const MessageWithParts *failed = m_chat.message(row);
    const AssistantMessage *assistant = failed ? failed->info.assistant() : nullptr;
    const MessageWithParts *request = assistant ? m_chat.message(m_chat.rowOf(assistant->parentID)) : nullptr;
    const UserMessage *user = request ? request->info.user() : nullptr;
    if (!user) {
        Q_EMIT errorReported(m_current, tr("The request this step answered is no longer there to send again."));
        return;
    }
    PromptInput input;
    input.agent = user->agent;
    input.model = user->model;
    for (const Part &part : request->parts) {
        if (const TextPart *text = part.as<TextPart>(); text && !text->synthetic.value_or(false))
            input.parts.append(PromptPart{std::nullopt, *text});
        else if (const FilePart *file = part.as<FilePart>(); file && !part.extra.value("synthetic"_L1).toBool())
            input.parts.append(PromptPart{std::nullopt, *file});
        else if (const AgentPart *agent = part.as<AgentPart>())
            input.parts.append(PromptPart{std::nullopt, *agent});
    }
    prompt(std::move(input));
}

void SessionController::undo()
{
    if (!m_engine || m_current.isEmpty())
        return;
    const std::optional<RevertCut> cut = m_chat.revertCut();
    const std::optional<QString> target = userMessageBefore(cut ? cut->messageID : QString());
    if (!target) {
        Q_EMIT errorReported(m_current, tr("Nothing to undo."));
        return;
    }
    const QString text = textOf(*target);
    m_engine->revert(m_current, *target);
    Q_EMIT promptRestored(text);
}

void SessionController::applyRevert(const std::optional<QJsonObject> &revert)
{
    m_revertedFiles = filesInDiff(revert ? revert->value("diff"_L1).toString() : QString());
    const std::optional<RevertCut> before = m_chat.revertCut();
    m_chat.setRevert(revert);
    const std::optional<RevertCut> after = m_chat.revertCut();
    const bool moved = before.has_value() != after.has_value()
                       || (before && (before->messageID != after->messageID || before->partID != after->partID));
    // The meter measures the history the model will be sent: an undone
    // step's tokens and cost no longer count.
    if (moved)
        loadUsage();
}

// The files a git diff names ("diff --git a/x b/x"), once each, in order.
QStringList SessionController::filesInDiff(const QString &diff)
{
    QStringList files;
    for (const QStringView line : QStringView(diff).split(u'\n')) {
        if (!line.startsWith(u"diff --git a/"))
            continue;
        const qsizetype split = line.indexOf(u" b/");
        const QString path = (split > 0 ? line.mid(13, split - 13) : line.mid(13)).toString();
        if (!files.contains(path))
            files.append(path);
    }
    return files;
}

void SessionController::redo()
{
    if (!m_engine || m_current.isEmpty())
        return;
    const std::optional<RevertCut> cut = m_chat.revertCut();
    if (!cut) {
        Q_EMIT errorReported(m_current, tr("Nothing to redo."));
        return;
    }
    // The prompt comes back into the chat: its copy in the prompt box goes.
    Q_EMIT promptRedone(textOf(cut->messageID));
    if (const std::optional<QString> next = userMessageAfter(cut->messageID))
        m_engine->revert(m_current, *next);
    else
        m_engine->unrevert(m_current);
}

void SessionController::revertTo(const QString &messageID)
{
    if (!m_engine || m_current.isEmpty())
        return;
    const QString text = textOf(messageID);
    m_engine->revert(m_current, messageID);
    Q_EMIT promptRestored(text);
}

void SessionController::undoAll()
{
    if (!m_engine || m_current.isEmpty())
        return;
    for (int row = 0; row < m_chat.rowCount(); ++row) {
        const MessageWithParts *message = m_chat.message(row);
        if (message && message->info.isUser()) {
            revertTo(message->info.id());
            return;
        }
    }
    Q_EMIT errorReported(m_current, tr("Nothing to undo."));
}

void SessionController::rename(const QString &sessionID, const QString &title)
{
    if (m_engine)
        m_engine->renameSession(sessionID, title);
}

void SessionController::remove(const QString &sessionID)
{
    if (m_engine)
        m_engine->deleteSession(sessionID);
}

void SessionController::fork(const QString &sessionID, const QString &messageID)
{
    if (!m_engine)
        return;
    const QString id = Identifier::descending(Identifier::Prefix::Session);
    m_pendingShow = id;
    m_engine->fork(sessionID, messageID, id);
}

double SessionController::sessionCost() const
{
    double total = 0;
    for (double cost : m_costs)
        total += cost;
    return total;
}

void SessionController::onEvent(const SessionEvent &event)
{
    // Every event type is named, without a catch-all: a type added to
    // SessionEvent does not compile until the window decides what it does.
    std::visit(Overloaded{
                   [this](const SessionCreated &e) { onSessionCreated(e.info); },
                   [this](const SessionUpdated &e) { onSessionUpdated(e.info); },
                   [this](const SessionDeleted &e) { onSessionDeleted(e.info); },
                   [this](const SessionStatusChanged &e) { onStatus(e.sessionID, e.status); },
                   [this](const MessageUpdated &e) { onMessage(e.info); },
                   [this](const MessageRemoved &e) { m_chat.applyMessageRemoved(e.sessionID, e.messageID); },
                   [this](const PartUpdated &e) {
                       m_streaming.partUpdated(e.part);
                       m_chat.applyPart(e.part);
                   },
                   [this](const PartRemoved &e) {
                       m_streaming.partRemoved(e.partID);
                       m_chat.applyPartRemoved(e.sessionID, e.messageID, e.partID);
                   },
                   [this](const PartDelta &e) {
                       m_streaming.partDelta(e.partID, e.field, e.delta);
                       m_chat.applyPartDelta(e.sessionID, e.messageID, e.partID, e.field, e.delta);
                   },
                   [this](const TodoUpdated &e) {
                       if (e.sessionID != m_current)
                           return;
                       m_todos = e.todos;
                       Q_EMIT todosChanged(m_todos);
                   },
                   [this](const SessionCompacted &e) { Q_EMIT sessionCompacted(e.sessionID); },
                   [this](const PromptQueued &e) { onQueued(e); },
                   [this](const PromptDequeued &e) { onDequeued(e); },
                   [this](const SessionError &e) {
                       const QString message = e.error.message().isEmpty() ? e.error.name : e.error.message();
                       Q_EMIT errorReported(e.sessionID, message);
                   },
                   // The ask queue's (AskWiring), through engineEvent below.
                   [](const PermissionAsked &) {},
                   [](const PermissionReplied &) {},
                   [](const QuestionAsked &) {},
                   [](const QuestionReplied &) {},
                   [](const QuestionRejected &) {},
               },
               event);
    Q_EMIT engineEvent(event);
}

void SessionController::onSessionCreated(const Session &session)
{
    if (m_projectID == "global"_L1 && QDir::cleanPath(session.directory) != m_directory)
        return;
    m_sessions.upsert(session);
    if (session.id == m_pendingShow) {
        m_pendingShow.clear();
        if (m_current != session.id)
            showSession(session.id);
        else
            applyRevert(session.revert);
        Q_EMIT currentSessionChanged(session.id);
    }
}

void SessionController::onSessionUpdated(const Session &session)
{
    m_sessions.upsert(session);
    if (session.id == m_current)
        applyRevert(session.revert);
}

void SessionController::onSessionDeleted(const Session &session)
{
    m_sessions.remove(session.id);
    m_busy.remove(session.id);
    if (!m_current.isEmpty() && session.id == m_current) {
        // The open session went: the newest one left takes its place.
        const QModelIndex first = m_sessions.index(0, 0);
        showSession(first.isValid() ? first.data(SessionTreeModel::IdRole).toString() : QString());
    }
}

void SessionController::onStatus(const QString &sessionID, const SessionStatus &status)
{
    if (status.type == SessionStatus::Type::Idle)
        m_busy.remove(sessionID);
    else
        m_busy.insert(sessionID, status);
    m_sessions.setBusy(sessionID, status.type != SessionStatus::Type::Idle);
    Q_EMIT sessionStatusChanged(sessionID, status);
}

void SessionController::onMessage(const Message &message)
{
    m_chat.applyMessage(message);
    const AssistantMessage *assistant = message.assistant();
    if (!assistant || message.sessionID() != m_current)
        return;
    m_costs.insert(message.id(), assistant->cost);
    if (contextOf(assistant->tokens) > 0)
        m_contextTokens = contextOf(assistant->tokens);
    Q_EMIT usageChanged();
}

void SessionController::loadUsage()
{
    m_costs.clear();
    m_contextTokens = 0;
    if (!m_current.isEmpty()) {
        const Result<QList<MessageUsage>> usage = m_store->usage(m_current);
        if (!usage)
            Q_EMIT errorReported(m_current, usage.errorMessage());
        const std::optional<RevertCut> cut = m_chat.revertCut();
        for (const MessageUsage &step : usage ? *usage : QList<MessageUsage>()) {
            if (cut && (step.id > cut->messageID || (step.id == cut->messageID && !cut->partID)))
                continue; // undone
            m_costs.insert(step.id, step.cost);
            if (contextOf(step.tokens) > 0)
                m_contextTokens = contextOf(step.tokens);
        }
    }
    Q_EMIT usageChanged();
}

// The newest user message before `messageID` (before the end when empty).
std::optional<QString> SessionController::userMessageBefore(const QString &messageID)
{
    int row = messageID.isEmpty() ? m_chat.rowCount() : m_chat.rowOf(messageID);
    while (--row >= 0) {
        const MessageWithParts *message = m_chat.message(row);
        if (message && message->info.isUser())
            return message->info.id();
    }
    return std::nullopt;
}

std::optional<QString> SessionController::userMessageAfter(const QString &messageID)
{
    const int from = m_chat.rowOf(messageID);
    for (int row = from + 1; from >= 0 && row < m_chat.rowCount(); ++row) {
        const MessageWithParts *message = m_chat.message(row);
        if (message && message->info.isUser())
            return message->info.id();
    }
    return std::nullopt;
}

QString SessionController::textOf(const QString &messageID)
{
    const MessageWithParts *message = m_chat.message(m_chat.rowOf(messageID));
    if (!message)
        return {};
    QStringList texts;
    for (const Part &part : message->parts) {
        if (const TextPart *text = part.as<TextPart>(); text && !text->synthetic.value_or(false))
            texts.append(text->text);
    }
    return texts.join(u"\n\n"_s);
}

} // namespace qcode
