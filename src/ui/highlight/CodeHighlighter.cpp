#include "CodeHighlighter.h"

#include "HighlightLogging.h"
#include "PlainCodeHighlighter.h"

#ifdef QCODE_HAVE_KSYNTAXHIGHLIGHTING
#include "KSyntaxCodeHighlighter.h"
#endif
#ifdef QCODE_HAVE_SOURCE_HIGHLIGHT
#include "SourceHighlightCodeHighlighter.h"
#endif

namespace qcode {

CodeHighlighter::~CodeHighlighter() = default;

std::unique_ptr<CodeHighlighter> CodeHighlighter::create()
{
#ifdef QCODE_HAVE_KSYNTAXHIGHLIGHTING
    return std::make_unique<KSyntaxCodeHighlighter>();
#else
#ifdef QCODE_HAVE_SOURCE_HIGHLIGHT
    if (auto sourceHighlight = SourceHighlightCodeHighlighter::tryCreate())
        return sourceHighlight;
#endif
    qCInfo(lcHighlight) << "No highlighting library available; code is shown in plain monospace";
    return createPlain();
#endif
}

std::unique_ptr<CodeHighlighter> CodeHighlighter::createPlain()
{
    return std::make_unique<PlainCodeHighlighter>();
}

} // namespace qcode
