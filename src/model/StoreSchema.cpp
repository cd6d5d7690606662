#include "StoreSchema.h"

using namespace Qt::StringLiterals;

namespace qcode::StoreSchema {
namespace {

// Times are milliseconds since the epoch, as OpenCode stores them.
#define QCODE_NOW_MS "(cast(strftime('%s','now') as integer) * 1000)"

QStringList version1()
{
    return {
        u"CREATE TABLE project ("
        "  id text PRIMARY KEY,"
        "  worktree text NOT NULL,"
        "  vcs text,"
        "  name text,"
        "  icon_url text,"
        "  icon_color text,"
        "  time_created integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  time_updated integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  time_initialized integer,"
        "  sandboxes text NOT NULL DEFAULT '[]',"
        "  commands text)"_s,
        // data: qcode's addition, the fields of Session.Info no column holds
        // (a newer OpenCode's), so a session round-trips whole.
        u"CREATE TABLE session ("
        "  id text PRIMARY KEY,"
        "  project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE,"
        "  parent_id text,"
        "  slug text NOT NULL,"
        "  directory text NOT NULL,"
        "  title text NOT NULL,"
        "  version text NOT NULL,"
        "  share_url text,"
        "  summary_additions integer,"
        "  summary_deletions integer,"
        "  summary_files integer,"
        "  summary_diffs text,"
        "  revert text,"
        "  permission text,"
        "  time_created integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  time_updated integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  time_compacting integer,"
        "  time_archived integer,"
        "  data text)"_s,
        u"CREATE INDEX session_project_idx ON session(project_id)"_s,
        u"CREATE INDEX session_parent_idx ON session(parent_id)"_s,
        u"CREATE TABLE message ("
        "  id text PRIMARY KEY,"
        "  session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
        "  time_created integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  time_updated integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  data text NOT NULL)"_s,
        u"CREATE INDEX message_session_idx ON message(session_id)"_s,
        u"CREATE TABLE part ("
        "  id text PRIMARY KEY,"
        "  message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE,"
        "  session_id text NOT NULL,"
        "  time_created integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  time_updated integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  data text NOT NULL)"_s,
        u"CREATE INDEX part_message_idx ON part(message_id)"_s,
        u"CREATE INDEX part_session_idx ON part(session_id)"_s,
        u"CREATE TABLE todo ("
        "  session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
        "  content text NOT NULL,"
        "  status text NOT NULL,"
        "  priority text NOT NULL,"
        "  position integer NOT NULL,"
        "  time_created integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  time_updated integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  PRIMARY KEY (session_id, position))"_s,
        u"CREATE TABLE permission ("
        "  project_id text PRIMARY KEY REFERENCES project(id) ON DELETE CASCADE,"
        "  time_created integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  time_updated integer NOT NULL DEFAULT " QCODE_NOW_MS ","
        "  data text NOT NULL)"_s,
    };
}

QStringList version2()
{
    return {
        u"ALTER TABLE session ADD COLUMN workspace_id text"_s,
        u"CREATE INDEX session_workspace_idx ON session(workspace_id)"_s,
        // History is read newest first by (time_created, id), parts by
        // (message_id, id): one index each serves those walks.
        u"DROP INDEX message_session_idx"_s,
        u"CREATE INDEX message_session_time_created_id_idx ON message(session_id, time_created, id)"_s,
        u"DROP INDEX part_message_idx"_s,
        u"CREATE INDEX part_message_id_id_idx ON part(message_id, id)"_s,
    };
}

#undef QCODE_NOW_MS

} // namespace

const QList<QStringList> &migrations()
{
    static const QList<QStringList> all{version1(), version2()};
    return all;
}

} // namespace qcode::StoreSchema
