#pragma once

#include <QList>
#include <QString>

namespace qcode {

// One row of the "@" or "/" popup.
struct CompletionItem {
    enum class Kind { File, Folder, Agent, Subagent, Command, CustomCommand };

    Kind kind = Kind::File;
    QString value;    // what choosing it inserts after the "@" or "/": a path, an agent, a command
    QString detail;   // shown dimmed beside it
    QList<int> matched; // characters of `value` the query matched, for bold
};

} // namespace qcode
