#pragma once

#include <QAbstractItemModel>
#include <QHash>
#include <QList>
#include <QSet>

#include <memory>
#include <unordered_map>

#include "Session.h"

namespace qcode {

// The sessions of one project, for the sidebar: root sessions newest first,
// each with its child (subagent) sessions nested below it, newest first, at
// any depth. Filled once with setSessions(); after that the engine's session
// events are applied node by node (insert, dataChanged, remove), never by
// resetting the model, so selection, expansion and scroll survive.
//
// Besides the stored session it carries what the sidebar shows about a
// running session: whether it is busy (or waiting to retry), and whether a
// question to the person is waiting in it.
class SessionTreeModel : public QAbstractItemModel
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
        BusyRole,    // bool: a prompt runs (or waits to retry)
        WaitingRole, // bool: a permission or question waits for the person
    };

    explicit SessionTreeModel(QObject *parent = nullptr);
    ~SessionTreeModel() override;

    QString projectID() const { return m_projectID; }
    void setSessions(const QString &projectID, const QList<Session> &sessions);

    // A session of another project is ignored.
    void upsert(const Session &session);
    // Removes the session and everything nested below it.
    void remove(const QString &sessionID);
    void setBusy(const QString &sessionID, bool busy);
    void setWaiting(const QSet<QString> &sessionIDs);

    QModelIndex indexOf(const QString &sessionID) const;
    const Session *session(const QString &sessionID) const;
    // The root session above `sessionID` (itself when it is a root).
    QString rootOf(const QString &sessionID) const;
    // Every session nested below `sessionID`, at any depth.
    QSet<QString> descendants(const QString &sessionID) const;
    int sessionCount() const { return int(m_nodes.size()); }

    QModelIndex index(int row, int column, const QModelIndex &parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // Titles are editable in place; the edit is a request (renameRequested),
    // and the title changes when the engine reports the session updated.
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    void renameRequested(const QString &sessionID, const QString &title);

private:
    struct Node {
        Session session;
        Node *parent = nullptr;
        QList<Node *> children; // ordered by id: session ids descend in time
        bool busy = false;
        bool waiting = false;
    };

    Node *nodeOf(const QModelIndex &index) const;
    Node *find(const QString &sessionID) const;
    QList<Node *> &siblingsOf(Node *parent);
    const QList<Node *> &siblingsOf(const Node *parent) const;
    QModelIndex indexOf(const Node *node) const;
    static int insertionRow(const QList<Node *> &siblings, const QString &id);
    void insert(std::unique_ptr<Node> node);
    void adoptOrphansOf(Node *parent);
    void forget(Node *node);
    void changed(Node *node, const QList<int> &roles = {});

    QString m_projectID;
    QList<Node *> m_roots;
    std::unordered_map<QString, std::unique_ptr<Node>> m_nodes;
};

} // namespace qcode
