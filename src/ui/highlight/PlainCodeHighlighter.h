#pragma once

#include "CodeHighlighter.h"

namespace qcode {

// No colours at all: the caller's monospace font is the whole presentation.
class PlainCodeHighlighter : public CodeHighlighter
{
public:
    QString backendName() const override;
    bool knowsLanguage(const QString &language) const override;
    int highlightLine(const QString &language, const QString &line, int state, QList<HighlightSpan> &spans) override;
    void setDark(bool dark) override;
};

} // namespace qcode
