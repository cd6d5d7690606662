#include "ChatContext.h"

#include <QDateTime>

namespace qcode {

qint64 ChatContext::now() const
{
    return clock ? clock() : QDateTime::currentMSecsSinceEpoch();
}

} // namespace qcode
