#pragma once

#include <QList>
#include <QSet>
#include <QString>

#include "PromptInput.h"

namespace qcode {

// OpenCode's resolvePromptParts (reference 2.6, last bullet), for command
// templates and task prompts: the template as one text part, then for each
// distinct `@token` (an "@" not after a word character or backtick) a file
// part for an existing file (text/plain) or folder
// (application/x-directory), else an agent part when the token names a
// known agent. "~/" is the home folder; other paths are taken from the
// worktree. It only checks that paths exist, so it is quick enough for any
// thread.
class PromptPartResolver
{
public:
    static QList<PromptPart> resolve(const QString &templateText, const QString &worktree,
                                     const QSet<QString> &agentNames, const QString &homePath);
};

} // namespace qcode
