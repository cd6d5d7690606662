#include "SessionListModel.h"

#include <QDateTime>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

bool byId(const Session &a, const QString &id) { return a.id < id; }

} // namespace

SessionListModel::SessionListModel(QObject *parent) : QAbstractListModel(parent) {}

void SessionListModel::setSessions(const QString &projectID, QList<Session> sessions)
{
    beginResetModel();
    m_projectID = projectID;
    m_sessions = std::move(sessions);
    std::sort(m_sessions.begin(), m_sessions.end(), [](const Session &a, const Session &b) { return a.id < b.id; });
    endResetModel();
}

void SessionListModel::upsert(const Session &session)
{
    if (session.projectID != m_projectID)
        return;
    const auto it = std::lower_bound(m_sessions.begin(), m_sessions.end(), session.id, byId);
    const int row = int(it - m_sessions.begin());
    if (it != m_sessions.end() && it->id == session.id) {
        *it = session;
        Q_EMIT dataChanged(index(row), index(row));
        return;
    }
    beginInsertRows(QModelIndex(), row, row);
    m_sessions.insert(row, session);
    endInsertRows();
}

void SessionListModel::remove(const QString &sessionID)
{
    const int row = rowOf(sessionID);
    if (row < 0)
        return;
    beginRemoveRows(QModelIndex(), row, row);
    m_sessions.removeAt(row);
    endRemoveRows();
}

int SessionListModel::rowOf(const QString &sessionID) const
{
    const auto it = std::lower_bound(m_sessions.begin(), m_sessions.end(), sessionID, byId);
    return it != m_sessions.end() && it->id == sessionID ? int(it - m_sessions.begin()) : -1;
}

const Session *SessionListModel::sessionAt(int row) const
{
    return row >= 0 && row < m_sessions.size() ? &m_sessions[row] : nullptr;
}

int SessionListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sessions.size());
}

QVariant SessionListModel::data(const QModelIndex &index, int role) const
{
    const Session *s = index.isValid() ? sessionAt(index.row()) : nullptr;
    if (!s)
        return {};
    switch (role) {
    case Qt::DisplayRole:
    case TitleRole: return s->title;
    case Qt::ToolTipRole:
        return tr("%1\nCreated %2").arg(s->title, QDateTime::fromMSecsSinceEpoch(s->time.created).toString(Qt::TextDate));
    case IdRole: return s->id;
    case ParentIdRole: return s->parentID.value_or(QString());
    case DirectoryRole: return s->directory;
    case CreatedRole: return s->time.created;
    case UpdatedRole: return s->time.updated;
    case SessionRole: return QVariant::fromValue(*s);
    default: return {};
    }
}

QHash<int, QByteArray> SessionListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "sessionId");
    names.insert(TitleRole, "title");
    names.insert(ParentIdRole, "parentId");
    names.insert(DirectoryRole, "directory");
    names.insert(CreatedRole, "created");
    names.insert(UpdatedRole, "updated");
    names.insert(SessionRole, "session");
    return names;
}

} // namespace qcode
