#include "SessionFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include "SessionMarkdown.h"
#include "SessionTransfer.h"
#include "Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

SessionFiles::Format SessionFiles::formatOf(const QString &filePath)
{
    return QFileInfo(filePath).suffix().compare("json"_L1, Qt::CaseInsensitive) == 0 ? Format::Json : Format::Markdown;
}

Result<QByteArray> SessionFiles::render(const QString &databasePath, const QString &sessionID, Format format)
{
    Result<std::unique_ptr<Store>> store = Store::open(databasePath);
    if (!store)
        return store.error();
    if (format == Format::Json) {
        const Result<QJsonObject> exported = SessionTransfer::exportSession(**store, sessionID);
        if (!exported)
            return exported.error();
        return SessionTransfer::toBytes(*exported);
    }
    const Result<std::optional<Session>> session = (*store)->session(sessionID);
    if (!session)
        return session.error();
    if (!*session)
        return Error(tr("Session %1 does not exist.").arg(sessionID));
    const Result<QList<MessageWithParts>> messages = (*store)->messages(sessionID);
    if (!messages)
        return messages.error();
    return SessionMarkdown::render(**session, *messages).toUtf8();
}

Result<void> SessionFiles::exportTo(const QString &databasePath, const QString &sessionID, const QString &filePath)
{
    return exportTo(databasePath, sessionID, filePath, formatOf(filePath));
}

Result<void> SessionFiles::exportTo(const QString &databasePath, const QString &sessionID, const QString &filePath,
                                    Format format)
{
    const Result<QByteArray> bytes = render(databasePath, sessionID, format);
    if (!bytes)
        return bytes.error();
    QSaveFile file(filePath);
    if (!file.open(QIODevice::WriteOnly))
        return Error(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(filePath), file.errorString()));
    file.write(*bytes);
    if (!file.commit())
        return Error(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(filePath), file.errorString()));
    return {};
}

Result<QString> SessionFiles::importFrom(const QString &databasePath, const QString &filePath)
{
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly))
        return Error(tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(filePath), file.errorString()));
    if (file.size() > MaxImportBytes)
        return Error(tr("%1 is too large to be a session export (%2 MB).")
                         .arg(QDir::toNativeSeparators(filePath))
                         .arg(file.size() / (1024 * 1024)));
    const Result<Session> imported = importJson(databasePath, file.readAll());
    if (!imported)
        return imported.error();
    return imported->id;
}

Result<Session> SessionFiles::importJson(const QString &databasePath, const QByteArray &json)
{
    Result<SessionTransfer::Contents> contents = SessionTransfer::read(json);
    if (!contents)
        return contents.error();
    Result<std::unique_ptr<Store>> store = Store::open(databasePath);
    if (!store)
        return store.error();
    const Result<QString> written = SessionTransfer::write(**store, *contents);
    if (!written)
        return written.error();
    return contents->session;
}

} // namespace qcode
