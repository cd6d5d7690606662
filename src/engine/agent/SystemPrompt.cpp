#include "SystemPrompt.h"

using namespace Qt::StringLiterals;

namespace qcode {

PromptText SystemPrompt::familyFor(const QString &apiModelID)
{
    if (apiModelID.contains("gpt-5"_L1))
        return PromptText::Codex;
    if (apiModelID.contains("gpt-"_L1) || apiModelID.contains("o1"_L1) || apiModelID.contains("o3"_L1))
        return PromptText::Beast;
    if (apiModelID.contains("gemini-"_L1))
        return PromptText::Gemini;
    if (apiModelID.contains("claude"_L1))
        return PromptText::Anthropic;
    if (apiModelID.contains("trinity"_L1, Qt::CaseInsensitive))
        return PromptText::Trinity;
    return PromptText::Default;
}

QString SystemPrompt::providerPrompt(const QString &apiModelID)
{
    return PromptLibrary::text(familyFor(apiModelID));
}

QString SystemPrompt::environment(const QString &providerID, const QString &apiModelID, const EnvironmentInfo &info)
{
    QStringList lines{
        u"You are powered by the model named %1. The exact model ID is %2/%1"_s.arg(apiModelID, providerID),
        u"Here is some useful information about the environment you are running in:"_s,
        u"<env>"_s,
        u"  Working directory: "_s + info.workingDirectory,
        u"  Workspace root folder: "_s + info.worktree,
        u"  Is directory a git repo: "_s + (info.isGitRepo ? u"yes"_s : u"no"_s),
        u"  Platform: "_s + info.platform,
        u"  Today's date: "_s + EnvironmentInfo::dateString(info.today),
        u"</env>"_s,
        u"<directories>"_s,
    };
    if (info.directoryListing && !info.directoryListing->isEmpty())
        lines.append(*info.directoryListing);
    lines.append(u"</directories>"_s);
    return lines.join(QLatin1Char('\n'));
}

QStringList SystemPrompt::blocks(const Input &input)
{
    QStringList out;
    const auto add = [&out](const QString &text) {
        if (!text.isEmpty())
            out.append(text);
    };
    if (input.agentPrompt && !input.agentPrompt->isEmpty())
        add(*input.agentPrompt);
    else
        add(providerPrompt(input.apiModelID));
    add(environment(input.providerID, input.apiModelID, input.environment));
    for (const QString &instruction : input.instructions)
        add(instruction);
    for (const QString &text : input.extra)
        add(text);
    if (input.userSystem)
        add(*input.userSystem);
    return out;
}

QStringList SystemPrompt::build(const Input &input)
{
    return {blocks(input).join(QLatin1Char('\n'))};
}

} // namespace qcode
