#include "SessionSlug.h"

#include <QRandomGenerator>

#include <array>

using namespace Qt::StringLiterals;

namespace qcode::SessionSlug {

namespace {

constexpr std::array Adjectives{"amber",  "brave",  "calm",   "clever", "cosmic", "crisp",  "eager",  "fuzzy",
                                "gentle", "glossy", "golden", "happy",  "hidden", "jolly",  "keen",   "lively",
                                "lucky",  "mellow", "misty",  "nimble", "noble",  "proud",  "quiet",  "rapid",
                                "silent", "silver", "steady", "sunny",  "swift",  "tidy",   "vivid",  "witty"};
constexpr std::array Nouns{"badger", "beacon", "canyon", "comet",  "falcon", "forest", "garden", "harbor",
                           "island", "lagoon", "meadow", "nebula", "otter",  "panda",  "pebble", "planet",
                           "prairie", "raven", "river",  "rocket", "sparrow", "squid", "summit", "tiger",
                           "tundra", "valley", "walrus", "willow", "wizard", "wombat", "zebra",  "orchid"};

} // namespace

QString create()
{
    QRandomGenerator *random = QRandomGenerator::global();
    return QLatin1StringView(Adjectives[random->bounded(int(Adjectives.size()))]) + u'-'
           + QLatin1StringView(Nouns[random->bounded(int(Nouns.size()))]);
}

} // namespace qcode::SessionSlug
