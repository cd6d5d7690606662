#include "InstructionSources.h"

#include <QJsonArray>

#include "AgentLogging.h"
#include "engine/config/Config.h"
#include "engine/config/ConfigLocations.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

bool isSet(const QProcessEnvironment &environment, const QString &name)
{
    const QString value = environment.value(name).trimmed().toLower();
    return value == "1"_L1 || value == "true"_L1;
}

} // namespace

InstructionSources InstructionSources::from(const Config &config, const ConfigLocations &locations)
{
    InstructionSources sources;
    sources.projectDirectory = locations.projectDirectory;
    sources.worktree = locations.worktreeRoot.isEmpty() ? locations.projectDirectory : locations.worktreeRoot;
    sources.homeDirectory = locations.homeDirectory;
    sources.globalDirectories = locations.globalDirectories;
    sources.configDirectory = locations.environment.value(u"OPENCODE_CONFIG_DIR"_s);
    sources.disableProjectConfig = isSet(locations.environment, u"OPENCODE_DISABLE_PROJECT_CONFIG"_s);
    sources.disableClaudeCodePrompt = isSet(locations.environment, u"OPENCODE_DISABLE_CLAUDE_CODE_PROMPT"_s);
    const QJsonValue instructions = config.value(u"instructions"_s);
    if (instructions.isArray()) {
        for (const QJsonValue &entry : instructions.toArray()) {
            if (entry.isString() && !entry.toString().trimmed().isEmpty())
                sources.instructions.append(entry.toString().trimmed());
            else
                qCWarning(lcInstructions) << "config \"instructions\" holds something that is not a path or URL; it is ignored";
        }
    } else if (!instructions.isUndefined() && !instructions.isNull()) {
        qCWarning(lcInstructions) << "config \"instructions\" must be a list of paths, globs or URLs; it is ignored";
    }
    return sources;
}

} // namespace qcode
