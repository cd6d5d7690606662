#include "RunSessionLookup.h"

#include <QDir>

#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

Result<Session> RunSessionLookup::byID(Store &store, const QString &sessionID)
{
    auto found = store.session(sessionID);
    if (!found)
        return found.error();
    if (!found->has_value())
        return Error{tr("Session not found: %1.").arg(sessionID)};
    return **found;
}

Result<Session> RunSessionLookup::newest(Store &store, const QString &projectID, const QString &directory)
{
    const QString folder = QDir::cleanPath(directory);
    auto sessions = store.sessions(projectID);
    if (!sessions)
        return sessions.error();
    const bool shared = projectID == "global"_L1;
    std::optional<Session> newest;
    for (const Session &session : *sessions) {
        if (session.isChild() || (shared && QDir::cleanPath(session.directory) != folder))
            continue;
        if (!newest || session.time.updated > newest->time.updated)
            newest = session;
    }
    if (!newest)
        return Error{tr("No session to continue in %1: run without --continue to start one.")
                         .arg(QDir::toNativeSeparators(folder))};
    return *newest;
}

} // namespace qcode
