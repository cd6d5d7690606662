#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "model/Part.h"

namespace qcode {

// The plan/build reminders of reference §2.7, OpenCode's default mode
// (not the experimental plan mode): text added to the last user message of
// the history sent to the model, never stored.
//  - The current agent is "plan": the plan-mode reminder (read-only, plan
//    only).
//  - An earlier assistant message was answered by "plan" and the current
//    agent is "build": the switch-to-build reminder.
namespace Reminders {

// The reminder texts for one step, in the order they are added; empty when
// none applies or the history has no user message.
QStringList forStep(const QList<MessageWithParts> &history, const QString &agentName);

// `history` with forStep()'s texts appended to its last user message as
// synthetic text parts (fresh part ids); the input is left unchanged.
QList<MessageWithParts> withReminders(QList<MessageWithParts> history, const QString &agentName);

} // namespace Reminders

} // namespace qcode
