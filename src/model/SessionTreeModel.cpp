#include "SessionTreeModel.h"

#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// OpenCode names a session "New session - <ISO time>" until its title
// arrives; people read "New session" (a subagent's, "Subagent session").
QString shownTitle(const Session &session)
{
    static const QRegularExpression generatedTitle(
        u"^(New session|Child session) - [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"_s);
    const QRegularExpressionMatch match = generatedTitle.match(session.title);
    if (!match.hasMatch())
        return session.title;
    return match.captured(1) == "Child session"_L1 ? SessionTreeModel::tr("Subagent session")
                                                   : SessionTreeModel::tr("New session");
}

} // namespace

SessionTreeModel::SessionTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

SessionTreeModel::~SessionTreeModel() = default;

void SessionTreeModel::setSessions(const QString &projectID, const QList<Session> &sessions)
{
    beginResetModel();
    m_projectID = projectID;
    m_roots.clear();
    m_nodes.clear();
    for (const Session &session : sessions) {
        auto node = std::make_unique<Node>();
        node->session = session;
        m_nodes[session.id] = std::move(node);
    }
    // Parents are linked only once every node exists, whatever the order
    // the sessions came in; a child whose parent is not listed is a root.
    for (auto &[id, node] : m_nodes) {
        Node *parent = node->session.parentID ? find(*node->session.parentID) : nullptr;
        node->parent = parent;
        siblingsOf(parent).append(node.get());
    }
    const auto byId = [](const Node *a, const Node *b) { return a->session.id < b->session.id; };
    std::sort(m_roots.begin(), m_roots.end(), byId);
    for (auto &[id, node] : m_nodes)
        std::sort(node->children.begin(), node->children.end(), byId);
    endResetModel();
}

void SessionTreeModel::upsert(const Session &session)
{
    if (session.projectID != m_projectID)
        return;
    if (Node *existing = find(session.id)) {
        existing->session = session;
        changed(existing);
        return;
    }
    auto node = std::make_unique<Node>();
    node->session = session;
    node->parent = session.parentID ? find(*session.parentID) : nullptr;
    insert(std::move(node));
}

void SessionTreeModel::insert(std::unique_ptr<Node> node)
{
    QList<Node *> &siblings = siblingsOf(node->parent);
    const int row = insertionRow(siblings, node->session.id);
    Node *raw = node.get();
    beginInsertRows(indexOf(node->parent), row, row);
    m_nodes[raw->session.id] = std::move(node);
    siblings.insert(row, raw);
    endInsertRows();
    adoptOrphansOf(raw);
}

// A child that arrived before its parent was shown as a root; once the
// parent is there it moves below it.
void SessionTreeModel::adoptOrphansOf(Node *parent)
{
    QList<Node *> orphans;
    for (Node *root : std::as_const(m_roots)) {
        if (root->session.parentID == parent->session.id)
            orphans.append(root);
    }
    for (Node *orphan : orphans) {
        const int from = int(m_roots.indexOf(orphan));
        const int to = insertionRow(parent->children, orphan->session.id);
        beginMoveRows(QModelIndex(), from, from, indexOf(parent), to);
        m_roots.removeAt(from);
        parent->children.insert(to, orphan);
        orphan->parent = parent;
        endMoveRows();
    }
}

void SessionTreeModel::remove(const QString &sessionID)
{
    Node *node = find(sessionID);
    if (!node)
        return;
    QList<Node *> &siblings = siblingsOf(node->parent);
    const int row = int(siblings.indexOf(node));
    beginRemoveRows(indexOf(node->parent), row, row);
    siblings.removeAt(row);
    forget(node);
    endRemoveRows();
}

void SessionTreeModel::forget(Node *node)
{
    const QList<Node *> children = node->children;
    for (Node *child : children)
        forget(child);
    m_nodes.erase(node->session.id);
}

void SessionTreeModel::setBusy(const QString &sessionID, bool busy)
{
    Node *node = find(sessionID);
    if (!node || node->busy == busy)
        return;
    node->busy = busy;
    changed(node, {BusyRole});
}

void SessionTreeModel::setWaiting(const QSet<QString> &sessionIDs)
{
    for (auto &[id, node] : m_nodes) {
        const bool waiting = sessionIDs.contains(id);
        if (node->waiting != waiting) {
            node->waiting = waiting;
            changed(node.get(), {WaitingRole});
        }
    }
}

QModelIndex SessionTreeModel::indexOf(const QString &sessionID) const
{
    const Node *node = find(sessionID);
    return node ? indexOf(node) : QModelIndex();
}

const Session *SessionTreeModel::session(const QString &sessionID) const
{
    const Node *node = find(sessionID);
    return node ? &node->session : nullptr;
}

QString SessionTreeModel::rootOf(const QString &sessionID) const
{
    const Node *node = find(sessionID);
    if (!node)
        return sessionID;
    while (node->parent)
        node = node->parent;
    return node->session.id;
}

QSet<QString> SessionTreeModel::descendants(const QString &sessionID) const
{
    QSet<QString> found;
    const Node *node = find(sessionID);
    if (!node)
        return found;
    QList<const Node *> pending(node->children.begin(), node->children.end());
    while (!pending.isEmpty()) {
        const Node *next = pending.takeLast();
        found.insert(next->session.id);
        pending.append(QList<const Node *>(next->children.begin(), next->children.end()));
    }
    return found;
}

QModelIndex SessionTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column != 0 || row < 0)
        return {};
    const QList<Node *> &siblings = siblingsOf(nodeOf(parent));
    if (row >= siblings.size())
        return {};
    return createIndex(row, 0, siblings.at(row));
}

QModelIndex SessionTreeModel::parent(const QModelIndex &child) const
{
    const Node *node = nodeOf(child);
    return node && node->parent ? indexOf(node->parent) : QModelIndex();
}

int SessionTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(siblingsOf(nodeOf(parent)).size());
}

int SessionTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QVariant SessionTreeModel::data(const QModelIndex &index, int role) const
{
    const Node *node = nodeOf(index);
    if (!node)
        return {};
    const Session &s = node->session;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return shownTitle(s);
    case TitleRole: return s.title;
    case Qt::ToolTipRole: {
        const QString created = QLocale().toString(QDateTime::fromMSecsSinceEpoch(s.time.created), QLocale::ShortFormat);
        const QString updated = QLocale().toString(QDateTime::fromMSecsSinceEpoch(s.time.updated), QLocale::ShortFormat);
        QString tip = tr("%1\nCreated %2, last active %3").arg(shownTitle(s), created, updated);
        if (node->waiting)
            tip += u'\n' + tr("Waiting for your answer");
        else if (node->busy)
            tip += u'\n' + tr("Working…");
        return tip;
    }
    case IdRole: return s.id;
    case ParentIdRole: return s.parentID.value_or(QString());
    case DirectoryRole: return s.directory;
    case CreatedRole: return s.time.created;
    case UpdatedRole: return s.time.updated;
    case SessionRole: return QVariant::fromValue(s);
    case BusyRole: return node->busy;
    case WaitingRole: return node->waiting;
    default: return {};
    }
}

bool SessionTreeModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    const Node *node = nodeOf(index);
    if (!node || role != Qt::EditRole)
        return false;
    const QString title = value.toString().simplified();
    if (title.isEmpty() || title == node->session.title)
        return false;
    Q_EMIT renameRequested(node->session.id, title);
    return true;
}

Qt::ItemFlags SessionTreeModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags flags = QAbstractItemModel::flags(index);
    return index.isValid() ? flags | Qt::ItemIsEditable : flags;
}

QHash<int, QByteArray> SessionTreeModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(IdRole, "sessionId");
    names.insert(TitleRole, "title");
    names.insert(ParentIdRole, "parentId");
    names.insert(DirectoryRole, "directory");
    names.insert(CreatedRole, "created");
    names.insert(UpdatedRole, "updated");
    names.insert(SessionRole, "session");
    names.insert(BusyRole, "busy");
    names.insert(WaitingRole, "waiting");
    return names;
}

SessionTreeModel::Node *SessionTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : nullptr;
}

SessionTreeModel::Node *SessionTreeModel::find(const QString &sessionID) const
{
    const auto found = m_nodes.find(sessionID);
    return found == m_nodes.end() ? nullptr : found->second.get();
}

QList<SessionTreeModel::Node *> &SessionTreeModel::siblingsOf(Node *parent)
{
    return parent ? parent->children : m_roots;
}

const QList<SessionTreeModel::Node *> &SessionTreeModel::siblingsOf(const Node *parent) const
{
    return parent ? parent->children : m_roots;
}

QModelIndex SessionTreeModel::indexOf(const Node *node) const
{
    if (!node)
        return {};
    const QList<Node *> &siblings = siblingsOf(node->parent);
    return createIndex(int(siblings.indexOf(const_cast<Node *>(node))), 0, const_cast<Node *>(node));
}

int SessionTreeModel::insertionRow(const QList<Node *> &siblings, const QString &id)
{
    const auto it = std::lower_bound(siblings.begin(), siblings.end(), id,
                                     [](const Node *node, const QString &key) { return node->session.id < key; });
    return int(it - siblings.begin());
}

void SessionTreeModel::changed(Node *node, const QList<int> &roles)
{
    const QModelIndex at = indexOf(node);
    Q_EMIT dataChanged(at, at, roles);
}

} // namespace qcode
