#include "FinishReason.h"

using namespace Qt::StringLiterals;

namespace qcode {

QString finishReasonName(FinishReason reason)
{
    switch (reason) {
    case FinishReason::Stop: return u"stop"_s;
    case FinishReason::Length: return u"length"_s;
    case FinishReason::ToolCalls: return u"tool-calls"_s;
    case FinishReason::ContentFilter: return u"content-filter"_s;
    case FinishReason::Error: return u"error"_s;
    case FinishReason::Other: return u"other"_s;
    case FinishReason::Unknown: break;
    }
    return u"unknown"_s;
}

} // namespace qcode
