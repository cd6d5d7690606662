#include "PlainCodeHighlighter.h"

using namespace Qt::StringLiterals;

namespace qcode {

QString PlainCodeHighlighter::backendName() const
{
    return u"plain"_s;
}

bool PlainCodeHighlighter::knowsLanguage(const QString &) const
{
    return false;
}

int PlainCodeHighlighter::highlightLine(const QString &, const QString &, int, QList<HighlightSpan> &)
{
    return 0;
}

void PlainCodeHighlighter::setDark(bool) {}

} // namespace qcode
