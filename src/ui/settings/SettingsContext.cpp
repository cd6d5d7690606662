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
    // By key, as default_agent names them (a display name may differ), and
    // in definition order: the first is what qcode picks while the key is unset.
    const AgentRegistry registry = AgentRegistry::load(config, locations, dataDirectory);
    for (const QString &key : registry.keys()) {
        const Agent *agent = registry.find(key);
        if (agent && !agent->isSubagent() && !agent->isHidden())
            agents.append(key);
    }
}

} // namespace qcode
