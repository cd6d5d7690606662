#include "AskQueue.h"

#include <QDateTime>
#include <QWidget>

#include "PermissionDialog.h"
#include "PermissionLogging.h"
#include "QuestionDialog.h"

namespace qcode {

std::optional<PermissionToolRef> AskQueue::Ask::tool() const
{
    return std::visit([](const auto &r) { return r.tool; }, request);
}

AskQueue::AskQueue(QWidget *window)
    : QObject(window)
    , m_window(window)
{
}

AskQueue::~AskQueue()
{
    // The asks stay pending in the engine; deleting the dialog answers
    // nothing (only its buttons, Escape and closing it do).
    delete m_open.data();
}

void AskQueue::setClock(std::function<qint64()> clock)
{
    m_clock = std::move(clock);
}

qint64 AskQueue::now() const
{
    return m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
}

QString AskQueue::callKey(const QString &messageID, const QString &callID)
{
    return messageID + u'/' + callID;
}

// In its card: the call is in the session on screen.
bool AskQueue::isInline(const Ask &ask) const
{
    return ask.sessionID == m_current && ask.tool().has_value();
}

bool AskQueue::wantsDialog(const Ask &ask) const
{
    return m_visible.contains(ask.sessionID) && !isInline(ask);
}

void AskQueue::setVisibleSessions(const QString &sessionID, const QSet<QString> &related)
{
    m_current = sessionID;
    m_visible = related;
    if (!sessionID.isEmpty())
        m_visible.insert(sessionID);
    const auto open = std::find_if(m_asks.cbegin(), m_asks.cend(), [this](const Ask &a) { return a.id == m_openID; });
    // The open ask went off screen with its session, or into its card: it
    // no longer wants the dialog.
    if (m_open && open != m_asks.cend() && !wantsDialog(*open))
        closeOpen();
    for (const Ask &ask : std::as_const(m_asks)) {
        if (const auto tool = ask.tool())
            Q_EMIT callChanged(tool->messageID, tool->callID);
    }
    showNext();
}

void AskQueue::setSessionTitle(const QString &sessionID, const QString &title)
{
    m_titles.insert(sessionID, title);
    for (const Ask &ask : std::as_const(m_asks)) {
        if (ask.id != m_openID || ask.sessionID != sessionID)
            continue;
        if (auto *permission = qobject_cast<PermissionDialog *>(m_open.data()))
            permission->setSessionTitle(title);
        else if (auto *question = qobject_cast<QuestionDialog *>(m_open.data()))
            question->setSessionTitle(title);
    }
}

void AskQueue::addPermission(const PermissionRequest &request)
{
    add(Ask{request.id, request.sessionID, request});
}

void AskQueue::addQuestion(const QuestionRequest &request)
{
    add(Ask{request.id, request.sessionID, request});
}

void AskQueue::add(Ask ask)
{
    const bool known = std::any_of(m_asks.cbegin(), m_asks.cend(), [&ask](const Ask &a) { return a.id == ask.id; });
    if (ask.id.isEmpty() || known) {
        qCWarning(lcPermissionUi) << "ignoring ask" << ask.id << (known ? "asked twice" : "without an id");
        return;
    }
    const QStringList before = sessionsWaiting();
    m_askedAt.insert(ask.id, now());
    const std::optional<PermissionToolRef> tool = ask.tool();
    m_asks.append(std::move(ask));
    if (sessionsWaiting() != before)
        Q_EMIT waitingChanged();
    if (tool)
        Q_EMIT callChanged(tool->messageID, tool->callID);
    showNext();
}

bool AskQueue::has(const QString &requestID) const
{
    return std::any_of(m_asks.cbegin(), m_asks.cend(), [&requestID](const Ask &a) { return a.id == requestID; });
}

void AskQueue::resolve(const QString &requestID)
{
    if (requestID == m_openID)
        closeOpen();
    take(requestID);
    showNext();
}

void AskQueue::answerPermission(const QString &requestID, PermissionReply reply, const QString &message,
                                ApprovalScope scope)
{
    if (!has(requestID))
        return;
    resolve(requestID);
    Q_EMIT permissionAnswered(requestID, reply, message, scope);
}

void AskQueue::answerQuestion(const QString &requestID, const QList<QStringList> &answers)
{
    if (!has(requestID))
        return;
    resolve(requestID);
    Q_EMIT questionAnswered(requestID, answers);
}

void AskQueue::dismissQuestion(const QString &requestID)
{
    if (!has(requestID))
        return;
    resolve(requestID);
    Q_EMIT questionDismissed(requestID);
}

std::optional<AskQueue::Ask> AskQueue::askForCall(const QString &messageID, const QString &callID) const
{
    for (const Ask &ask : m_asks) {
        const std::optional<PermissionToolRef> tool = ask.tool();
        if (tool && tool->messageID == messageID && tool->callID == callID)
            return ask;
    }
    return std::nullopt;
}

qint64 AskQueue::waitedFor(const QString &messageID, const QString &callID) const
{
    qint64 waited = m_waited.value(callKey(messageID, callID));
    if (const std::optional<Ask> ask = askForCall(messageID, callID))
        waited += std::max<qint64>(now() - m_askedAt.value(ask->id), 0);
    return waited;
}

QDialog *AskQueue::currentDialog() const
{
    return m_open;
}

QStringList AskQueue::sessionsWaiting() const
{
    QStringList sessions;
    for (const Ask &ask : m_asks) {
        if (!sessions.contains(ask.sessionID))
            sessions.append(ask.sessionID);
    }
    return sessions;
}

void AskQueue::showNext()
{
    if (m_open)
        return;
    const auto next = std::find_if(m_asks.cbegin(), m_asks.cend(), [this](const Ask &a) { return wantsDialog(a); });
    if (next == m_asks.cend())
        return;
    m_openID = next->id;
    m_open = createDialog(*next);
    qCInfo(lcPermissionUi) << "showing" << m_openID << "of session" << next->sessionID << "in a dialog";
    m_open->open();
}

QDialog *AskQueue::createDialog(const Ask &ask)
{
    const QString title = m_titles.value(ask.sessionID);
    if (const auto *permission = std::get_if<PermissionRequest>(&ask.request)) {
        auto *dialog = new PermissionDialog(*permission, title, m_window);
        connect(dialog, &PermissionDialog::answered, this,
                [this](const QString &id, PermissionReply reply, const QString &message, ApprovalScope scope) {
                    answeredOpen(id);
                    Q_EMIT permissionAnswered(id, reply, message, scope);
                    showNext();
                });
        return dialog;
    }
    auto *dialog = new QuestionDialog(std::get<QuestionRequest>(ask.request), title, m_window);
    connect(dialog, &QuestionDialog::answered, this, [this](const QString &id, const QList<QStringList> &answers) {
        answeredOpen(id);
        Q_EMIT questionAnswered(id, answers);
        showNext();
    });
    connect(dialog, &QuestionDialog::dismissed, this, [this](const QString &id) {
        answeredOpen(id);
        Q_EMIT questionDismissed(id);
        showNext();
    });
    return dialog;
}

// The open dialog answered: it closed itself; forget it and its ask before
// the answer goes out, so whatever the answer sets off meets a consistent
// queue.
void AskQueue::answeredOpen(const QString &requestID)
{
    if (m_open)
        m_open->deleteLater();
    m_open = nullptr;
    m_openID.clear();
    take(requestID);
}

void AskQueue::closeOpen()
{
    QPointer<QDialog> open = m_open;
    m_open = nullptr;
    m_openID.clear();
    if (!open)
        return;
    if (auto *permission = qobject_cast<PermissionDialog *>(open.data()))
        permission->withdraw();
    else if (auto *question = qobject_cast<QuestionDialog *>(open.data()))
        question->withdraw();
    open->deleteLater();
}

void AskQueue::take(const QString &requestID)
{
    const auto it =
        std::find_if(m_asks.cbegin(), m_asks.cend(), [&requestID](const Ask &a) { return a.id == requestID; });
    if (it == m_asks.cend())
        return;
    const std::optional<PermissionToolRef> tool = it->tool();
    if (tool)
        m_waited[callKey(tool->messageID, tool->callID)] += std::max<qint64>(now() - m_askedAt.value(requestID), 0);
    m_askedAt.remove(requestID);
    const QStringList before = sessionsWaiting();
    m_asks.erase(it);
    if (sessionsWaiting() != before)
        Q_EMIT waitingChanged();
    if (tool)
        Q_EMIT callChanged(tool->messageID, tool->callID);
}

} // namespace qcode
