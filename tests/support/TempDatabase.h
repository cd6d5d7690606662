#pragma once

#include <QString>
#include <QTemporaryDir>

#include <memory>

#include "model/Store.h"

namespace qcode::test {

// A fresh database file in a temporary folder that disappears with the
// object, plus helpers to fill it with a project and sessions.
class TempDatabase
{
public:
    TempDatabase();

    QString path() const;
    QString folder() const { return m_dir.path(); }
    // Opens (another) connection to the file on the calling thread; fails
    // the calling test when the store cannot be opened.
    std::unique_ptr<Store> open(StoreOptions options = {}) const;

private:
    QTemporaryDir m_dir;
};

Project makeProject(const QString &id = QStringLiteral("global"), const QString &worktree = QStringLiteral("/work"));
Session makeSession(const QString &projectID = QStringLiteral("global"), const QString &parentID = {});
Message makeUserMessage(const QString &sessionID, qint64 created = 0);
Message makeAssistantMessage(const QString &sessionID, const QString &parentID, qint64 created = 0);
Part makeTextPart(const QString &sessionID, const QString &messageID, const QString &text);

} // namespace qcode::test
