#pragma once

#include <QSet>
#include <QSortFilterProxyModel>

namespace qcode {

// The sidebar's search: a session is shown when its title contains the
// words searched for, or when its messages do (the ids a search of the
// database found, SessionSearch); a subagent session that matches keeps
// its parent shown.
class SessionFilter : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setSearch(const QString &text);
    QString search() const { return m_search; }
    // The sessions whose messages hold `text`; ignored unless it is still
    // what is searched for (an answer that came after more typing).
    void setContentMatches(const QString &text, const QStringList &sessionIDs);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_search;
    QSet<QString> m_contentMatches;
};

} // namespace qcode
