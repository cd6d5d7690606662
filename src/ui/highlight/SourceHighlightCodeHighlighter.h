#pragma once

#ifdef QCODE_HAVE_SOURCE_HIGHLIGHT

#include "CodeHighlighter.h"

namespace qcode {

// GNU Source-highlight's library (srchilite): its .lang definitions, one
// srchilite::SourceHighlighter per language, and per language a table that
// turns srchilite's state stacks into the ints QSyntaxHighlighter keeps per
// block. srchilite throws on broken definitions and odd input: every call is
// guarded, and the line is then simply left plain.
class SourceHighlightCodeHighlighter : public CodeHighlighter
{
public:
    // Null when the library's data folder (with its lang.map) is missing.
    static std::unique_ptr<SourceHighlightCodeHighlighter> tryCreate();
    ~SourceHighlightCodeHighlighter() override;

    QString backendName() const override;
    bool knowsLanguage(const QString &language) const override;
    int highlightLine(const QString &language, const QString &line, int state, QList<HighlightSpan> &spans) override;
    void setDark(bool dark) override;

private:
    struct Private;
    explicit SourceHighlightCodeHighlighter(std::unique_ptr<Private> d);

    std::unique_ptr<Private> m_d;
};

} // namespace qcode

#endif
