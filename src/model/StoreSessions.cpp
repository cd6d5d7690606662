// The Store's projects, sessions, todos and permission rules.
#include <QDir>

#include "Store.h"
#include "StoreColumns.h"

using namespace Qt::StringLiterals;

namespace qcode {

using namespace StoreColumns;

Result<void> Store::upsertProject(const Project &p)
{
    return run(u"INSERT INTO project ("_s + ProjectColumns +
                   u") VALUES (?,?,?,?,?,?,?,?,?,?,?)"
                   " ON CONFLICT(id) DO UPDATE SET worktree = excluded.worktree, vcs = excluded.vcs,"
                   " name = excluded.name, icon_url = excluded.icon_url, icon_color = excluded.icon_color,"
                   " time_updated = excluded.time_updated, time_initialized = excluded.time_initialized,"
                   " sandboxes = excluded.sandboxes, commands = excluded.commands"_s,
               projectValues(p), tr("save project %1").arg(p.id));
}

Result<std::optional<Project>> Store::project(const QString &id)
{
    std::optional<Project> found;
    auto read = forEachRow(u"SELECT "_s + ProjectColumns + u" FROM project WHERE id = ?"_s, {id},
                           tr("read project %1").arg(id), [&](const QSqlQuery &row) -> Result<void> {
                               found = projectFromRow(row);
                               return {};
                           });
    if (!read)
        return read.error();
    return found;
}

Result<std::optional<Project>> Store::projectForWorktree(const QString &worktree)
{
    std::optional<Project> found;
    auto read = forEachRow(u"SELECT "_s + ProjectColumns +
                               u" FROM project WHERE worktree = ? ORDER BY time_updated DESC LIMIT 1"_s,
                           {QDir::cleanPath(worktree)}, tr("look up the project of %1").arg(worktree),
                           [&](const QSqlQuery &row) -> Result<void> {
                               found = projectFromRow(row);
                               return {};
                           });
    if (!read)
        return read.error();
    return found;
}

Result<void> Store::upsertSession(const Session &s)
{
    return run(u"INSERT INTO session ("_s + SessionColumns +
                   u") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
                   " ON CONFLICT(id) DO UPDATE SET project_id = excluded.project_id,"
                   " workspace_id = excluded.workspace_id, parent_id = excluded.parent_id, slug = excluded.slug,"
                   " directory = excluded.directory, title = excluded.title, version = excluded.version,"
                   " share_url = excluded.share_url, summary_additions = excluded.summary_additions,"
                   " summary_deletions = excluded.summary_deletions, summary_files = excluded.summary_files,"
                   " summary_diffs = excluded.summary_diffs, revert = excluded.revert,"
                   " permission = excluded.permission, time_updated = excluded.time_updated,"
                   " time_compacting = excluded.time_compacting, time_archived = excluded.time_archived,"
                   " data = excluded.data"_s,
               sessionValues(s), tr("save session %1").arg(s.id));
}

Result<void> Store::insertSession(const Session &s)
{
    return run(u"INSERT INTO session ("_s + SessionColumns + u") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"_s,
               sessionValues(s), tr("add session %1").arg(s.id));
}

// `column` empty: every session.
Result<QList<Session>> Store::sessionsWhere(const QString &column, const QString &value, const QString &what)
{
    // Session ids are descending, so ascending id order is newest first.
    const QString where = column.isEmpty() ? QString() : u" WHERE "_s + column + u" = ?"_s;
    const QVariantList values = column.isEmpty() ? QVariantList() : QVariantList{value};
    QList<Session> out;
    auto read = forEachRow(u"SELECT "_s + SessionColumns + u" FROM session"_s + where + u" ORDER BY id"_s, values, what,
                           [&](const QSqlQuery &row) -> Result<void> {
                               auto s = sessionFromRow(row);
                               if (!s)
                                   return s.error();
                               out.append(std::move(s).value());
                               return {};
                           });
    if (!read)
        return read.error();
    return out;
}

Result<std::optional<Session>> Store::session(const QString &id)
{
    auto found = sessionsWhere(u"id"_s, id, tr("read session %1").arg(id));
    if (!found)
        return found.error();
    return found->isEmpty() ? std::optional<Session>() : std::optional(found->first());
}

Result<QList<Session>> Store::sessions(const QString &projectID)
{
    return sessionsWhere(u"project_id"_s, projectID, tr("list the sessions of project %1").arg(projectID));
}

Result<QList<Session>> Store::allSessions()
{
    return sessionsWhere({}, {}, tr("list the sessions"));
}

Result<QList<Session>> Store::children(const QString &parentID)
{
    return sessionsWhere(u"parent_id"_s, parentID, tr("list the child sessions of %1").arg(parentID));
}

Result<QStringList> Store::removeSession(const QString &id)
{
    QStringList removed;
    auto done = transaction([&]() -> Result<void> {
        // The whole tree under the session, deepest first.
        auto found = forEachRow(u"WITH RECURSIVE tree(id, depth) AS ("
                                " SELECT id, 0 FROM session WHERE id = ?"
                                " UNION ALL SELECT s.id, tree.depth + 1 FROM session s JOIN tree ON s.parent_id = tree.id)"
                                " SELECT id FROM tree ORDER BY depth DESC, id"_s,
                                {id}, tr("find the child sessions of %1").arg(id),
                                [&](const QSqlQuery &row) -> Result<void> {
                                    removed.append(row.value(0).toString());
                                    return {};
                                });
        if (!found)
            return found;
        for (const QString &victim : std::as_const(removed)) {
            if (auto ok = run(u"DELETE FROM session WHERE id = ?"_s, {victim}, tr("delete session %1").arg(victim)); !ok)
                return ok;
        }
        return {};
    });
    if (!done)
        return done.error();
    return removed;
}

Result<void> Store::setTodos(const QString &sessionID, const QList<Todo> &todos)
{
    return transaction([&]() -> Result<void> {
        const QString what = tr("save the todo list of %1").arg(sessionID);
        if (auto ok = run(u"DELETE FROM todo WHERE session_id = ?"_s, {sessionID}, what); !ok)
            return ok;
        const qint64 now = nowMs();
        for (qsizetype i = 0; i < todos.size(); ++i) {
            const Todo &t = todos[i];
            if (auto ok = run(u"INSERT INTO todo (session_id, content, status, priority, position, time_created,"
                              " time_updated) VALUES (?,?,?,?,?,?,?)"_s,
                              {sessionID, t.content, t.status, t.priority, qint64(i), now, now}, what);
                !ok)
                return ok;
        }
        return {};
    });
}

Result<QList<Todo>> Store::todos(const QString &sessionID)
{
    QList<Todo> out;
    auto read = forEachRow(u"SELECT content, status, priority FROM todo WHERE session_id = ? ORDER BY position"_s,
                           {sessionID}, tr("read the todo list of %1").arg(sessionID),
                           [&](const QSqlQuery &row) -> Result<void> {
                               out.append(Todo{row.value(0).toString(), row.value(1).toString(),
                                               row.value(2).toString()});
                               return {};
                           });
    if (!read)
        return read.error();
    return out;
}

Result<std::optional<QJsonArray>> Store::permission(const QString &projectID)
{
    std::optional<QJsonArray> rules;
    auto read = forEachRow(u"SELECT data FROM permission WHERE project_id = ?"_s, {projectID},
                           tr("read the permission rules of %1").arg(projectID),
                           [&](const QSqlQuery &row) -> Result<void> {
                               const auto doc = parseJson(row.value(0));
                               if (!doc || !doc->isArray())
                                   return Error{tr("The saved permission rules of project %1 are damaged.")
                                                    .arg(projectID)};
                               rules = doc->array();
                               return {};
                           });
    if (!read)
        return read.error();
    return rules;
}

Result<void> Store::setPermission(const QString &projectID, const QJsonArray &ruleset)
{
    const qint64 now = nowMs();
    return run(u"INSERT INTO permission (project_id, time_created, time_updated, data) VALUES (?,?,?,?)"
               " ON CONFLICT(project_id) DO UPDATE SET data = excluded.data, time_updated = excluded.time_updated"_s,
               {projectID, now, now, jsonText(ruleset)}, tr("save the permission rules of %1").arg(projectID));
}

} // namespace qcode
