#ifdef QCODE_HAVE_SOURCE_HIGHLIGHT

#include "SourceHighlightLanguage.h"

#include <srchilite/formatterparams.h>

namespace qcode {
namespace {

// Nested constructs (comments inside comments) push a state per level; past
// this depth the line end is treated as the initial state rather than
// remembering ever deeper stacks.
constexpr std::size_t MaxStateDepth = 64;
// States that replace back-references (heredoc delimiters) are fresh objects
// each time they are entered; past this many, new ones are not remembered.
constexpr std::size_t MaxStates = 4096;

} // namespace

SourceHighlightLanguage::SourceHighlightLanguage(srchilite::HighlightStatePtr mainState,
                                                 const srchilite::FormatterManager *formatters,
                                                 srchilite::FormatterParams *params)
    : m_highlighter(std::make_unique<srchilite::SourceHighlighter>(mainState))
{
    m_highlighter->setFormatterManager(formatters);
    m_highlighter->setFormatterParams(params);
    // Unoptimized, srchilite reports each element at its own start offset.
    m_highlighter->setOptimize(false);
    remember(mainState, {});
}

int SourceHighlightLanguage::validState(int state) const
{
    return state >= 0 && std::size_t(state) < m_states.size() ? state : 0;
}

int SourceHighlightLanguage::highlight(const std::string &line, int state)
{
    const Snapshot &before = m_states[std::size_t(validState(state))];
    m_highlighter->setCurrentState(before.current);
    // The highlighter pushes and pops its stack in place: give it a copy.
    m_highlighter->setStateStack(srchilite::HighlightStateStackPtr(new srchilite::HighlightStateStack(before.stack)));
    m_highlighter->highlightParagraph(line);
    return remember(m_highlighter->getCurrentState(), *m_highlighter->getStateStack());
}

int SourceHighlightLanguage::remember(const srchilite::HighlightStatePtr &current,
                                      const srchilite::HighlightStateStack &stack)
{
    if (stack.size() > MaxStateDepth)
        return 0;
    std::vector<const void *> key;
    key.reserve(stack.size() + 1);
    key.push_back(current.get());
    for (srchilite::HighlightStateStack rest = stack; !rest.empty(); rest.pop())
        key.push_back(rest.top().get());
    if (auto it = m_stateIndex.find(key); it != m_stateIndex.end())
        return it->second;
    if (m_states.size() >= MaxStates)
        return 0;
    m_states.push_back({current, stack});
    const int state = int(m_states.size() - 1);
    m_stateIndex.emplace(std::move(key), state);
    return state;
}

} // namespace qcode

#endif
