#pragma once

#include <QCoreApplication>
#include <QString>

#include "model/Result.h"
#include "model/Session.h"

namespace qcode {

class Store;

// The session a person means by an id typed on the command line: the
// whole id, or any beginning of it (with or without "ses_") that only one
// stored session's id starts with.
class SessionIdLookup
{
    Q_DECLARE_TR_FUNCTIONS(SessionIdLookup)

public:
    // At most this many candidates are named when a prefix is ambiguous.
    static constexpr int ListedMatches = 10;

    // The session; an error naming the id when none matches, or listing
    // the candidates when several do.
    static Result<Session> find(Store &store, const QString &idOrPrefix);
};

} // namespace qcode
