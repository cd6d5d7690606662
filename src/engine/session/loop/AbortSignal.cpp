#include "AbortSignal.h"

namespace qcode {

void AbortSignal::abort()
{
    if (m_aborted)
        return;
    m_aborted = true;
    Q_EMIT aborted();
}

} // namespace qcode
