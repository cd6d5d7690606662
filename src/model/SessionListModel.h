#pragma once

#include <QAbstractListModel>
#include <QList>

#include "Session.h"

namespace qcode {

// The sessions of one project, newest first, for the sidebar. Filled once
// with setSessions(); after that the engine's session created/updated/
// deleted events are applied row by row (insert, dataChanged, remove),
// never by resetting the model, so selection and scroll survive.
class SessionListModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        IdRole = Qt::UserRole + 1,
        TitleRole,
        ParentIdRole,
        DirectoryRole,
        CreatedRole,
        UpdatedRole,
        SessionRole, // the whole qcode::Session
    };

    explicit SessionListModel(QObject *parent = nullptr);

    QString projectID() const { return m_projectID; }
    void setSessions(const QString &projectID, QList<Session> sessions);

    // A session of another project is ignored.
    void upsert(const Session &session);
    void remove(const QString &sessionID);

    int rowOf(const QString &sessionID) const;
    const Session *sessionAt(int row) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    QString m_projectID;
    QList<Session> m_sessions; // ordered by id: session ids descend in time
};

} // namespace qcode
