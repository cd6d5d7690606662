#pragma once

#include <QHash>
#include <QObject>

#include "engine/session/SessionEvents.h"

namespace qcode {

class AskQueue;
class Notifier;
class SessionController;

// Between the engine and the person for everything that waits on them:
// permission asks and questions go to the window's AskQueue (answered in
// the card of the call that asks, for the session on screen; in a dialog,
// one at a time, for its subagents'), the answers go back to the engine,
// the sidebar marks the sessions that wait, and when the window is not
// active the person is alerted — also when a long turn ends or fails.
class AskWiring : public QObject
{
    Q_OBJECT

public:
    AskWiring(SessionController *controller, QWidget *window);

    AskQueue *queue() const { return m_queue; }
    Notifier *notifier() const { return m_notifier; }

private:
    void onEvent(const SessionEvent &event);
    void updateVisible();
    void updateWaiting();
    QString titleOf(const QString &sessionID) const;

    SessionController *m_controller;
    AskQueue *m_queue = nullptr;
    Notifier *m_notifier = nullptr;
    QHash<QString, qint64> m_busySince; // root sessions, ms since the epoch
};

} // namespace qcode
