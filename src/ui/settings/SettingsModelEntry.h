#pragma once

#include <QList>
#include <QString>

#include "engine/catalogue/ModelCatalogue.h"
#include "engine/config/Config.h"
#include "engine/config/LocalServer.h"

namespace qcode {

// One model a person can pick as a default.
struct SettingsModelEntry {
    QString ref;   // "provider/model", as the config spells it
    QString label; // "Claude Sonnet 4.5 · Anthropic"

    bool operator==(const SettingsModelEntry &) const = default;

    // The catalogue with the config's providers merged over it and the
    // detected local servers' models; deprecated models left out, and a
    // local provider only when its server answered.
    static QList<SettingsModelEntry> list(const ModelCatalogue &catalogue, const Config &config,
                                   const QList<LocalServer> &servers);
};

} // namespace qcode
