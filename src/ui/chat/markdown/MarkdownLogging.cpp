#include "MarkdownLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcMarkdown, "qcode.ui.markdown", QtInfoMsg)

} // namespace qcode
