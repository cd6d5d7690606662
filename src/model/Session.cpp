#include "Session.h"

#include "Identifier.h"
#include "JsonFields.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QJsonObject knownFields(const Session &s)
{
    QJsonObject time{{"created"_L1, s.time.created}, {"updated"_L1, s.time.updated}};
    json::putOptional(time, "compacting"_L1, s.time.compacting);
    json::putOptional(time, "archived"_L1, s.time.archived);

    QJsonObject o{
        {"id"_L1, s.id},
        {"slug"_L1, s.slug},
        {"projectID"_L1, s.projectID},
        {"directory"_L1, s.directory},
        {"title"_L1, s.title},
        {"version"_L1, s.version},
        {"time"_L1, time},
    };
    json::putOptional(o, "workspaceID"_L1, s.workspaceID);
    json::putOptional(o, "parentID"_L1, s.parentID);
    if (s.summary) {
        QJsonObject summary{{"additions"_L1, s.summary->additions},
                            {"deletions"_L1, s.summary->deletions},
                            {"files"_L1, s.summary->files}};
        json::putOptional(summary, "diffs"_L1, s.summary->diffs);
        o.insert("summary"_L1, summary);
    }
    if (s.shareUrl)
        o.insert("share"_L1, QJsonObject{{"url"_L1, *s.shareUrl}});
    json::putOptional(o, "permission"_L1, s.permission);
    json::putOptional(o, "revert"_L1, s.revert);
    return o;
}

} // namespace

QJsonObject Session::toJson() const
{
    return json::merged(knownFields(*this), extra);
}

Result<Session> Session::fromJson(const QJsonObject &o)
{
    Session s;
    s.id = json::string(o, "id"_L1);
    if (!Identifier::hasPrefix(s.id, Identifier::Prefix::Session))
        return Error{u"A session needs an \"id\" starting with ses_ (got \"%1\")."_s.arg(s.id)};
    s.slug = json::string(o, "slug"_L1);
    s.projectID = json::string(o, "projectID"_L1);
    s.workspaceID = json::optString(o, "workspaceID"_L1);
    s.directory = json::string(o, "directory"_L1);
    s.parentID = json::optString(o, "parentID"_L1);
    s.title = json::string(o, "title"_L1);
    s.version = json::string(o, "version"_L1);

    const QJsonObject time = json::object(o, "time"_L1);
    s.time.created = json::integer(time, "created"_L1);
    s.time.updated = json::integer(time, "updated"_L1);
    s.time.compacting = json::optInteger(time, "compacting"_L1);
    s.time.archived = json::optInteger(time, "archived"_L1);

    if (const auto summary = json::optObject(o, "summary"_L1)) {
        s.summary = SessionSummary{json::integer(*summary, "additions"_L1),
                                   json::integer(*summary, "deletions"_L1),
                                   json::integer(*summary, "files"_L1),
                                   json::optArray(*summary, "diffs"_L1)};
    }
    if (const auto share = json::optObject(o, "share"_L1))
        s.shareUrl = json::optString(*share, "url"_L1);
    s.permission = json::optArray(o, "permission"_L1);
    s.revert = json::optObject(o, "revert"_L1);

    s.extra = json::residual(o, knownFields(s));
    return s;
}

} // namespace qcode
