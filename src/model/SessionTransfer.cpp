#include "SessionTransfer.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <set>

#include "Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QJsonArray withoutGrants(const QJsonArray &rules)
{
    QJsonArray kept;
    for (const QJsonValue &rule : rules) {
        const QString action = rule.toObject().value("action"_L1).toString();
        if (action == "deny"_L1 || action == "ask"_L1)
            kept.append(rule);
    }
    return kept;
}

// The first id of the export that is stored already, named with the
// session that holds it.
Result<void> findClash(Store &store, const SessionTransfer::Contents &contents)
{
    const Session &session = contents.session;
    auto existing = store.session(session.id);
    if (!existing)
        return existing.error();
    if (existing->has_value())
        return Error{SessionTransfer::tr("Session %1 (\"%2\") is already here. Delete it first to import this copy.")
                         .arg(session.id, (*existing)->title)};
    for (const MessageWithParts &message : contents.messages) {
        auto owner = store.sessionOfMessage(message.info.id());
        if (!owner)
            return owner.error();
        if (owner->has_value())
            return Error{SessionTransfer::tr("Message %1 of the export is already stored, in session %2. Nothing "
                                             "was imported: an import never replaces what is here.")
                             .arg(message.info.id(), **owner)};
        for (const Part &part : message.parts) {
            auto partOwner = store.sessionOfPart(part.id);
            if (!partOwner)
                return partOwner.error();
            if (partOwner->has_value())
                return Error{SessionTransfer::tr("Part %1 of the export is already stored, in session %2. Nothing "
                                                 "was imported: an import never replaces what is here.")
                                 .arg(part.id, **partOwner)};
        }
    }
    return {};
}

} // namespace

Result<QJsonObject> SessionTransfer::exportSession(Store &store, const QString &sessionID)
{
    auto session = store.session(sessionID);
    if (!session)
        return session.error();
    if (!session->has_value())
        return Error{tr("There is no session %1 to export.").arg(sessionID)};
    auto messages = store.messages(sessionID);
    if (!messages)
        return messages.error();
    QJsonArray list;
    for (const MessageWithParts &m : *messages)
        list.append(m.toJson());
    return QJsonObject{{"info"_L1, (*session)->toJson()}, {"messages"_L1, list}};
}

QByteArray SessionTransfer::toBytes(const QJsonObject &exported)
{
    return QJsonDocument(exported).toJson(QJsonDocument::Indented);
}

Result<SessionTransfer::Contents> SessionTransfer::read(const QByteArray &json)
{
    if (json.trimmed().isEmpty())
        return Error{tr("This is not a session export: it is empty.")};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Error{tr("This is not a session export: the JSON is invalid at byte %1 (%2).")
                         .arg(error.offset)
                         .arg(error.errorString())};
    if (!doc.isObject())
        return Error{tr("This is not a session export: expected an object with \"info\" and \"messages\".")};
    return read(doc.object());
}

Result<SessionTransfer::Contents> SessionTransfer::read(const QJsonObject &exported)
{
    if (!exported.value("info"_L1).isObject() || !exported.value("messages"_L1).isArray())
        return Error{tr("This is not a session export: expected an object with \"info\" and \"messages\".")};
    auto parsed = Session::fromJson(exported.value("info"_L1).toObject());
    if (!parsed)
        return Error{tr("The exported session is invalid: %1").arg(parsed.error().message)};
    Contents contents{std::move(parsed).value(), {}};
    Session &session = contents.session;
    if (session.projectID.isEmpty())
        session.projectID = u"global"_s;
    // What a file cannot bring along: a place under another session here
    // (its parent is not in the file), permissions granted (only rules
    // that deny or ask are kept: a file may narrow, never allow), and a
    // revert point, which names this machine's file snapshots.
    session.parentID.reset();
    session.revert.reset();
    if (session.permission)
        session.permission = withoutGrants(*session.permission);
    std::set<QString> messageIDs;
    std::set<QString> partIDs;

    const QJsonArray list = exported.value("messages"_L1).toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        auto message = MessageWithParts::fromJson(list.at(i).toObject());
        if (!message)
            return Error{tr("Message %1 of the export is invalid: %2").arg(i + 1).arg(message.error().message)};
        if (message->info.sessionID() != session.id)
            return Error{tr("Message %1 belongs to session %2, not to the exported session %3.")
                             .arg(message->info.id(), message->info.sessionID(), session.id)};
        if (!messageIDs.insert(message->info.id()).second)
            return Error{tr("Message %1 is in the export twice.").arg(message->info.id())};
        for (const Part &part : message->parts) {
            if (part.sessionID != session.id)
                return Error{tr("Part %1 belongs to session %2, not to the exported session %3.")
                                 .arg(part.id, part.sessionID, session.id)};
            if (part.messageID != message->info.id())
                return Error{tr("Part %1 belongs to message %2, not to the message %3 it is listed under.")
                                 .arg(part.id, part.messageID, message->info.id())};
            if (!partIDs.insert(part.id).second)
                return Error{tr("Part %1 is in the export twice.").arg(part.id)};
        }
        contents.messages.append(std::move(message).value());
    }
    // An answer names the question it answers: within the export, so it
    // cannot point into a session already here.
    for (const MessageWithParts &message : std::as_const(contents.messages)) {
        if (const AssistantMessage *assistant = message.info.assistant();
            assistant && !assistant->parentID.isEmpty() && !messageIDs.contains(assistant->parentID))
            return Error{tr("Message %1 answers message %2, which is not in the export.")
                             .arg(assistant->id, assistant->parentID)};
    }
    return contents;
}

Result<QString> SessionTransfer::write(Store &store, const Contents &contents)
{
    const Session &session = contents.session;
    // Inserts only, in one transaction: an id that is stored already is
    // refused, never updated from the file, so an import cannot rewrite
    // another session's history; a refusal leaves the database as it was.
    auto written = store.transaction([&]() -> Result<void> {
        if (auto clash = findClash(store, contents); !clash)
            return clash;
        auto project = store.project(session.projectID);
        if (!project)
            return project.error();
        if (!project->has_value()) {
            Project created;
            created.id = session.projectID;
            created.worktree = session.directory;
            if (auto ok = store.upsertProject(created); !ok)
                return ok;
        }
        if (auto ok = store.insertSession(session); !ok)
            return ok;
        for (const MessageWithParts &message : contents.messages) {
            if (auto ok = store.insertMessage(message.info); !ok)
                return ok;
            for (const Part &part : message.parts) {
                if (auto ok = store.insertPart(part); !ok)
                    return ok;
            }
        }
        return {};
    });
    if (!written)
        return written.error();
    return session.id;
}

Result<QString> SessionTransfer::importSession(Store &store, const QByteArray &json)
{
    Result<Contents> contents = read(json);
    if (!contents)
        return contents.error();
    return write(store, *contents);
}

Result<QString> SessionTransfer::importSession(Store &store, const QJsonObject &exported)
{
    Result<Contents> contents = read(exported);
    if (!contents)
        return contents.error();
    return write(store, *contents);
}

} // namespace qcode
