#include "SettingsContext.h"

#include "engine/agent/AgentRegistry.h"
#include "engine/config/ConfigLoader.h"
#include "engine/config/UserConfigWriter.h"

namespace qcode {

void SettingsContext::loadConfiguration(const ConfigLocations &locations, const QString &dataDirectory)
{
    configDirectory = UserConfigWriter::directoryFor(locations);
    this->dataDirectory = dataDirectory;
    environment = locations.environment;
    catalogue = ModelCatalogue::bundled();
    config = Config::fromJson(ConfigLoader::load(locations).json);
    agents.clear();
    const AgentRegistry registry = AgentRegistry::load(config, locations, dataDirectory);
    for (const Agent &agent : registry.list()) {
        if (!agent.isSubagent() && !agent.isHidden())
            agents.append(agent.name);
    }
}

} // namespace qcode
