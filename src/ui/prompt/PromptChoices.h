#pragma once

#include <QMetaType>
#include <QString>

// The things the prompt box offers to choose from, as the main window hands
// them over: small values, copied freely.
namespace qcode {

struct SlashCommand {
    QString name; // without "/"
    QString description;
    bool builtin = true;
};

struct AgentChoice {
    QString name;
    QString description;
    bool primary = true; // false: a subagent, reachable only by "@name"
};

struct ModelChoice {
    QString providerID;
    QString modelID;
    QString label;
    QString group; // "Catalogue", "Configured", "Local servers"

    bool isSameModel(const ModelChoice &other) const
    {
        return providerID == other.providerID && modelID == other.modelID;
    }
};

// A prompt sent while the agent was busy, waiting its turn.
struct QueuedPrompt {
    QString id;
    QString text;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::ModelChoice)
