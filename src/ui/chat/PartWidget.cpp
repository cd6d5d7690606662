#include "PartWidget.h"

namespace qcode {

void PartWidget::appendDelta(const Part &part, const Message &message, const QString &, const QString &)
{
    setPart(part, message);
}

} // namespace qcode
