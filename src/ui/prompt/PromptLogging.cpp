#include "PromptLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcPrompt, "qcode.ui.prompt", QtInfoMsg)

} // namespace qcode
