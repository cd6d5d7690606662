#pragma once

#ifdef QCODE_HAVE_SOURCE_HIGHLIGHT

#include <srchilite/highlightstate.h>
#include <srchilite/sourcehighlighter.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace srchilite {
class FormatterManager;
struct FormatterParams;
} // namespace srchilite

namespace qcode {

// One Source-highlight language: its highlighter, and the table of the
// states it has reached at line ends. srchilite's state is a current state
// plus a stack of states to return to; QSyntaxHighlighter keeps one int per
// block, so each distinct (current, stack) gets an int. 0 is the language's
// initial state.
class SourceHighlightLanguage
{
public:
    SourceHighlightLanguage(srchilite::HighlightStatePtr mainState, const srchilite::FormatterManager *formatters,
                            srchilite::FormatterParams *params);

    // Runs the highlighter over one line (UTF-8, without its line break),
    // starting from `state`; the formatters hear about every element.
    // Returns the state at the line's end. Throws what srchilite throws.
    int highlight(const std::string &line, int state);

    // A state for a line the caller chose not to colour: the same as before it.
    int validState(int state) const;

private:
    struct Snapshot {
        srchilite::HighlightStatePtr current;
        srchilite::HighlightStateStack stack;
    };

    int remember(const srchilite::HighlightStatePtr &current, const srchilite::HighlightStateStack &stack);

    std::unique_ptr<srchilite::SourceHighlighter> m_highlighter;
    std::vector<Snapshot> m_states;
    std::map<std::vector<const void *>, int> m_stateIndex;
};

} // namespace qcode

#endif
