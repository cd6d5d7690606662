#include "ToolCardLogging.h"

Q_LOGGING_CATEGORY(lcToolCard, "qcode.ui.tool")
