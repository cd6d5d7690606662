#include "SessionFilter.h"

#include "model/SessionTreeModel.h"

namespace qcode {

void SessionFilter::setSearch(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_search)
        return;
    m_search = trimmed;
    m_contentMatches.clear();
    invalidateFilter();
}

void SessionFilter::setContentMatches(const QString &text, const QStringList &sessionIDs)
{
    if (text.trimmed() != m_search)
        return;
    m_contentMatches = QSet<QString>(sessionIDs.begin(), sessionIDs.end());
    invalidateFilter();
}

bool SessionFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_search.isEmpty())
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (index.data(Qt::DisplayRole).toString().contains(m_search, Qt::CaseInsensitive))
        return true;
    return m_contentMatches.contains(index.data(SessionTreeModel::IdRole).toString());
}

} // namespace qcode
