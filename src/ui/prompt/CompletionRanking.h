#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include "CompletionItem.h"
#include "PromptChoices.h"

namespace qcode {

// What the popups list for a query, best first, at most `limit` rows.
class CompletionRanking
{
    Q_DECLARE_TR_FUNCTIONS(CompletionRanking)

public:
    // Agents (primary and sub, marked) and project paths (files, and
    // folders ending in "/"). An empty query lists the agents, then the
    // paths as given (newest first).
    static QList<CompletionItem> mentions(const QString &query, const QList<AgentChoice> &agents,
                                          const QStringList &paths, qsizetype limit);
    // Built-in and custom slash commands by name.
    static QList<CompletionItem> commands(const QString &query, const QList<SlashCommand> &commands,
                                          qsizetype limit);
};

} // namespace qcode
