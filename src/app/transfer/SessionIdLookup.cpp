#include "SessionIdLookup.h"

#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const auto SessionPrefix = "ses_"_L1;

} // namespace

Result<Session> SessionIdLookup::find(Store &store, const QString &idOrPrefix)
{
    Result<std::optional<Session>> exact = store.session(idOrPrefix);
    if (!exact)
        return exact.error();
    if (exact->has_value())
        return **exact;

    Result<QList<Session>> all = store.allSessions();
    if (!all)
        return all.error();
    const QString withPrefix = idOrPrefix.startsWith(SessionPrefix) ? idOrPrefix : SessionPrefix + idOrPrefix;
    QList<Session> matches;
    for (const Session &session : std::as_const(*all)) {
        if (session.id.startsWith(withPrefix))
            matches.append(session);
    }
    if (matches.isEmpty())
        return Error{tr("Session not found: %1. `qcode sessions` lists the stored sessions.").arg(idOrPrefix)};
    if (matches.size() == 1)
        return matches.constFirst();

    QStringList lines;
    for (const Session &session : std::as_const(matches).first(std::min<qsizetype>(matches.size(), ListedMatches)))
        lines.append(u"  "_s + session.id + u"  "_s + session.title);
    if (matches.size() > ListedMatches)
        lines.append(u"  "_s + tr("… and %n more", nullptr, int(matches.size() - ListedMatches)));
    return Error{tr("%1 is the beginning of %n session id(s); give more of the id:", nullptr, int(matches.size()))
                     .arg(idOrPrefix)
                 + u'\n' + lines.join(u'\n')};
}

} // namespace qcode
