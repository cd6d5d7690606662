#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include "engine/session/SessionEvents.h"
#include "engine/snapshot/SnapshotStore.h"

namespace qcode {

class SessionController;

// What the open session changed in the project, kept current for the
// Changes panel: asked of the engine (git runs there) when the panel is
// shown, when the session changes, and after each event that may have
// touched a file (a tool call ending, a step's patch, an undo or redo),
// coalesced so a burst of events makes one request, never two at once.
class ChangesTracker : public QObject
{
    Q_OBJECT

public:
    // How long events are gathered before the engine is asked.
    static constexpr int CoalesceMs = 150;

    explicit ChangesTracker(SessionController *controller, QObject *parent = nullptr);

    // Only a shown panel keeps the list current; a hidden one costs nothing.
    void setActive(bool active);
    bool isActive() const { return m_active; }
    const QList<SnapshotFilePatch> &changes() const { return m_changes; }
    // True from a request until its answer.
    bool isLoading() const { return m_inFlight; }
    // Asks the engine again (after CoalesceMs).
    void refresh();
    // Puts `file` (relative to the project) back as it was before the
    // session; the list follows.
    void revertFile(const QString &file);

Q_SIGNALS:
    void changesChanged();

private:
    void onEvent(const SessionEvent &event);
    void onListed(const QString &sessionID, const QList<SnapshotFilePatch> &changes);
    void request();

    SessionController *m_controller;
    QList<SnapshotFilePatch> m_changes;
    QTimer m_coalesce;
    bool m_active = false;
    bool m_inFlight = false;
    bool m_again = false; // something happened while a request was out
    std::optional<QJsonObject> m_revert; // the open session's undo point, as last seen
};

} // namespace qcode
