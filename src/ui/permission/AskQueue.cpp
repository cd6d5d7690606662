#include "AskQueue.h"

#include <QWidget>

#include "PermissionDialog.h"
#include "PermissionLogging.h"
#include "QuestionDialog.h"

namespace qcode {

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

void AskQueue::setVisibleSessions(const QString &sessionID, const QSet<QString> &related)
{
    m_visible = related;
    if (!sessionID.isEmpty())
        m_visible.insert(sessionID);
    const auto open = std::find_if(m_asks.cbegin(), m_asks.cend(), [this](const Ask &a) { return a.id == m_openID; });
    // The open ask went off screen with its session: it waits again.
    if (m_open && open != m_asks.cend() && !m_visible.contains(open->sessionID))
        closeOpen();
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
    m_asks.append(std::move(ask));
    if (sessionsWaiting() != before)
        Q_EMIT waitingChanged();
    showNext();
}

void AskQueue::resolve(const QString &requestID)
{
    if (requestID == m_openID)
        closeOpen();
    take(requestID);
    showNext();
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
    const auto next = std::find_if(m_asks.cbegin(), m_asks.cend(),
                                   [this](const Ask &a) { return m_visible.contains(a.sessionID); });
    if (next == m_asks.cend())
        return;
    m_openID = next->id;
    m_open = createDialog(*next);
    qCInfo(lcPermissionUi) << "showing" << m_openID << "of session" << next->sessionID;
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
    const QStringList before = sessionsWaiting();
    m_asks.removeIf([&requestID](const Ask &a) { return a.id == requestID; });
    if (sessionsWaiting() != before)
        Q_EMIT waitingChanged();
}

} // namespace qcode
