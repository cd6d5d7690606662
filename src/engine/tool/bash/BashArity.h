#pragma once

#include <QString>
#include <QStringList>

namespace qcode {

// OpenCode's arity table (reference §8.5, §12.3): how many words name a
// command, for the "always" answer of a bash permission
// ("git checkout main" → "git checkout *").
class BashArity
{
public:
    // The words that name a command: the longest prefix of `tokens` found
    // in the table decides how many; an unknown command is its first word.
    static QStringList prefix(const QStringList &tokens);

    // The "always" pattern of a command: its arity prefix and " *".
    static QString alwaysPattern(const QStringList &tokens);
};

} // namespace qcode
