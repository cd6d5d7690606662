#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariantList>

#include <functional>
#include <memory>
#include <optional>

#include "Message.h"
#include "Part.h"
#include "Project.h"
#include "Result.h"
#include "Session.h"
#include "Todo.h"

class QThread;

namespace qcode {

// Where a newest-first walk over a session's messages goes on from.
struct MessageCursor {
    qint64 timeCreated = 0;
    QString id;
};

struct MessagePage {
    QList<MessageWithParts> messages; // newest first
    std::optional<MessageCursor> next; // absent on the last page
};

// What one assistant message cost and used (the context meter's figures).
struct MessageUsage {
    QString id;
    double cost = 0;
    TokenUsage tokens;
};

struct StoreOptions {
    int busyTimeoutMs = 5000; // how long a write waits for another writer
};

// The SQLite store of projects, sessions, messages, parts, todos and
// permission rules (OpenCode's tables, reference 1.5). One Store is one
// named connection: open it on the thread that uses it, and only there.
// Every expected failure is a Result whose message names the file and says
// what to do; a file that is not a usable qcode database is never written.
class Store
{
    Q_DECLARE_TR_FUNCTIONS(Store)

public:
    static constexpr int PageSize = 50;

    static Result<std::unique_ptr<Store>> open(const QString &path, StoreOptions options = {});
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    QString path() const { return m_path; }
    static int latestSchemaVersion();

    // Runs body in one transaction (nested calls join the outer one).
    Result<void> transaction(const std::function<Result<void>()> &body);

    Result<void> upsertProject(const Project &project);
    Result<std::optional<Project>> project(const QString &id);
    Result<std::optional<Project>> projectForWorktree(const QString &worktree);

    Result<void> upsertSession(const Session &session);
    // Inserts only: a session whose id is stored already fails, nothing
    // replaced. For data from outside (an import).
    Result<void> insertSession(const Session &session);
    Result<std::optional<Session>> session(const QString &id);
    Result<QList<Session>> sessions(const QString &projectID); // newest first, children included
    Result<QList<Session>> allSessions(); // every project's, newest first, children included
    Result<QList<Session>> children(const QString &parentID);
    // Removes the session and, first, its child sessions at every depth;
    // returns the removed ids, children before their parents.
    Result<QStringList> removeSession(const QString &id);

    // Upserts: insert, or replace the data and keep time_created.
    Result<void> updateMessage(const Message &message);
    Result<void> updatePart(const Part &part);
    // Inserts only, for data from outside (an import): an id that is stored
    // already fails, and the stored row is left as it was.
    Result<void> insertMessage(const Message &message);
    Result<void> insertPart(const Part &part);
    // The session a stored message or part belongs to; none when the id is
    // not stored.
    Result<std::optional<QString>> sessionOfMessage(const QString &messageID);
    Result<std::optional<QString>> sessionOfPart(const QString &partID);
    Result<void> removeMessage(const QString &messageID);
    Result<void> removePart(const QString &partID);

    Result<std::optional<MessageWithParts>> message(const QString &messageID);
    Result<QList<Part>> parts(const QString &messageID); // ordered by id
    // Newest first, PageSize at a time, keyset on (time_created, id).
    Result<MessagePage> messagePage(const QString &sessionID, const std::optional<MessageCursor> &before = {},
                                    int limit = PageSize);
    Result<QList<MessageWithParts>> messages(const QString &sessionID); // oldest first, all
    // Every message of the session as (time_created, id), oldest first,
    // read from the index alone: the chat view's rows, before any content.
    Result<QList<MessageCursor>> messageIndex(const QString &sessionID);
    // The session's newest user message, without its parts: the agent and
    // model it asked for are the session's own.
    Result<std::optional<Message>> lastUserMessage(const QString &sessionID);
    // The messages with these ids and their parts, in the order asked;
    // ids that are not stored are left out.
    Result<QList<MessageWithParts>> messagesById(const QStringList &ids);
    // The cost and tokens of every assistant message of the session, oldest
    // first, without reading their parts.
    Result<QList<MessageUsage>> usage(const QString &sessionID);
    Result<QList<MessageWithParts>> history(const QString &sessionID);  // oldest first, filterCompacted
    // Tool parts still pending or running — after a crash, the ones a dead
    // qcode left — of one session, or of every session when it is empty;
    // compacted history included.
    Result<QList<Part>> unfinishedToolParts(const QString &sessionID = {});

    Result<void> setTodos(const QString &sessionID, const QList<Todo> &todos);
    Result<QList<Todo>> todos(const QString &sessionID);

    Result<std::optional<QJsonArray>> permission(const QString &projectID);
    Result<void> setPermission(const QString &projectID, const QJsonArray &ruleset);

private:
    Store(QString path, QString connectionName);

    Result<void> configure(const StoreOptions &options);
    Result<void> migrate();
    Result<void> checkThread() const;
    Error failure(const QString &what, const QString &sqliteMessage) const;
    QSqlDatabase database() const;

    // The statement for sql, prepared once per connection.
    Result<QSqlQuery *> prepare(const QString &sql);
    // Runs sql with values bound in order; `what` names the action in an
    // error ("save part prt_…").
    Result<void> run(const QString &sql, const QVariantList &values, const QString &what);
    // Runs a query and hands each row to onRow, stopping at the first error.
    Result<void> forEachRow(const QString &sql, const QVariantList &values, const QString &what,
                            const std::function<Result<void>(const QSqlQuery &)> &onRow);
    Result<QList<Session>> sessionsWhere(const QString &column, const QString &value, const QString &what);
    Result<QList<Part>> partsOf(const QStringList &messageIDs, QHash<QString, QList<Part>> *grouped);

    QString m_path;
    QString m_connectionName;
    QThread *m_thread = nullptr;
    int m_transactionDepth = 0;
    QHash<QString, QSqlQuery> m_statements;
};

} // namespace qcode
