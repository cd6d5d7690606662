#pragma once

#include <QCoreApplication>
#include <QString>

#include "model/Result.h"
#include "model/Session.h"

namespace qcode {

class Store;

// Which stored session `--session` and `--continue` mean. Reads the store
// on the calling thread before the engine starts, so a bad id is an error
// before anything is created.
class RunSessionLookup
{
    Q_DECLARE_TR_FUNCTIONS(RunSessionLookup)

public:
    // The session with this id; an error naming it when there is none.
    static Result<Session> byID(Store &store, const QString &sessionID);

    // The most recently updated top-level session of project `projectID`
    // (ProjectInstance::projectID). In the shared "global" project (folders
    // outside git) only sessions started in `directory` itself count, so
    // --continue never picks up an unrelated folder's conversation. An
    // error when there is none.
    static Result<Session> newest(Store &store, const QString &projectID, const QString &directory);
};

} // namespace qcode
