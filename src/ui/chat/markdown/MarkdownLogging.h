#pragma once

#include <QLoggingCategory>

namespace qcode {

// The Markdown view: links it refused to open, resources it refused to load.
Q_DECLARE_LOGGING_CATEGORY(lcMarkdown)

} // namespace qcode
