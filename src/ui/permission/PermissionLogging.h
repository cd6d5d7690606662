#pragma once

#include <QLoggingCategory>

namespace qcode {

// The permission and question dialogs and their queue: asks shown, held
// back for a hidden session, answered, withdrawn.
Q_DECLARE_LOGGING_CATEGORY(lcPermissionUi)

} // namespace qcode
