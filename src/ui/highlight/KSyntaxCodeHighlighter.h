#pragma once

#ifdef QCODE_HAVE_KSYNTAXHIGHLIGHTING

#include "CodeHighlighter.h"

namespace qcode {

// KDE's KSyntaxHighlighting: Kate's syntax definitions and its default light
// and dark themes. KSyntaxHighlighting's State is a value; a table per
// definition turns the states met at line ends into the ints
// QSyntaxHighlighter keeps per block.
class KSyntaxCodeHighlighter : public CodeHighlighter
{
public:
    KSyntaxCodeHighlighter();
    ~KSyntaxCodeHighlighter() override;

    QString backendName() const override;
    bool knowsLanguage(const QString &language) const override;
    int highlightLine(const QString &language, const QString &line, int state, QList<HighlightSpan> &spans) override;
    void setDark(bool dark) override;

private:
    struct Private;
    std::unique_ptr<Private> m_d;
};

} // namespace qcode

#endif
