#include "CompletionRanking.h"

#include <algorithm>

#include "FuzzyMatcher.h"

namespace qcode {
namespace {

struct Scored {
    CompletionItem item;
    FuzzyMatch match;
};

QList<CompletionItem> best(QList<Scored> scored, qsizetype limit)
{
    const auto before = [](const Scored &a, const Scored &b) {
        return FuzzyMatcher::ranksBefore(a.match, a.item.value, b.match, b.item.value);
    };
    const qsizetype kept = std::min(limit, scored.size());
    std::partial_sort(scored.begin(), scored.begin() + kept, scored.end(), before);
    QList<CompletionItem> out;
    out.reserve(kept);
    for (qsizetype i = 0; i < kept; ++i) {
        scored[i].item.matched = scored[i].match.positions;
        out.append(scored[i].item);
    }
    return out;
}

} // namespace

QList<CompletionItem> CompletionRanking::mentions(const QString &query, const QList<AgentChoice> &agents,
                                                  const QStringList &paths, qsizetype limit)
{
    const FuzzyMatcher matcher(query);
    QList<CompletionItem> agentItems;
    for (const AgentChoice &agent : agents) {
        const QString kind = agent.primary ? tr("agent") : tr("subagent");
        agentItems.append(CompletionItem{agent.primary ? CompletionItem::Kind::Agent : CompletionItem::Kind::Subagent,
                                         agent.name,
                                         agent.description.isEmpty() ? kind : tr("%1 — %2").arg(kind, agent.description),
                                         {}});
    }
    const auto pathItem = [](const QString &path) {
        const bool folder = path.endsWith(u'/');
        return CompletionItem{folder ? CompletionItem::Kind::Folder : CompletionItem::Kind::File, path, {}, {}};
    };

    if (matcher.isEmpty()) {
        QList<CompletionItem> out = agentItems.mid(0, limit);
        for (qsizetype i = 0; i < paths.size() && out.size() < limit; ++i)
            out.append(pathItem(paths.at(i)));
        return out;
    }
    QList<Scored> scored;
    for (const CompletionItem &item : agentItems)
        if (auto match = matcher.match(item.value))
            scored.append(Scored{item, *match});
    for (const QString &path : paths)
        if (auto match = matcher.match(path))
            scored.append(Scored{pathItem(path), *match});
    return best(std::move(scored), limit);
}

QList<CompletionItem> CompletionRanking::commands(const QString &query, const QList<SlashCommand> &commands,
                                                  qsizetype limit)
{
    const FuzzyMatcher matcher(query);
    QList<Scored> scored;
    for (const SlashCommand &command : commands) {
        CompletionItem item{command.builtin ? CompletionItem::Kind::Command : CompletionItem::Kind::CustomCommand,
                            command.name, command.description, {}};
        if (matcher.isEmpty())
            scored.append(Scored{item, FuzzyMatch{}});
        else if (auto match = matcher.match(command.name))
            scored.append(Scored{item, *match});
    }
    if (matcher.isEmpty()) {
        // Listed as given: built-ins in their familiar order, then custom.
        QList<CompletionItem> out;
        for (qsizetype i = 0; i < scored.size() && i < limit; ++i)
            out.append(scored.at(i).item);
        return out;
    }
    return best(std::move(scored), limit);
}

} // namespace qcode
