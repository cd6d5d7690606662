#pragma once

#include <QPointer>
#include <QString>

#include <functional>
#include <optional>

#include "engine/session/loop/AbortSignal.h"
#include "model/Message.h"

namespace qcode {

// What a subtask (reference §2.4) or the task tool (§8.9) asks of the
// engine: run `prompt` with `agent` in a child session of
// `parentSessionID` — a new one, or `taskID`'s when it names a child of
// that parent — and hand back its last text.
struct ChildRequest {
    QString parentSessionID;
    QString agent;
    QString prompt;
    QString description;
    ModelRef model;
    std::optional<QString> taskID;
    QPointer<AbortSignal> abort; // the parent's: stopping it stops the child
    // Told the child's id as soon as it is known, before the child runs,
    // so a view can link to it while it works.
    std::function<void(const QString &childSessionID)> started;
};

struct ChildResult {
    QString sessionID;
    QString text; // the child's last text part
};

} // namespace qcode
