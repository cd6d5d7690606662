#include "ChangesTracker.h"

#include <utility>

#include "SessionController.h"
#include "engine/Engine.h"
#include "model/Overloaded.h"

namespace qcode {

ChangesTracker::ChangesTracker(SessionController *controller, QObject *parent)
    : QObject(parent)
    , m_controller(controller)
{
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(CoalesceMs);
    connect(&m_coalesce, &QTimer::timeout, this, &ChangesTracker::request);
    connect(controller, &SessionController::engineEvent, this, &ChangesTracker::onEvent);
    connect(controller, &SessionController::currentSessionChanged, this, [this] {
        // Another session's list must never show under this one.
        m_changes.clear();
        m_revert.reset();
        if (const Session *session = m_controller->sessions()->session(m_controller->currentSession()))
            m_revert = session->revert;
        m_inFlight = false;
        m_again = false;
        Q_EMIT changesChanged();
        refresh();
    });
    if (Engine *engine = controller->engine())
        connect(engine, &Engine::changesListed, this, &ChangesTracker::onListed);
}

void ChangesTracker::setActive(bool active)
{
    if (active == m_active)
        return;
    m_active = active;
    if (active)
        refresh();
}

void ChangesTracker::refresh()
{
    if (m_active && !m_controller->currentSession().isEmpty())
        m_coalesce.start();
}

void ChangesTracker::revertFile(const QString &file)
{
    Engine *engine = m_controller->engine();
    const QString sessionID = m_controller->currentSession();
    if (!engine || sessionID.isEmpty())
        return;
    // The engine lists the files again once the file is back.
    m_inFlight = true;
    engine->revertFile(sessionID, file);
}

void ChangesTracker::request()
{
    Engine *engine = m_controller->engine();
    const QString sessionID = m_controller->currentSession();
    if (!engine || sessionID.isEmpty())
        return;
    if (m_inFlight) {
        m_again = true;
        return;
    }
    m_inFlight = true;
    engine->listChanges(sessionID);
}

void ChangesTracker::onListed(const QString &sessionID, const QList<SnapshotFilePatch> &changes)
{
    if (sessionID != m_controller->currentSession())
        return;
    m_inFlight = false;
    m_changes = changes;
    Q_EMIT changesChanged();
    if (std::exchange(m_again, false))
        refresh();
}

void ChangesTracker::onEvent(const SessionEvent &event)
{
    const QString current = m_controller->currentSession();
    if (current.isEmpty())
        return;
    // What can change a file: a tool call that ended (edit, write, bash …),
    // a step's patch, an undo or a redo, and a turn that ended.
    const bool touches = std::visit(
        Overloaded{
            [&](const PartUpdated &e) {
                if (e.part.sessionID != current)
                    return false;
                const ToolPart *tool = e.part.as<ToolPart>();
                return (tool && tool->isFinished()) || e.part.as<PatchPart>() != nullptr;
            },
            [&](const SessionUpdated &e) {
                // Renames and time stamps leave the files alone.
                if (e.info.id != current || e.info.revert == m_revert)
                    return false;
                m_revert = e.info.revert;
                return true;
            },
            [&](const SessionStatusChanged &e) {
                return e.sessionID == current && e.status.type == SessionStatus::Type::Idle;
            },
            [&](const SessionError &e) {
                // A failed listing gets no answer: the next event asks again.
                if (e.sessionID && *e.sessionID == current)
                    m_inFlight = false;
                return false;
            },
            [](const auto &) { return false; },
        },
        event);
    if (touches)
        refresh();
}

} // namespace qcode
