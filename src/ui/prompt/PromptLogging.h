#pragma once

#include <QLoggingCategory>

namespace qcode {

// The prompt box: attachments taken or refused, project file listings.
Q_DECLARE_LOGGING_CATEGORY(lcPrompt)

} // namespace qcode
