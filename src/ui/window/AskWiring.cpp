#include "AskWiring.h"

#include <QDateTime>
#include <QDialog>
#include <QWidget>

#include "SessionController.h"
#include "model/Overloaded.h"
#include "ui/notify/Notifier.h"
#include "ui/permission/AskQueue.h"
#include "ui/permission/PermissionDescription.h"

namespace qcode {

AskWiring::AskWiring(SessionController *controller, QWidget *window)
    : QObject(window)
    , m_controller(controller)
    , m_queue(new AskQueue(window))
    , m_notifier(new Notifier(window))
{
    connect(controller, &SessionController::engineEvent, this, &AskWiring::onEvent);
    connect(controller, &SessionController::currentSessionChanged, this, &AskWiring::updateVisible);
    connect(controller->sessions(), &QAbstractItemModel::rowsInserted, this, &AskWiring::updateVisible);
    connect(m_queue, &AskQueue::waitingChanged, this, &AskWiring::updateWaiting);
    connect(m_queue, &AskQueue::permissionAnswered, this,
            [this](const QString &requestID, PermissionReply reply, const QString &message, ApprovalScope scope) {
                if (Engine *engine = m_controller->engine())
                    engine->replyPermission(requestID, reply, message, scope);
            });
    connect(m_queue, &AskQueue::questionAnswered, this, [this](const QString &requestID, const QList<QStringList> &answers) {
        if (Engine *engine = m_controller->engine())
            engine->replyQuestion(requestID, answers);
    });
    connect(m_queue, &AskQueue::questionDismissed, this, [this](const QString &requestID) {
        if (Engine *engine = m_controller->engine())
            engine->rejectQuestion(requestID);
    });
}

void AskWiring::onEvent(const SessionEvent &event)
{
    std::visit(Overloaded{
                   [this](const PermissionAsked &e) {
                       const QString title = titleOf(e.request.sessionID);
                       m_queue->setSessionTitle(e.request.sessionID, title);
                       m_queue->addPermission(e.request);
                       m_notifier->permissionNeeded(title, PermissionDescription::describe(e.request).action);
                   },
                   [this](const PermissionReplied &e) { m_queue->resolve(e.requestID); },
                   [this](const QuestionAsked &e) {
                       const QString title = titleOf(e.request.sessionID);
                       m_queue->setSessionTitle(e.request.sessionID, title);
                       m_queue->addQuestion(e.request);
                       m_notifier->questionAsked(title, e.request.questions.isEmpty()
                                                            ? QString()
                                                            : e.request.questions.first().question);
                   },
                   [this](const QuestionReplied &e) { m_queue->resolve(e.requestID); },
                   [this](const QuestionRejected &e) { m_queue->resolve(e.requestID); },
                   [this](const SessionStatusChanged &e) {
                       const Session *session = m_controller->sessions()->session(e.sessionID);
                       if (session && session->isChild())
                           return; // the parent's turn is the news
                       const qint64 now = QDateTime::currentMSecsSinceEpoch();
                       if (e.status.type != SessionStatus::Type::Idle) {
                           if (!m_busySince.contains(e.sessionID))
                               m_busySince.insert(e.sessionID, now);
                           return;
                       }
                       if (m_busySince.contains(e.sessionID))
                           m_notifier->taskFinished(titleOf(e.sessionID), now - m_busySince.take(e.sessionID));
                   },
                   [this](const SessionError &e) {
                       if (!e.sessionID || e.error.name == QLatin1String("MessageAbortedError"))
                           return;
                       const Session *session = m_controller->sessions()->session(*e.sessionID);
                       if (session && session->isChild())
                           return;
                       m_notifier->taskFailed(titleOf(*e.sessionID),
                                              e.error.message().isEmpty() ? e.error.name : e.error.message());
                   },
                   [](const auto &) {},
               },
               event);
}

// The asks of the session on screen show, and those of every session of
// its task tree: a subagent waiting on a permission is never invisible.
void AskWiring::updateVisible()
{
    const QString current = m_controller->currentSession();
    SessionTreeModel *sessions = m_controller->sessions();
    const QString root = sessions->rootOf(current);
    QSet<QString> related = sessions->descendants(root);
    related.insert(root);
    related.remove(current);
    m_queue->setVisibleSessions(current, related);
}

void AskWiring::updateWaiting()
{
    SessionTreeModel *sessions = m_controller->sessions();
    QSet<QString> waiting;
    for (const QString &sessionID : m_queue->sessionsWaiting()) {
        // Marked where the person can see it: on the session and its root.
        waiting.insert(sessionID);
        waiting.insert(sessions->rootOf(sessionID));
    }
    sessions->setWaiting(waiting);
}

QString AskWiring::titleOf(const QString &sessionID) const
{
    const Session *session = m_controller->sessions()->session(sessionID);
    return session ? session->title : sessionID;
}

} // namespace qcode
