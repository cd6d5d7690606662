#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <variant>

#include "engine/session/asks/PermissionCenter.h"
#include "engine/session/SessionEvents.h"

class QDialog;
class QWidget;

namespace qcode {

// The window's pending asks — permission requests and questions — shown
// one at a time, in the order asked, for the session on screen and the
// sessions whose asks show with it (its subagents', at any depth, so a
// subagent's ask is never invisible). Asks of other sessions wait, and
// count in sessionsWaiting(), until setVisibleSessions() shows them.
//
// Each ask is answered at most once: by the person (permissionAnswered,
// questionAnswered, questionDismissed — wire them to the engine), or
// elsewhere, which the engine reports and resolve() takes in (the engine's
// permissionReplied, questionReplied and questionRejected: a reject also
// answers the session's other pending asks, an abort cancels them all).
class AskQueue : public QObject
{
    Q_OBJECT

public:
    explicit AskQueue(QWidget *window);
    ~AskQueue() override;

    void setVisibleSessions(const QString &sessionID, const QSet<QString> &related);
    void setSessionTitle(const QString &sessionID, const QString &title);
    void addPermission(const PermissionRequest &request);
    void addQuestion(const QuestionRequest &request);
    // Answered elsewhere or cancelled: closes its dialog or drops it.
    // Unknown ids (answered here already) are ignored.
    void resolve(const QString &requestID);

    // Sessions with asks pending, in the order of their first ask (for
    // sidebar badges).
    QStringList sessionsWaiting() const;
    int pendingCount() const { return int(m_asks.size()); }
    // The dialog on screen (a PermissionDialog or a QuestionDialog), or null.
    QDialog *currentDialog() const { return m_open; }

Q_SIGNALS:
    void permissionAnswered(const QString &requestID, qcode::PermissionReply reply, const QString &message,
                            qcode::ApprovalScope scope);
    void questionAnswered(const QString &requestID, const QList<QStringList> &answers);
    void questionDismissed(const QString &requestID);
    void waitingChanged(); // sessionsWaiting() changed

private:
    struct Ask {
        QString id;
        QString sessionID;
        std::variant<PermissionRequest, QuestionRequest> request;
    };

    void add(Ask ask);
    void showNext();
    QDialog *createDialog(const Ask &ask);
    void closeOpen();
    // Removes the ask; the open dialog's answer is passed on by the caller.
    void take(const QString &requestID);
    void answeredOpen(const QString &requestID);

    QWidget *m_window;
    QList<Ask> m_asks; // in the order asked
    QSet<QString> m_visible;
    QHash<QString, QString> m_titles; // by session
    QPointer<QDialog> m_open;
    QString m_openID;
};

} // namespace qcode
