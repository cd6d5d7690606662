#pragma once

#include <QList>
#include <QStringList>

namespace qcode::StoreSchema {

// Migration N (1-based) takes a database from user_version N-1 to N. They
// retrace OpenCode's own history: version 1 is 1.2.1's tables, version 2 the
// later 1.2.x indices and workspace column. Never edit a shipped migration;
// append a new one.
const QList<QStringList> &migrations();

} // namespace qcode::StoreSchema
