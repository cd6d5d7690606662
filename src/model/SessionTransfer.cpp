#include "SessionTransfer.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include "Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

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

    const QJsonArray list = exported.value("messages"_L1).toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        auto message = MessageWithParts::fromJson(list.at(i).toObject());
        if (!message)
            return Error{tr("Message %1 of the export is invalid: %2").arg(i + 1).arg(message.error().message)};
        if (message->info.sessionID() != session.id)
            return Error{tr("Message %1 belongs to session %2, not to the exported session %3.")
                             .arg(message->info.id(), message->info.sessionID(), session.id)};
        for (const Part &part : message->parts) {
            if (part.sessionID != session.id)
                return Error{tr("Part %1 belongs to session %2, not to the exported session %3.")
                                 .arg(part.id, part.sessionID, session.id)};
        }
        contents.messages.append(std::move(message).value());
    }
    return contents;
}

Result<QString> SessionTransfer::write(Store &store, const Contents &contents)
{
    const Session &session = contents.session;
    auto existing = store.session(session.id);
    if (!existing)
        return existing.error();
    if (existing->has_value())
        return Error{tr("Session %1 (\"%2\") is already here. Delete it first to import this copy.")
                         .arg(session.id, (*existing)->title)};

    auto written = store.transaction([&]() -> Result<void> {
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
        if (auto ok = store.upsertSession(session); !ok)
            return ok;
        for (const MessageWithParts &message : contents.messages) {
            if (auto ok = store.updateMessage(message.info); !ok)
                return ok;
            for (const Part &part : message.parts) {
                if (auto ok = store.updatePart(part); !ok)
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
