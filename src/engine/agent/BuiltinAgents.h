#pragma once

#include <QList>

#include "Agent.h"
#include "AgentPaths.h"
#include "PermissionRule.h"

namespace qcode {

// OpenCode's native agents and their rules (reference §7), as data.
namespace BuiltinAgents {

// The rules every agent starts from, in order (the last match wins):
// everything allowed; doom_loop and external_directory ask, except the
// tool-output and skill folders; question, plan_enter and plan_exit denied;
// .env files ask before reading (examples are fine).
PermissionRuleset defaults(const AgentPaths &paths);

// build, plan, general, explore, compaction, title, summary, each with
// defaults + its own rules + `user` (the config's global permission).
QList<Agent> create(const AgentPaths &paths, const PermissionRuleset &user);

} // namespace BuiltinAgents

} // namespace qcode
