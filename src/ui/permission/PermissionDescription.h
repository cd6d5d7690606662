#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

#include "engine/session/asks/PermissionCenter.h"
#include "engine/session/SessionEvents.h"

namespace qcode {

// A permission request in the person's words (reference §9): what the agent
// wants to do, and exactly what would happen — the command, the diff, the
// paths — as each tool puts it into the request's metadata. A value, so the
// dialog, a desktop notification and a test read the same words.
struct PermissionDescription {
    struct Detail {
        // Text: a path, an address, a command, shown whole in monospace;
        // Diff: a unified diff, shown coloured.
        enum class Kind { Text, Diff };
        Kind kind = Kind::Text;
        QString label; // "Command", "Changes" …
        QString text;
    };

    QString action;        // "Run a command"
    QString note;          // the agent's own words about it (a command's description); may be empty
    QList<Detail> details; // in the order shown
    // What an "always" answer approves, in words ("“git status *”", "every
    // file edit"); empty when the request offers no "always".
    QString alwaysSubject;
    QString alwaysTooltip; // every pattern "always" approves, one per line
    // The rule "always" saves and, by example, what else it lets through.
    QString alwaysCovers;

    static PermissionDescription describe(const PermissionRequest &request);

    // The "always" button's text, naming what it approves and where, with
    // a mnemonic: "&Always allow “git status *” in this session".
    QString alwaysText(ApprovalScope scope) const;

    Q_DECLARE_TR_FUNCTIONS(PermissionDescription)
};

} // namespace qcode
