#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <functional>
#include <optional>
#include <variant>

#include "engine/session/asks/PermissionCenter.h"
#include "engine/session/SessionEvents.h"

class QDialog;
class QWidget;

namespace qcode {

// The window's pending asks — permission requests and questions — in the
// order asked. An ask of the session on screen that names its tool call is
// answered inline, in that call's card (the card looks it up with
// askForCall() and answers through answerPermission() and its siblings).
// The rest that concern the session on screen — its subagents' asks, at any
// depth, and asks without a call — open a dialog, one at a time, so no ask
// is ever invisible. Asks of other sessions wait, and count in
// sessionsWaiting(), until setVisibleSessions() shows them.
//
// Each ask is answered at most once: by the person (permissionAnswered,
// questionAnswered, questionDismissed — wire them to the engine), or
// elsewhere, which the engine reports and resolve() takes in (the engine's
// permissionReplied, questionReplied and questionRejected: a reject also
// answers the session's other pending asks, an abort cancels them all).
//
// The time a call waited for the person is kept (waitedFor()), so its card
// can leave it out of the call's duration.
class AskQueue : public QObject
{
    Q_OBJECT

public:
    struct Ask {
        QString id;
        QString sessionID;
        std::variant<PermissionRequest, QuestionRequest> request;

        std::optional<PermissionToolRef> tool() const;
    };

    explicit AskQueue(QWidget *window);
    ~AskQueue() override;

    // ms since the epoch, the clock the cards measure with; the system
    // clock unless set (tests pin it).
    void setClock(std::function<qint64()> clock);

    void setVisibleSessions(const QString &sessionID, const QSet<QString> &related);
    void setSessionTitle(const QString &sessionID, const QString &title);
    void addPermission(const PermissionRequest &request);
    void addQuestion(const QuestionRequest &request);
    // Answered elsewhere or cancelled: closes its dialog or drops it.
    // Unknown ids (answered here already) are ignored.
    void resolve(const QString &requestID);

    // The person's answers from an inline ask; unknown ids are ignored.
    void answerPermission(const QString &requestID, qcode::PermissionReply reply, const QString &message,
                          qcode::ApprovalScope scope);
    void answerQuestion(const QString &requestID, const QList<QStringList> &answers);
    void dismissQuestion(const QString &requestID);

    // The pending ask of this tool call (the oldest, if several), or
    // nullopt.
    std::optional<Ask> askForCall(const QString &messageID, const QString &callID) const;
    // How long this call has waited for the person, so far, in ms.
    qint64 waitedFor(const QString &messageID, const QString &callID) const;

    // Sessions with asks pending, in the order of their first ask (for
    // sidebar badges).
    QStringList sessionsWaiting() const;
    int pendingCount() const { return int(m_asks.size()); }
    // The dialog on screen (a PermissionDialog or a QuestionDialog), or null.
    QDialog *currentDialog() const;

Q_SIGNALS:
    void permissionAnswered(const QString &requestID, qcode::PermissionReply reply, const QString &message,
                            qcode::ApprovalScope scope);
    void questionAnswered(const QString &requestID, const QList<QStringList> &answers);
    void questionDismissed(const QString &requestID);
    void waitingChanged(); // sessionsWaiting() changed
    // An ask of this tool call came or went: its card looks again.
    void callChanged(const QString &messageID, const QString &callID);

private:
    static QString callKey(const QString &messageID, const QString &callID);
    qint64 now() const;
    bool has(const QString &requestID) const;
    bool isInline(const Ask &ask) const;
    bool wantsDialog(const Ask &ask) const;
    void add(Ask ask);
    void showNext();
    QDialog *createDialog(const Ask &ask);
    void closeOpen();
    // Removes the ask; its answer is passed on by the caller.
    void take(const QString &requestID);
    void answeredOpen(const QString &requestID);

    QWidget *m_window;
    std::function<qint64()> m_clock;
    QList<Ask> m_asks; // in the order asked
    QString m_current;
    QSet<QString> m_visible;
    QHash<QString, QString> m_titles; // by session
    QHash<QString, qint64> m_askedAt; // by ask id: when it came
    QHash<QString, qint64> m_waited;  // by call key: the answered asks' waits
    QPointer<QDialog> m_open;
    QString m_openID;
};

} // namespace qcode
